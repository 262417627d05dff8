import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { billingCharges } from '#db/schema/billing.ts';
import { academicTerms, courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { organizations } from '#db/schema/sites.ts';
import { canonicalCode } from '#domain/access/code-entry.ts';
import type { AuditValues } from '#domain/operations/audit.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict } from '#domain/shared/errors.ts';
import { isUniqueViolation } from '#domain/shared/unique-violation.ts';
import { auditChange, auditedEdit, auditedEnd } from './course-admin-audit.ts';
import {
  orgInScope,
  scopedCourse,
  scopedSection,
  scopedTerm,
  scopeFilter,
  staffOf,
} from './course-admin-scope.ts';
import {
  type CourseTypeChangeFields,
  courseTypeChange,
  type SectionBeforeChange,
} from './course-type-change.ts';
import { runningStatus, type Span, todayOn } from './running-status.ts';
import {
  type Checked,
  type CourseFields,
  type CourseInput,
  type CourseType,
  type CourseValues,
  checkCourse,
  checkSection,
  checkTerm,
  type FieldErrors,
  joinsOnCourseFee,
  provisionsMaterials,
  type SectionFields,
  type SectionInput,
  type SectionNow,
  type SectionValues,
  type TermFields,
  type TermInput,
  type TermValues,
} from './section-rules.ts';

// Issue 39, Course Manager and Course Admin: terms, courses and sections made, edited and ended
// by campus staff. Each save checks the rules (section-rules.ts), writes the change and its audit
// (who, acting as whom, before → after) in one transaction, and answers either the saved id or
// the field errors — nothing half-saved. Every id is looked up inside the person's scope
// (course-admin-scope.ts): another campus's is not found.

export type Saved<F extends string> =
  | { ok: true; id: number }
  | { ok: false; errors: FieldErrors<F> };

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

// ── Organisations ──

/** The organisations the person may work in: all for a manager, else their own. */
export async function organisationChoices(ctx: RequestContext) {
  const { scope } = staffOf(ctx);
  return ctx.db
    .select({ id: organizations.id, title: organizations.title })
    .from(organizations)
    .where(scopeFilter(scope, organizations.id))
    .orderBy(asc(organizations.title), asc(organizations.id));
}

/**
 * A new term or course in an organisation of the person's scope (another is not found): the
 * rules' answer first; then, in one transaction, the row and its audit (after).
 */
async function createAudited<F extends string, V extends AuditValues>(
  ctx: RequestContext,
  objectType: 'term' | 'course',
  orgIdAsked: number | null,
  checked: Checked<V, F>,
  insert: (tx: Queryable, orgId: number, value: V) => Promise<number>,
): Promise<Saved<F>> {
  const { scope, actor } = staffOf(ctx);
  const orgId = orgInScope(scope, orgIdAsked);
  if (!checked.ok) return checked;
  return ctx.db.transaction(async (tx) => {
    const id = await insert(tx, orgId, checked.value);
    await auditChange(
      tx,
      { actor, now: ctx.now },
      { orgId, objectType, objectId: id },
      `${objectType}.create`,
      { after: checked.value },
    );
    return { ok: true as const, id };
  });
}

// ── Terms ──

/**
 * The terms of the person's scope (or of one organisation), newest first, each with its status
 * on the reader's calendar (a term has no clock of its own).
 */
export async function termList(ctx: RequestContext, filter: { orgId: number | null }) {
  const { scope } = staffOf(ctx);
  const today = todayOn(ctx.now, ctx.user?.timeZone ?? 'UTC');
  const rows = await ctx.db
    .select({
      id: academicTerms.id,
      orgId: academicTerms.orgId,
      orgTitle: organizations.title,
      title: academicTerms.title,
      termType: academicTerms.termType,
      startDate: academicTerms.startDate,
      endDate: academicTerms.endDate,
      endedAt: academicTerms.endedAt,
      sectionCount: sql<number>`(select count(*)::int from course_sections s where s.term_id = ${academicTerms.id})`,
    })
    .from(academicTerms)
    .innerJoin(organizations, eq(organizations.id, academicTerms.orgId))
    .where(
      and(
        scopeFilter(scope, academicTerms.orgId),
        filter.orgId === null ? undefined : eq(academicTerms.orgId, filter.orgId),
      ),
    )
    .orderBy(desc(academicTerms.startDate), asc(academicTerms.title), asc(academicTerms.id))
    .limit(500);
  return rows.map((row) => ({ ...row, status: runningStatus(row, null, today) }));
}

export async function createTerm(
  ctx: RequestContext,
  input: TermInput & { orgId: number | null },
): Promise<Saved<TermFields>> {
  return createAudited(ctx, 'term', input.orgId, checkTerm(input), async (tx, orgId, value) => {
    const [row] = await tx
      .insert(academicTerms)
      .values({ orgId, ...value, createdAt: ctx.now, updatedAt: ctx.now })
      .returning({ id: academicTerms.id });
    return row!.id;
  });
}

export async function updateTerm(
  ctx: RequestContext,
  termId: number,
  input: TermInput,
): Promise<Saved<TermFields>> {
  const { scope, actor } = staffOf(ctx);
  await scopedTerm(ctx.db, scope, termId);
  const checked = checkTerm(input);
  if (!checked.ok) return checked;
  return ctx.db.transaction(async (tx) => {
    const term = await scopedTerm(tx, scope, termId, true);
    if (term.endedAt) throw new Conflict('ops.courses.error.ended');
    const before: TermValues = {
      title: term.title,
      termType: term.termType as TermValues['termType'],
      startDate: term.startDate,
      endDate: term.endDate,
    };
    await auditedEdit(
      tx,
      { actor, now: ctx.now },
      { orgId: term.orgId, objectType: 'term', objectId: termId },
      'term.edit',
      { before, after: checked.value },
      () =>
        tx
          .update(academicTerms)
          .set({ ...checked.value, updatedAt: ctx.now })
          .where(eq(academicTerms.id, termId)),
    );
    return { ok: true as const, id: termId };
  });
}

/**
 * Ends a term: it stays, with its sections and history, marked ended; so does each of its
 * sections still open, each audited on its own page (a section does not run on in a term that
 * is over). Once: ending it again changes and records nothing.
 */
export async function endTerm(ctx: RequestContext, termId: number): Promise<void> {
  const { scope, actor } = staffOf(ctx);
  const by = { actor, now: ctx.now };
  await ctx.db.transaction(async (tx) => {
    const term = await scopedTerm(tx, scope, termId, true);
    const page = { orgId: term.orgId, objectType: 'term', objectId: termId } as const;
    await auditedEnd(tx, by, page, term.endedAt, async () => {
      await tx
        .update(academicTerms)
        .set({ endedAt: ctx.now, updatedAt: ctx.now })
        .where(eq(academicTerms.id, termId));
      const open = await tx
        .select({ id: courseSections.id, orgId: courses.orgId })
        .from(courseSections)
        .innerJoin(courses, eq(courses.id, courseSections.courseId))
        .where(and(eq(courseSections.termId, termId), isNull(courseSections.endedAt)))
        .orderBy(asc(courseSections.id))
        .for('update', { of: courseSections });
      for (const section of open) {
        const sectionPage = {
          orgId: section.orgId,
          objectType: 'section',
          objectId: section.id,
        } as const;
        await auditedEnd(tx, by, sectionPage, null, () =>
          tx
            .update(courseSections)
            .set({ endedAt: ctx.now })
            .where(eq(courseSections.id, section.id)),
        );
      }
    });
  });
}

// ── Courses ──

export async function courseList(ctx: RequestContext, filter: { orgId: number | null }) {
  const { scope } = staffOf(ctx);
  const rows = await ctx.db
    .select({
      id: courses.id,
      orgId: courses.orgId,
      orgTitle: organizations.title,
      name: courses.name,
      department: courses.department,
      number: courses.number,
      code: courses.code,
      courseType: courses.courseType,
      sectionCount: sql<number>`(select count(*)::int from course_sections s where s.course_id = ${courses.id})`,
    })
    .from(courses)
    .innerJoin(organizations, eq(organizations.id, courses.orgId))
    .where(
      and(
        scopeFilter(scope, courses.orgId),
        filter.orgId === null ? undefined : eq(courses.orgId, filter.orgId),
      ),
    )
    .orderBy(asc(courses.department), asc(courses.number), asc(courses.id))
    .limit(1000);
  // The database's check holds courses.course_type to COURSE_TYPES.
  return rows.map((row) => ({ ...row, courseType: row.courseType as CourseType }));
}

export async function createCourse(
  ctx: RequestContext,
  input: CourseInput & { orgId: number | null },
): Promise<Saved<CourseFields>> {
  return createAudited(ctx, 'course', input.orgId, checkCourse(input), async (tx, orgId, value) => {
    const [row] = await tx
      .insert(courses)
      .values({ orgId, ...value })
      .returning({ id: courses.id });
    return row!.id;
  });
}

/**
 * A course edited: its fields, and — when its type changes — its running sections made to
 * agree with the new type (course-type-change.ts), each section's change audited on its own
 * page, all in one transaction with the course's audit. The field errors, or the course's id.
 */
export async function updateCourse(
  ctx: RequestContext,
  courseId: number,
  input: CourseInput & { sectionFee?: string },
): Promise<Saved<CourseFields | CourseTypeChangeFields>> {
  const { scope, actor } = staffOf(ctx);
  const known = await scopedCourse(ctx.db, scope, courseId);
  const checked = checkCourse(input, known.courseType);
  if (!checked.ok) return checked;
  return ctx.db.transaction(async (tx) => {
    const course = await scopedCourse(tx, scope, courseId, true);
    const running = await runningSectionsOf(tx, courseId, ctx.now);
    const change = courseTypeChange({
      from: course.courseType,
      to: checked.value.courseType,
      sectionFee: input.sectionFee ?? '',
      running,
    });
    if (!change.ok) return change;
    const by = { actor, now: ctx.now };
    const before: CourseValues = {
      name: course.name,
      department: course.department,
      number: course.number,
      courseType: course.courseType,
    };
    await auditedEdit(
      tx,
      by,
      { orgId: course.orgId, objectType: 'course', objectId: courseId },
      'course.edit',
      { before, after: checked.value },
      // The campus's own code is shown while it is the course's; a code staff change is theirs.
      () =>
        tx
          .update(courses)
          .set({
            ...checked.value,
            ...(checked.value.department !== course.department ||
            checked.value.number !== course.number
              ? { code: null }
              : {}),
          })
          .where(eq(courses.id, courseId)),
    );
    for (const section of change.changes) {
      await auditedEdit(
        tx,
        by,
        { orgId: course.orgId, objectType: 'section', objectId: section.id },
        'section.edit',
        { before: section.before, after: section.after },
        () =>
          tx
            .update(courseSections)
            .set({
              courseFeeCents: section.after.courseFeeCents,
              disableAutoProvisioning: !section.after.provisionsMaterials,
            })
            .where(eq(courseSections.id, section.id)),
      );
    }
    // The students of its running sections are on the course fee exactly as they would be had
    // they joined under the new type (section-rules.ts, joinsOnCourseFee): between course fee
    // and inclusive access (or regular) their reading follows the course's program at once.
    const onFee = joinsOnCourseFee(checked.value.courseType, 'student');
    if (onFee !== joinsOnCourseFee(course.courseType, 'student') && running.length > 0) {
      await tx
        .update(sectionMembers)
        .set({ isCourseFee: onFee })
        .where(
          and(
            inArray(
              sectionMembers.sectionId,
              running.map((section) => section.id),
            ),
            eq(sectionMembers.role, 'student'),
          ),
        );
    }
    return { ok: true as const, id: courseId };
  });
}

/**
 * The course's sections still running (running-status.ts, on each section's clock), locked for
 * the change, with whether billing has charged them.
 */
async function runningSectionsOf(
  tx: Queryable,
  courseId: number,
  now: Date,
): Promise<SectionBeforeChange[]> {
  const rows = await tx
    .select({
      id: courseSections.id,
      courseFeeCents: courseSections.courseFeeCents,
      disableAutoProvisioning: courseSections.disableAutoProvisioning,
      endedAt: courseSections.endedAt,
      endDate: courseSections.endDate,
      timeZone: courseSections.timeZone,
      termEndedAt: academicTerms.endedAt,
      termEndDate: academicTerms.endDate,
      billed: sql<boolean>`exists (select 1 from billing_charges c where c.section_id = ${courseSections.id})`,
    })
    .from(courseSections)
    .leftJoin(academicTerms, eq(academicTerms.id, courseSections.termId))
    .where(eq(courseSections.courseId, courseId))
    .orderBy(asc(courseSections.id))
    .for('update', { of: courseSections });
  return rows
    .filter((r) => runningStatus(r, termSpan(r), todayOn(now, r.timeZone)) === 'running')
    .map((r) => ({
      id: r.id,
      courseFeeCents: r.courseFeeCents,
      disableAutoProvisioning: r.disableAutoProvisioning,
      billed: r.billed,
    }));
}

/** The term a section row runs in, as running-status.ts reads it (null: none). */
function termSpan(row: { termEndedAt: Date | null; termEndDate: string | null }): Span | null {
  return row.termEndDate === null ? null : { endedAt: row.termEndedAt, endDate: row.termEndDate };
}

/** A course's or a term's sections, newest first, with their member counts and status. */
export async function courseSectionsOf(
  db: Queryable,
  where: { courseId?: number; termId?: number },
  now: Date,
) {
  const rows = await db
    .select({
      id: courseSections.id,
      name: courseSections.name,
      number: courseSections.number,
      startDate: courseSections.startDate,
      endDate: courseSections.endDate,
      timeZone: courseSections.timeZone,
      courseFeeCents: courseSections.courseFeeCents,
      endedAt: courseSections.endedAt,
      termEndedAt: academicTerms.endedAt,
      termEndDate: academicTerms.endDate,
      department: courses.department,
      courseNumber: courses.number,
      courseCode: courses.code,
      courseName: courses.name,
      memberCount: sql<number>`(select count(*)::int from section_members m where m.section_id = ${courseSections.id})`,
    })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .leftJoin(academicTerms, eq(academicTerms.id, courseSections.termId))
    .where(
      and(
        where.courseId === undefined ? undefined : eq(courseSections.courseId, where.courseId),
        where.termId === undefined ? undefined : eq(courseSections.termId, where.termId),
      ),
    )
    .orderBy(desc(courseSections.startDate), asc(courses.department), asc(courseSections.number))
    .limit(1000);
  return rows.map(({ termEndedAt, termEndDate, ...row }) => ({
    ...row,
    status: runningStatus(row, termSpan({ termEndedAt, termEndDate }), todayOn(now, row.timeZone)),
  }));
}

// ── Sections ──

export function sectionAudit(v: SectionValues & { termId: number | null }): AuditValues {
  return {
    name: v.name,
    number: v.number,
    termId: v.termId,
    startDate: v.startDate,
    endDate: v.endDate,
    timeZone: v.timeZone,
    addDropAt: iso(v.addDropAt),
    dropPeriodEndsAt: iso(v.dropPeriodEndsAt),
    optingMethod: v.optingMethod,
    courseFeeCents: v.courseFeeCents,
    sectionCode: v.sectionCode,
  };
}

/** The term field: blank is none; else a running term of the section's organisation. */
async function termOfSection(
  tx: Queryable,
  orgId: number,
  raw: string,
): Promise<{ termId: number | null } | { error: string }> {
  if (raw.trim() === '') return { termId: null };
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
  if (id === null || id > 2_147_483_647) return { error: 'ops.courses.error.choice' };
  const [term] = await tx
    .select({ id: academicTerms.id })
    .from(academicTerms)
    .where(and(eq(academicTerms.id, id), eq(academicTerms.orgId, orgId)));
  return term ? { termId: term.id } : { error: 'ops.courses.error.choice' };
}

/** A section code is unique among the organisation's running sections, compared as codes are. */
async function codeTaken(tx: Queryable, orgId: number, code: string, exceptId: number | null) {
  const rows = await tx
    .select({ code: courseSections.sectionCode })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .where(
      and(
        eq(courses.orgId, orgId),
        isNull(courseSections.endedAt),
        sql`${courseSections.sectionCode} is not null`,
        exceptId === null ? undefined : ne(courseSections.id, exceptId),
      ),
    );
  const wanted = canonicalCode(code);
  return rows.some((r) => canonicalCode(r.code ?? '') === wanted);
}

/**
 * A save that writes a section code. codeTaken answers beside the field in the common case;
 * when two staff save one code at once neither sees the other's, and the unique index
 * course_sections_org_code decides: the one refused is told the same, beside the field, with
 * nothing saved (the transaction rolled back).
 */
async function savingSectionCode(
  save: () => Promise<Saved<SectionFields>>,
): Promise<Saved<SectionFields>> {
  try {
    return await save();
  } catch (error) {
    if (!isUniqueViolation(error, 'course_sections_org_code')) throw error;
    return { ok: false, errors: { sectionCode: 'ops.courses.error.sectionCodeTaken' } };
  }
}

async function checkSectionWrite(
  tx: Queryable,
  ctx: RequestContext,
  course: SectionCourse,
  input: SectionInput,
  current: (SectionNow & { id: number }) | null,
) {
  const checked = checkSection(input, { courseType: course.courseType, now: ctx.now, current });
  const errors: FieldErrors<SectionFields> = checked.ok ? {} : { ...checked.errors };
  const term = await termOfSection(tx, course.orgId, input.termId);
  if ('error' in term) errors.termId = term.error;
  if (checked.ok && checked.value.sectionCode !== null && !errors.sectionCode) {
    if (await codeTaken(tx, course.orgId, checked.value.sectionCode, current?.id ?? null)) {
      errors.sectionCode = 'ops.courses.error.sectionCodeTaken';
    }
  }
  if (!checked.ok || 'error' in term || Object.keys(errors).length > 0) {
    return { ok: false as const, errors };
  }
  return { ok: true as const, value: { ...checked.value, termId: term.termId } };
}

type SectionWrite = SectionValues & { termId: number | null };
type SectionCourse = { orgId: number; courseType: CourseType };

/**
 * A section made or edited: in one transaction, the section (or its course) found in scope and
 * locked, the rules (checkSectionWrite), then the write with its audit; the code's race decided
 * by the index (savingSectionCode). The field errors, or the section's id.
 */
function saveSection<
  Opened extends { course: SectionCourse; current: (SectionNow & { id: number }) | null },
>(
  ctx: RequestContext,
  input: SectionInput,
  open: (tx: Queryable) => Promise<Opened>,
  write: (tx: Queryable, value: SectionWrite, opened: Opened) => Promise<number>,
): Promise<Saved<SectionFields>> {
  return savingSectionCode(() =>
    ctx.db.transaction(async (tx) => {
      const opened = await open(tx);
      const checked = await checkSectionWrite(tx, ctx, opened.course, input, opened.current);
      if (!checked.ok) return checked;
      return { ok: true as const, id: await write(tx, checked.value, opened) };
    }),
  );
}

export async function createSection(
  ctx: RequestContext,
  courseId: number,
  input: SectionInput,
): Promise<Saved<SectionFields>> {
  const { scope, actor } = staffOf(ctx);
  await scopedCourse(ctx.db, scope, courseId);
  return saveSection(
    ctx,
    input,
    async (tx) => ({ course: await scopedCourse(tx, scope, courseId, true), current: null }),
    async (tx, value, { course }) => {
      const [row] = await tx
        .insert(courseSections)
        .values({
          courseId,
          ...value,
          rsCourseId: `STAFF-${randomUUID()}`,
          disableAutoProvisioning: !provisionsMaterials(course.courseType),
        })
        .returning({ id: courseSections.id });
      const id = row!.id;
      await auditChange(
        tx,
        { actor, now: ctx.now },
        { orgId: course.orgId, objectType: 'section', objectId: id },
        'section.create',
        { after: sectionAudit(value) },
      );
      return id;
    },
  );
}

export async function updateSection(
  ctx: RequestContext,
  sectionId: number,
  input: SectionInput,
): Promise<Saved<SectionFields>> {
  const { scope, actor } = staffOf(ctx);
  await scopedSection(ctx.db, scope, sectionId);
  return saveSection(
    ctx,
    input,
    async (tx) => {
      // The course first, then the section, in the order a course type change locks them: the
      // type (and so whether the section has a fee) cannot change under this edit.
      const found = await scopedSection(tx, scope, sectionId);
      const course = await scopedCourse(tx, scope, found.course.id, true);
      const { section, closed } = await scopedSection(tx, scope, sectionId, true);
      if (closed) throw new Conflict('ops.courses.error.ended');
      const [charged] = await tx
        .select({ id: billingCharges.id })
        .from(billingCharges)
        .where(eq(billingCharges.sectionId, sectionId))
        .limit(1);
      return { course, current: { ...section, billed: charged !== undefined } };
    },
    async (tx, value, { course, current: section }) => {
      const before = sectionAudit({
        ...section,
        optingMethod: section.optingMethod as SectionValues['optingMethod'],
      });
      await auditedEdit(
        tx,
        { actor, now: ctx.now },
        { orgId: course.orgId, objectType: 'section', objectId: sectionId },
        'section.edit',
        { before, after: sectionAudit(value) },
        async () => {
          await tx.update(courseSections).set(value).where(eq(courseSections.id, sectionId));
          // Members who had the section's deadline (the opting banner reads theirs) move with it.
          if (value.addDropAt.getTime() !== section.addDropAt.getTime()) {
            await tx
              .update(sectionMembers)
              .set({ addDropDate: value.addDropAt })
              .where(
                and(
                  eq(sectionMembers.sectionId, sectionId),
                  eq(sectionMembers.addDropDate, section.addDropAt),
                ),
              );
          }
        },
      );
      return sectionId;
    },
  );
}

/** Ends a section: it stays, with its members and history, marked ended. Once. */
export async function endSection(ctx: RequestContext, sectionId: number): Promise<void> {
  const { scope, actor } = staffOf(ctx);
  await ctx.db.transaction(async (tx) => {
    const { section, course } = await scopedSection(tx, scope, sectionId, true);
    const page = { orgId: course.orgId, objectType: 'section', objectId: sectionId } as const;
    await auditedEnd(tx, { actor, now: ctx.now }, page, section.endedAt, () =>
      tx.update(courseSections).set({ endedAt: ctx.now }).where(eq(courseSections.id, sectionId)),
    );
  });
}
