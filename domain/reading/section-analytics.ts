// 'View Section Analytics' (spec 1 §2, §6), built from the reading events: for each material
// of a section, how many of its students own it, opened it, how often and when last.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { queryRows } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { collectionItems, offerings } from '#db/schema/catalog.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import {
  type EntitlementOwnership,
  entitlement,
  isPhysicalCopy,
} from '#domain/access/entitlement.ts';
import { entitlementMembership, membersWithFacts } from '#domain/access/holdings.ts';
import { type AccessWay, accessCounts, accessWay } from '#domain/analytics/access-through.ts';
import { analyticsVisibility } from '#domain/analytics/analytics-visibility.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import { isActiveOwnership } from '#domain/shelf/ownership.ts';
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
      courseCode: courses.code,
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
  const rows = await queryRows<{
    product_id: number;
    title: string;
    product_type: string;
    status: string;
    readers: number;
    opens: number;
    last_opened_at: string | Date | null;
  }>(
    ctx.db,
    sql`with students as (
          select user_id from section_members where section_id = ${sectionId} and role = 'student'
        )
        select sp.product_id, p.title, p.product_type, p.status,
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
    opens: number;
    last_opened_at: string | Date | null;
  }>(
    ctx.db,
    sql`select u.id as user_id, u.first_name, u.last_name, u.email, sp.product_id,
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
  // Who can open each material now, and through what: the one entitlement rule, asked for
  // each student and material (issue 38: access, not only purchases).
  const productIds = [...new Set(rows.map((row) => Number(row.product_id)))];
  const wayOf = await studentAccess(ctx, sectionId, productIds, {
    products: rows.map((row) => ({
      id: Number(row.product_id),
      productType: row.product_type,
      status: row.status,
    })),
  });
  for (const row of perStudent) {
    const userId = Number(row.user_id);
    const productId = Number(row.product_id);
    studentsById.get(userId)?.materials.push({
      productId,
      access: wayOf(userId, productId),
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
      access: accessCounts(
        everyStudent.map((student) => wayOf(student.userId, Number(row.product_id))),
      ),
      readers: Number(row.readers),
      opens: Number(row.opens),
      lastOpenedAt: row.last_opened_at === null ? null : new Date(row.last_opened_at),
    })),
  };
}

/**
 * Each student's way of access to each material, as the entitlement rule decides it from
 * their membership of this section and their ownerships (direct, or through a collection).
 * Three queries for the whole section, whatever its size.
 */
async function studentAccess(
  ctx: RequestContext,
  sectionId: number,
  productIds: readonly number[],
  facts: { products: { id: number; productType: string; status: string }[] },
): Promise<(userId: number, productId: number) => AccessWay | null> {
  if (productIds.length === 0) return () => null;
  const ids = [...productIds];
  const window = {
    userId: ownerships.userId,
    source: ownerships.source,
    startsAt: ownerships.startsAt,
    expiresAt: ownerships.expiresAt,
    revokedAt: ownerships.revokedAt,
  };
  const students = sql`(select user_id from section_members where section_id = ${sectionId} and role = 'student')`;
  const [members, direct, throughCollections, offered] = await Promise.all([
    membersWithFacts(ctx.db, { userId: sectionMembers.userId }).where(
      and(eq(sectionMembers.sectionId, sectionId), eq(sectionMembers.role, 'student')),
    ),
    ctx.db
      .select({ productId: ownerships.productId, ...window })
      .from(ownerships)
      .where(and(inArray(ownerships.productId, ids), sql`${ownerships.userId} in ${students}`)),
    ctx.db
      .select({ productId: collectionItems.itemId, ...window })
      .from(ownerships)
      .innerJoin(collectionItems, eq(collectionItems.collectionId, ownerships.productId))
      .where(and(inArray(collectionItems.itemId, ids), sql`${ownerships.userId} in ${students}`)),
    ctx.db
      .select({ productId: offerings.productId, type: offerings.type })
      .from(offerings)
      .where(and(inArray(offerings.productId, ids), eq(offerings.isActive, true))),
  ]);
  const membership = new Map(
    members.map((m) => [m.userId, entitlementMembership({ ...m, sectionId })]),
  );
  const owned = new Map<string, (EntitlementOwnership & { source: string })[]>();
  const note = (row: (typeof direct)[number], viaCollection: boolean) => {
    const key = `${row.userId}:${row.productId}`;
    const { userId: _u, productId: _p, ...window } = row;
    owned.set(key, [...(owned.get(key) ?? []), { ...window, viaCollection }]);
  };
  for (const row of direct) note(row, false);
  for (const row of throughCollections) note({ ...row, source: 'purchase' }, true);
  const productOf = new Map(
    facts.products.map((p) => [
      p.id,
      {
        productType: p.productType,
        status: p.status,
        physical: isPhysicalCopy(
          p.productType,
          offered.filter((o) => o.productId === p.id).map((o) => o.type),
        ),
      },
    ]),
  );
  return (userId, productId) => {
    const member = membership.get(userId);
    const product = productOf.get(productId);
    if (!member || !product) return null;
    const held = owned.get(`${userId}:${productId}`) ?? [];
    const decision = entitlement({
      signedIn: true,
      product,
      ownerships: held,
      memberships: [member],
      through: { sectionId },
      now: ctx.now,
    });
    return accessWay(
      decision,
      held.filter((o) => isActiveOwnership(o, ctx.now)).map((o) => o.source),
    );
  };
}
