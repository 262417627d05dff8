import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { products } from '#db/schema/catalog.ts';
import { courseSections, courses, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid, NotFound } from '#domain/shared/errors.ts';
import { activeOwnership, isActiveOwnership } from '#domain/shelf/ownership.ts';
import { canonicalCode, meantCode, typedCode } from './code-entry.ts';
import type { FactsFrom } from './entitlement-facts.ts';
import { type Holdings, holdingsOf } from './holdings.ts';

// Classroom section codes (spec 1 §4 Classroom redeem prompt; spec 2 §4 Classroom): a student
// who bought a classroom confirms the code their instructor handed out, which ties the
// classroom to that section; instructors enter without one.

export type ClassroomAccess = {
  /** The prompt shows: owned, code not yet confirmed, and not a classroom instructor. */
  promptForCode: boolean;
  canEnter: boolean;
  sectionId: number | null;
  asInstructor: boolean;
};

/** Pure: who may enter, and whether the section-code prompt shows. */
export function classroomAccess(input: {
  owned: boolean;
  isSectionCodeConfirmed: boolean;
  classroomSectionId: number | null;
  instructorSectionId: number | null;
}): ClassroomAccess {
  if (input.instructorSectionId !== null) {
    return {
      promptForCode: false,
      canEnter: true,
      sectionId: input.instructorSectionId,
      asInstructor: true,
    };
  }
  const confirmed = input.isSectionCodeConfirmed && input.classroomSectionId !== null;
  return {
    promptForCode: input.owned && !confirmed,
    canEnter: input.owned && confirmed,
    sectionId: confirmed ? input.classroomSectionId : null,
    asInstructor: false,
  };
}

/**
 * Who teaches a classroom (spec 1 §6 Roles: "Classroom instructors may enter the classroom
 * without a confirmed section code"): the section's professor and teaching assistants, and
 * any member marked as its classroom instructor. Students never do.
 */
export function teachesClassroom(member: { role: string; isClassroomInstructor: boolean }) {
  return (
    member.isClassroomInstructor ||
    member.role === 'professor' ||
    member.role === 'teaching_assistant'
  );
}

export type ClassroomView = 'instructor' | 'student';

/** What the classroom of one section does for this user. */
export type ClassroomDoor =
  | { kind: 'enter'; view: ClassroomView }
  /** The owner has not confirmed a section code yet: the section-code prompt. */
  | { kind: 'prompt' }
  /** Refused, with the reason as a message key. */
  | { kind: 'refused'; reason: ClassroomRefusal };

export type ClassroomRefusal = 'classroom.refused.notOwned' | 'classroom.refused.otherSection';

/**
 * Pure: the door of one section's classroom (spec 2 §4 Classroom, "section/{id}?type=
 * instructor or student"; spec 1 §4 Classroom redeem prompt). Its instructors enter the
 * instructor view (or the student view when they ask for it); a student enters the student
 * view only with a confirmed code for this very section, whatever view they ask for; an owner
 * without a confirmed code gets the prompt; anyone else is refused with the reason.
 */
export function classroomDoor(input: {
  sectionId: number;
  asked: ClassroomView | null;
  teachesSection: boolean;
  owned: boolean;
  isSectionCodeConfirmed: boolean;
  classroomSectionId: number | null;
}): ClassroomDoor {
  if (input.teachesSection) {
    return { kind: 'enter', view: input.asked === 'student' ? 'student' : 'instructor' };
  }
  const access = classroomAccess({
    owned: input.owned,
    isSectionCodeConfirmed: input.isSectionCodeConfirmed,
    classroomSectionId: input.classroomSectionId,
    instructorSectionId: null,
  });
  if (access.canEnter && access.sectionId === input.sectionId) {
    return { kind: 'enter', view: 'student' };
  }
  if (access.promptForCode) return { kind: 'prompt' };
  if (access.canEnter) return { kind: 'refused', reason: 'classroom.refused.otherSection' };
  return { kind: 'refused', reason: 'classroom.refused.notOwned' };
}

/**
 * What `classroomAccess` reads for this product, from the rows the user holds: their ownership
 * of it in its window at `now`, and a section listing it where they teach (the lowest id).
 */
export function classroomFactsIn(held: Holdings, productId: number, now: Date) {
  const owned = held.ownerships.find(
    (row) => row.productId === productId && isActiveOwnership(row, now),
  );
  const taught = held.listings
    .filter(
      (listing) =>
        listing.productId === productId &&
        teachesClassroom({
          role: listing.membership.role,
          isClassroomInstructor: listing.isClassroomInstructor,
        }),
    )
    .map((listing) => listing.membership.sectionId)
    .sort((a, b) => a - b);
  return {
    owned: !!owned,
    isSectionCodeConfirmed: owned?.isSectionCodeConfirmed ?? false,
    classroomSectionId: owned?.classroomSectionId ?? null,
    instructorSectionId: taught[0] ?? null,
  };
}

/** teachesClassroom as SQL on section_members (the same three ways in). */
const teacherCondition = or(
  eq(sectionMembers.isClassroomInstructor, true),
  inArray(sectionMembers.role, ['professor', 'teaching_assistant']),
);

/** The section where this user teaches a classroom product, if any. */
async function instructorSection(ctx: RequestContext, productId: number): Promise<number | null> {
  const [row] = await ctx.db
    .select({ sectionId: sectionMembers.sectionId })
    .from(sectionMembers)
    .innerJoin(sectionProducts, eq(sectionProducts.sectionId, sectionMembers.sectionId))
    .where(
      and(
        eq(sectionMembers.userId, ctx.user!.id),
        eq(sectionProducts.productId, productId),
        teacherCondition,
      ),
    )
    .limit(1);
  return row?.sectionId ?? null;
}

/**
 * What the classroom product does for the signed-in user: from the database, or (a page
 * showing it, `from` 'cache') from what the user holds (holdings.ts), at this request's `now`.
 */
export async function classroomAccessFor(
  ctx: RequestContext,
  productId: number,
  from: FactsFrom = 'database',
): Promise<ClassroomAccess> {
  if (!ctx.user) throw new Forbidden();
  if (from === 'cache') {
    return classroomAccess(
      classroomFactsIn(await holdingsOf(ctx, ctx.user.id), productId, ctx.now),
    );
  }
  const [owned] = await ctx.db
    .select({
      isSectionCodeConfirmed: ownerships.isSectionCodeConfirmed,
      classroomSectionId: ownerships.classroomSectionId,
    })
    .from(ownerships)
    .where(
      and(
        eq(ownerships.userId, ctx.user.id),
        eq(ownerships.productId, productId),
        activeOwnership(ctx.now),
      ),
    )
    .limit(1);
  return classroomAccess({
    owned: !!owned,
    isSectionCodeConfirmed: owned?.isSectionCodeConfirmed ?? false,
    classroomSectionId: owned?.classroomSectionId ?? null,
    instructorSectionId: await instructorSection(ctx, productId),
  });
}

/**
 * Confirms a classroom's section code (spec 2 §7 Section code confirm): the code of a section
 * that lists this classroom. The owner's classroom is tied to that section; the section id is
 * answered. A wrong code changes nothing.
 */
export async function confirmSectionCode(
  ctx: RequestContext,
  input: { productId: number; code: string; sectionId?: number },
): Promise<{ sectionId: number }> {
  const user = ctx.user;
  if (!user) throw new Forbidden();
  const code = typedCode(input.code);
  // The sections that list this classroom (a handful), compared as codes are (issue 38).
  const sections = await ctx.db
    .select({ id: courseSections.id, sectionCode: courseSections.sectionCode })
    .from(courseSections)
    .innerJoin(sectionProducts, eq(sectionProducts.sectionId, courseSections.id))
    .where(
      and(
        eq(sectionProducts.productId, input.productId),
        // Entered on one section's classroom page, the code must be that section's.
        input.sectionId === undefined ? undefined : eq(courseSections.id, input.sectionId),
        isNotNull(courseSections.sectionCode),
      ),
    )
    .orderBy(asc(courseSections.id));
  const meant = meantCode(
    code,
    sections.map((row) => ({ code: canonicalCode(row.sectionCode ?? ''), record: row.id })),
  );
  if (meant.kind !== 'exact' && meant.kind !== 'lookalike') {
    throw new Invalid('classroom.error.code');
  }
  const section = { id: meant.record };
  const updated = await ctx.db
    .update(ownerships)
    .set({
      isSectionCodeConfirmed: true,
      classroomSectionId: section.id,
      sectionCodeConfirmedAt: ctx.now,
    })
    .where(
      and(
        eq(ownerships.userId, user.id),
        eq(ownerships.productId, input.productId),
        activeOwnership(ctx.now),
      ),
    )
    .returning({ id: ownerships.id });
  if (updated.length === 0) throw new NotFound();
  forgetAccounts([user.id]);
  return { sectionId: section.id };
}

/** One section's classroom, as its door and the facts a page needs around it. */
export type SectionClassroom = {
  door: ClassroomDoor;
  classroom: { productId: number; title: string; languageCode: string };
  section: {
    id: number;
    name: string;
    number: string | null;
    department: string;
    courseNumber: string;
    courseCode: string | null;
    courseName: string;
  };
  /** Whether the user is a member of the section (its shelf buttons are computed for them). */
  isMember: boolean;
};

/**
 * The classroom of one section for the logged-in user (spec 2 §4 Classroom). Not found unless
 * the section lists this classroom product; the door decides the rest.
 */
export async function sectionClassroom(
  ctx: RequestContext,
  input: { productId: number; sectionId: number; asked: ClassroomView | null },
): Promise<SectionClassroom> {
  const user = ctx.user;
  if (!user) throw new Forbidden('error.loginRequired');
  const [row] = await ctx.db
    .select({
      productId: products.id,
      title: products.title,
      languageCode: products.languageCode,
      sectionId: courseSections.id,
      name: courseSections.name,
      number: courseSections.number,
      department: courses.department,
      courseNumber: courses.number,
      courseCode: courses.code,
      courseName: courses.name,
    })
    .from(sectionProducts)
    .innerJoin(products, eq(products.id, sectionProducts.productId))
    .innerJoin(courseSections, eq(courseSections.id, sectionProducts.sectionId))
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .where(
      and(
        eq(sectionProducts.sectionId, input.sectionId),
        eq(sectionProducts.productId, input.productId),
        eq(products.productType, 'classroom'),
        sql`${products.status} <> 'deleted'`,
      ),
    )
    .limit(1);
  if (!row) throw new NotFound();
  const [[member], [owned]] = await Promise.all([
    ctx.db
      .select({
        role: sectionMembers.role,
        isClassroomInstructor: sectionMembers.isClassroomInstructor,
      })
      .from(sectionMembers)
      .where(and(eq(sectionMembers.sectionId, row.sectionId), eq(sectionMembers.userId, user.id)))
      .limit(1),
    ctx.db
      .select({
        isSectionCodeConfirmed: ownerships.isSectionCodeConfirmed,
        classroomSectionId: ownerships.classroomSectionId,
      })
      .from(ownerships)
      .where(
        and(
          eq(ownerships.userId, user.id),
          eq(ownerships.productId, row.productId),
          activeOwnership(ctx.now),
        ),
      )
      .limit(1),
  ]);
  return {
    door: classroomDoor({
      sectionId: row.sectionId,
      asked: input.asked,
      teachesSection: member ? teachesClassroom(member) : false,
      owned: !!owned,
      isSectionCodeConfirmed: owned?.isSectionCodeConfirmed ?? false,
      classroomSectionId: owned?.classroomSectionId ?? null,
    }),
    classroom: { productId: row.productId, title: row.title, languageCode: row.languageCode },
    section: {
      id: row.sectionId,
      name: row.name,
      number: row.number,
      department: row.department,
      courseNumber: row.courseNumber,
      courseCode: row.courseCode,
      courseName: row.courseName,
    },
    isMember: !!member,
  };
}

/**
 * Where Access Classroom leads for each classroom a section lists (the course section page):
 * the view the door opens, or 'prompt' for an owner still to confirm the code. A classroom
 * whose door is shut is left out (its own shelf button stays).
 */
export async function sectionClassroomEntries(
  ctx: RequestContext,
  sectionId: number,
  productIds: readonly number[],
): Promise<Record<number, ClassroomView | 'prompt'>> {
  const entries: Record<number, ClassroomView | 'prompt'> = {};
  for (const productId of productIds) {
    const { door } = await sectionClassroom(ctx, { productId, sectionId, asked: null });
    if (door.kind === 'enter') entries[productId] = door.view;
    else if (door.kind === 'prompt') entries[productId] = 'prompt';
  }
  return entries;
}

export type TaughtClassroom = {
  productId: number;
  title: string;
  languageCode: string;
  sectionId: number;
  department: string;
  courseNumber: string;
  courseCode: string | null;
  sectionNumber: string | null;
  courseName: string;
  /** Students who joined with the section code and still hold the classroom. */
  joined: number;
};

/**
 * The classrooms this user teaches, one per section (spec 1 §2 My Classrooms, "instructors
 * of classrooms"): by course, then section.
 */
export async function taughtClassrooms(ctx: RequestContext): Promise<TaughtClassroom[]> {
  const user = ctx.user;
  if (!user) throw new Forbidden('error.loginRequired');
  const rows = await ctx.db
    .select({
      productId: products.id,
      title: products.title,
      languageCode: products.languageCode,
      sectionId: courseSections.id,
      department: courses.department,
      courseNumber: courses.number,
      courseCode: courses.code,
      sectionNumber: courseSections.number,
      courseName: courses.name,
    })
    .from(sectionMembers)
    .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .innerJoin(sectionProducts, eq(sectionProducts.sectionId, courseSections.id))
    .innerJoin(products, eq(products.id, sectionProducts.productId))
    .where(
      and(
        eq(sectionMembers.userId, user.id),
        teacherCondition,
        eq(products.productType, 'classroom'),
        sql`${products.status} <> 'deleted'`,
      ),
    )
    .orderBy(
      asc(courses.department),
      asc(courses.number),
      asc(courseSections.number),
      asc(courseSections.id),
      asc(sectionProducts.position),
    );
  if (rows.length === 0) return [];
  const counts = await ctx.db
    .select({
      productId: ownerships.productId,
      sectionId: ownerships.classroomSectionId,
      joined: sql<number>`count(*)::int`,
    })
    .from(ownerships)
    .where(
      and(
        inArray(ownerships.productId, [...new Set(rows.map((row) => row.productId))]),
        inArray(ownerships.classroomSectionId, [...new Set(rows.map((row) => row.sectionId))]),
        eq(ownerships.isSectionCodeConfirmed, true),
        activeOwnership(ctx.now),
      ),
    )
    .groupBy(ownerships.productId, ownerships.classroomSectionId);
  const joined = new Map(counts.map((c) => [`${c.productId}:${c.sectionId}`, c.joined]));
  return rows.map((row) => ({
    ...row,
    joined: joined.get(`${row.productId}:${row.sectionId}`) ?? 0,
  }));
}
