// 'View Section Analytics' (spec 1 §2, §6), built from the reading events: for each material
// of a section, how many of its students own it, opened it, how often and when last.
import { and, asc, eq, sql } from 'drizzle-orm';
import { queryRows } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { analyticsVisibility } from '#domain/analytics/analytics-visibility.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import { userOf } from './reader-access.ts';
import type { SectionAnalytics } from './types.ts';

/**
 * A section's materials, each version of a physical/digital choice its own row (issue 19: the
 * walk found the alternative missing from the analytics, though the course lists it).
 */
const sectionMaterials = sql`(select s.section_id, x.product_id, s.position, s.id, x.n
  from section_products s
  cross join lateral unnest(array[s.product_id, s.additional_product_id])
    with ordinality as x(product_id, n)
  where x.product_id is not null)`;
/**
 * 'View Section Analytics' (spec 1 §2, §6: professors and teaching assistants of the section
 * only): for each material of the section, how many of its students own it now, how many of
 * them opened it, how often, and when last, from the reading events.
 */
export async function sectionAnalytics(
  ctx: RequestContext,
  sectionId: number,
): Promise<SectionAnalytics> {
  const user = userOf(ctx);
  const [section] = await ctx.db
    .select({
      id: courseSections.id,
      number: courseSections.number,
      department: courses.department,
      courseNumber: courses.number,
    })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .where(eq(courseSections.id, sectionId))
    .limit(1);
  if (!section) throw new NotFound();
  const roles = await ctx.db
    .select({ role: sectionMembers.role })
    .from(sectionMembers)
    .where(and(eq(sectionMembers.sectionId, sectionId), eq(sectionMembers.userId, user.id)));
  const visibility = analyticsVisibility(roles.map((r) => r.role));
  if (!visibility.visible) throw new Forbidden(visibility.messageKey);
  const now = ctx.now.toISOString();
  const rows = await queryRows<{
    product_id: number;
    title: string;
    product_type: string;
    owners: number;
    readers: number;
    opens: number;
    last_opened_at: string | Date | null;
  }>(
    ctx.db,
    sql`with students as (
          select user_id from section_members where section_id = ${sectionId} and role = 'student'
        )
        select sp.product_id, p.title, p.product_type,
          (select count(distinct o.user_id)::int from ownerships o
            where o.product_id = sp.product_id and o.user_id in (select user_id from students)
              and o.starts_at <= ${now}::timestamptz
              and (o.revoked_at is null or o.revoked_at > ${now}::timestamptz)
              and (o.expires_at is null or o.expires_at > ${now}::timestamptz)) as owners,
          e.readers, e.opens, e.last_opened_at
        from ${sectionMaterials} sp
        join products p on p.id = sp.product_id
        cross join lateral (
          select count(distinct r.user_id)::int as readers, count(*)::int as opens,
                 max(r.occurred_at) as last_opened_at
          from reading_events r
          where r.product_id = sp.product_id and r.kind = 'open'
            and r.user_id in (select user_id from students)
        ) e
        where sp.section_id = ${sectionId}
        order by sp.position, sp.id, sp.n`,
  );
  // Each student with each material of the section (a row even when never opened).
  const perStudent = await queryRows<{
    user_id: number;
    first_name: string;
    last_name: string;
    email: string;
    product_id: number;
    owns: boolean;
    opens: number;
    last_opened_at: string | Date | null;
  }>(
    ctx.db,
    sql`select u.id as user_id, u.first_name, u.last_name, u.email, sp.product_id,
          exists (select 1 from ownerships o
            where o.product_id = sp.product_id and o.user_id = u.id
              and o.starts_at <= ${now}::timestamptz
              and (o.revoked_at is null or o.revoked_at > ${now}::timestamptz)
              and (o.expires_at is null or o.expires_at > ${now}::timestamptz)) as owns,
          e.opens, e.last_opened_at
        from section_members sm
        join users u on u.id = sm.user_id
        join ${sectionMaterials} sp on sp.section_id = sm.section_id
        cross join lateral (
          select count(*)::int as opens, max(r.occurred_at) as last_opened_at
          from reading_events r
          where r.product_id = sp.product_id and r.kind = 'open' and r.user_id = u.id
        ) e
        where sm.section_id = ${sectionId} and sm.role = 'student'
        order by lower(u.last_name), lower(u.first_name), u.id, sp.position, sp.id, sp.n`,
  );
  const studentsById = new Map<number, SectionAnalytics['students'][number]>();
  const [students] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sectionMembers)
    .where(and(eq(sectionMembers.sectionId, sectionId), eq(sectionMembers.role, 'student')));
  const everyStudent = await ctx.db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(sectionMembers)
    .innerJoin(users, eq(users.id, sectionMembers.userId))
    .where(and(eq(sectionMembers.sectionId, sectionId), eq(sectionMembers.role, 'student')))
    .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.id));
  for (const student of everyStudent)
    studentsById.set(student.userId, { ...student, materials: [] });
  for (const row of perStudent) {
    studentsById.get(Number(row.user_id))?.materials.push({
      productId: Number(row.product_id),
      owns: Boolean(row.owns),
      opens: Number(row.opens),
      lastOpenedAt: row.last_opened_at === null ? null : new Date(row.last_opened_at),
    });
  }
  return {
    section,
    studentCount: Number(students?.n ?? 0),
    students: [...studentsById.values()],
    materials: rows.map((row) => ({
      productId: Number(row.product_id),
      title: row.title,
      productType: row.product_type,
      owners: Number(row.owners),
      readers: Number(row.readers),
      opens: Number(row.opens),
      lastOpenedAt: row.last_opened_at === null ? null : new Date(row.last_opened_at),
    })),
  };
}
