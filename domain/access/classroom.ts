import { and, eq, or, sql } from 'drizzle-orm';
import { courseSections, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid, NotFound } from '#domain/shared/errors.ts';
import { activeOwnership } from '#domain/shelf/ownership.ts';

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
        or(eq(sectionMembers.isClassroomInstructor, true), eq(sectionMembers.role, 'professor')),
      ),
    )
    .limit(1);
  return row?.sectionId ?? null;
}

export async function classroomAccessFor(
  ctx: RequestContext,
  productId: number,
): Promise<ClassroomAccess> {
  if (!ctx.user) throw new Forbidden();
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
  input: { productId: number; code: string },
): Promise<{ sectionId: number }> {
  const user = ctx.user;
  if (!user) throw new Forbidden();
  const code = input.code.trim();
  if (code === '') throw new Invalid('redeem.error.empty');
  const [section] = await ctx.db
    .select({ id: courseSections.id })
    .from(courseSections)
    .innerJoin(sectionProducts, eq(sectionProducts.sectionId, courseSections.id))
    .where(
      and(
        eq(sectionProducts.productId, input.productId),
        sql`upper(${courseSections.sectionCode}) = upper(${code})`,
      ),
    )
    .limit(1);
  if (!section) throw new Invalid('classroom.error.code');
  const updated = await ctx.db
    .update(ownerships)
    .set({ isSectionCodeConfirmed: true, classroomSectionId: section.id })
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
