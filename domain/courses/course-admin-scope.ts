import { eq, inArray, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { academicTerms, courseSections, courses } from '#db/schema/courses.ts';
import { type AuditActor, type AuditLine, auditActorOf } from '#domain/operations/audit.ts';
import { inOrgScope, type OrgScope, orgScopeOf } from '#domain/operations/staff-scope.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import type { CourseType } from './section-rules.ts';

// Issue 39, Course Manager and Course Admin: every read and write of the tool starts from the
// person's organisation scope (staff-scope.ts). A term, course or section outside it is not
// found — the same answer as an id that does not exist, by any URL or form field.

export type Staff = { scope: OrgScope; actor: AuditActor };

/** The signed-in staff member's scope and audit actor (the page has checked the menu rule). */
export function staffOf(ctx: RequestContext): Staff {
  if (!ctx.user) throw new Forbidden('error.loginRequired');
  return { scope: orgScopeOf(ctx.user), actor: auditActorOf(ctx.user) };
}

/** A WHERE clause limiting an organisation column to the scope (none for store-wide staff). */
export function scopeFilter(scope: OrgScope, column: AnyPgColumn): SQL | undefined {
  if (scope.kind === 'all') return undefined;
  return inArray(column, scope.orgIds.length > 0 ? [...scope.orgIds] : [-1]);
}

/** The organisation an object is made in, if the scope holds it; else not found. */
export function orgInScope(scope: OrgScope, orgId: number | null): number {
  if (orgId === null || !inOrgScope(scope, orgId)) throw new NotFound();
  return orgId;
}

export async function scopedTerm(db: Queryable, scope: OrgScope, termId: number, lock = false) {
  const query = db.select().from(academicTerms).where(eq(academicTerms.id, termId));
  const [term] = lock ? await query.for('update') : await query;
  if (!term || !inOrgScope(scope, term.orgId)) throw new NotFound();
  return term;
}

export async function scopedCourse(db: Queryable, scope: OrgScope, courseId: number, lock = false) {
  const query = db.select().from(courses).where(eq(courses.id, courseId));
  const [course] = lock ? await query.for('update') : await query;
  if (!course || !inOrgScope(scope, course.orgId)) throw new NotFound();
  return { ...course, courseType: course.courseType as CourseType };
}

export async function scopedSection(
  db: Queryable,
  scope: OrgScope,
  sectionId: number,
  lock = false,
) {
  const query = db
    .select({ section: courseSections, course: courses, termEndedAt: academicTerms.endedAt })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .leftJoin(academicTerms, eq(academicTerms.id, courseSections.termId))
    .where(eq(courseSections.id, sectionId));
  const [row] = lock ? await query.for('update', { of: courseSections }) : await query;
  if (!row || !inOrgScope(scope, row.course.orgId)) throw new NotFound();
  return {
    section: row.section,
    course: { ...row.course, courseType: row.course.courseType as CourseType },
    /** Ended by staff, itself or with its term (however the term was ended): it changes no more. */
    closed: row.section.endedAt !== null || row.termEndedAt !== null,
  };
}

/** The names of the accounts an audit's lines were acted as (Switch Account), by id. */
export async function actingAsNames(
  db: Queryable,
  lines: readonly AuditLine[],
): Promise<Record<number, string>> {
  const ids = [
    ...new Set(lines.flatMap((l) => (l.actingAsUserId === null ? [] : [l.actingAsUserId]))),
  ];
  if (ids.length === 0) return {};
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .where(inArray(users.id, ids));
  return Object.fromEntries(
    rows.map((r) => [r.id, `${`${r.firstName} ${r.lastName}`.trim() || r.email} <${r.email}>`]),
  );
}
