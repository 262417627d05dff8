import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { queryRows } from '#db/client.ts';
import { academicTerms, courseSections, courses } from '#db/schema/courses.ts';
import { organizations } from '#db/schema/sites.ts';
import { deadlineDay, isOptStatus } from '#domain/courses/opting.ts';
import { inOrgScope, type OrgScope } from '#domain/operations/staff-scope.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import type { DashboardQuery } from './course-types.ts';
import {
  type DashboardSection,
  type DepartmentFigures,
  defaultTerm,
  departmentFigures,
  type Figures,
  type OptOutPoint,
  optOutSeries,
  type SectionFigures,
  type StudentGroup,
  sectionFigures,
  type TermChoice,
  totalFigures,
} from './term-figures.ts';

// Issue 39, the term at a glance: the figures of one organisation's term, for the staff whose
// scope holds it (staff-scope.ts). Members are counted in SQL, one query grouped by section
// and by the facts that decide a standing; term-figures.ts says what the counts mean. An
// organisation or a term outside the viewer's scope is not found, exactly like one that does
// not exist.

export type OrgChoice = { id: number; title: string };

export type TermDashboard = {
  /** The organisations the viewer may choose among (one for a campus's own staff). */
  orgs: OrgChoice[];
  org: OrgChoice | null;
  terms: TermChoice[];
  term: TermChoice | null;
  /** The term's departments, for the filter (all of them, whatever is filtered). */
  departments: string[];
  rows: SectionFigures[];
  totals: Figures;
  /** Opt-outs by day in the viewer's time zone, with the running total. */
  optOuts: OptOutPoint[];
};

async function orgChoices(ctx: RequestContext, scope: OrgScope): Promise<OrgChoice[]> {
  const columns = { id: organizations.id, title: organizations.title };
  if (scope.kind === 'orgs') {
    if (scope.orgIds.length === 0) return [];
    return ctx.db
      .select(columns)
      .from(organizations)
      .where(inArray(organizations.id, [...scope.orgIds]))
      .orderBy(asc(organizations.title), asc(organizations.id));
  }
  // A manager chooses among the organisations that have terms.
  return ctx.db
    .selectDistinct(columns)
    .from(organizations)
    .innerJoin(academicTerms, eq(academicTerms.orgId, organizations.id))
    .orderBy(asc(organizations.title), asc(organizations.id));
}

async function chosenOrg(
  ctx: RequestContext,
  scope: OrgScope,
  orgs: OrgChoice[],
  orgId: number | null,
): Promise<OrgChoice | null> {
  if (orgId === null) {
    const own = orgs.find((o) => o.id === ctx.user?.orgId);
    return own ?? orgs[0] ?? null;
  }
  if (!inOrgScope(scope, orgId)) throw new NotFound();
  const listed = orgs.find((o) => o.id === orgId);
  if (listed) return listed;
  const [org] = await ctx.db
    .select({ id: organizations.id, title: organizations.title })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  if (!org) throw new NotFound();
  orgs.push(org);
  return org;
}

/** The rows of the term's sections that the filters keep. */
function sectionFilter(orgId: number, termId: number, query: DashboardQuery): SQL {
  return and(
    eq(courses.orgId, orgId),
    eq(courseSections.termId, termId),
    isNull(courseSections.endedAt),
    query.department === null ? undefined : eq(courses.department, query.department),
    query.courseType === null ? undefined : eq(courses.courseType, query.courseType),
  ) as SQL;
}

type GroupRow = {
  section_id: number;
  opt_status: string;
  can_update_opt_status: boolean;
  before_deadline: boolean;
  count: number;
};

/** The term's students counted by section and by the facts that decide their standing. */
async function studentGroups(ctx: RequestContext, where: SQL): Promise<StudentGroup[]> {
  const now = ctx.now.toISOString();
  // Two aggregates instead of a question per member: the students grouped by the facts on
  // their row, then, of those who could still choose (opted in, before their deadline,
  // allowed to change), how many made an opt change themselves — read from the term's opting
  // events only. At 100,000 members the per-member subquery cost most of the page
  // (bench/inclusive-dashboard.ts, docs/benchmarks.md).
  const rows = await queryRows<GroupRow>(
    ctx.db,
    sql`select m.section_id, m.opt_status, m.can_update_opt_status,
          m.add_drop_date > ${now}::timestamptz as before_deadline,
          count(*)::int as count
        from section_members m
        join course_sections on course_sections.id = m.section_id
        join courses on courses.id = course_sections.course_id
        where m.role = 'student' and ${where}
        group by 1, 2, 3, 4`,
  );
  // A semi-join: each member once, however many changes they made (as a join, the planner
  // guessed one row and nested 400 × 20,000 loops: 1.2 s at 100,000 members).
  const chose = await queryRows<{ section_id: number; count: number }>(
    ctx.db,
    sql`select m.section_id, count(*)::int as count
        from section_members m
        join course_sections on course_sections.id = m.section_id
        join courses on courses.id = course_sections.course_id
        where m.role = 'student' and m.opt_status = 'opted_in' and m.can_update_opt_status
          and m.add_drop_date > ${now}::timestamptz and ${where}
          and exists (select 1 from opt_changes oc
                      where oc.member_id = m.id and oc.actor_user_id = m.user_id)
        group by 1`,
  );
  const choseBySection = new Map(chose.map((r) => [r.section_id, Number(r.count)]));
  return rows.flatMap((row): StudentGroup[] => {
    if (!isOptStatus(row.opt_status)) return [];
    const group = {
      sectionId: row.section_id,
      optStatus: row.opt_status,
      canUpdateOptStatus: row.can_update_opt_status,
      beforeDeadline: row.before_deadline,
    };
    const count = Number(row.count);
    const couldChoose =
      row.opt_status === 'opted_in' && row.can_update_opt_status && row.before_deadline;
    if (!couldChoose) return [{ ...group, choseThemself: false, count }];
    const themselves = Math.min(choseBySection.get(row.section_id) ?? 0, count);
    return [
      { ...group, choseThemself: true, count: themselves },
      { ...group, choseThemself: false, count: count - themselves },
    ].filter((g) => g.count > 0);
  });
}

/** The term's opting events by day in the viewer's time zone. */
async function optDays(ctx: RequestContext, where: SQL, timeZone: string) {
  const rows = await queryRows<{ day: string; opt_outs: number; opt_ins: number }>(
    ctx.db,
    sql`select to_char(oc.changed_at at time zone ${timeZone}, 'YYYY-MM-DD') as day,
          count(*) filter (where oc.to_status = 'opted_out')::int as opt_outs,
          count(*) filter (where oc.to_status = 'opted_in')::int as opt_ins
        from opt_changes oc
        join section_members m on m.id = oc.member_id
        join course_sections on course_sections.id = m.section_id
        join courses on courses.id = course_sections.course_id
        where m.role = 'student' and ${where}
        group by 1`,
  );
  return optOutSeries(
    rows.map((r) => ({ day: r.day, optOuts: Number(r.opt_outs), optIns: Number(r.opt_ins) })),
  );
}

async function termSections(ctx: RequestContext, where: SQL): Promise<DashboardSection[]> {
  return ctx.db
    .select({
      id: courseSections.id,
      department: courses.department,
      courseNumber: courses.number,
      courseCode: courses.code,
      courseType: courses.courseType,
      sectionNumber: courseSections.number,
      name: courseSections.name,
      addDropAt: courseSections.addDropAt,
      timeZone: courseSections.timeZone,
      courseFeeCents: courseSections.courseFeeCents,
      optingMethod: courseSections.optingMethod,
      disableAutoProvisioning: courseSections.disableAutoProvisioning,
    })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .where(where)
    .orderBy(
      asc(courses.department),
      asc(courses.number),
      asc(courseSections.number),
      asc(courseSections.id),
    );
}

/** The viewer's time zone, if the database knows it; UTC otherwise. */
function viewerTimeZone(ctx: RequestContext): string {
  const zone = ctx.user?.timeZone ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

type TermCounts = readonly [{ department: string }[], SectionFigures[], OptOutPoint[]];

const termFigures = new TimedCache<string, TermCounts>(60_000, 200);

/**
 * What moves when anything the dashboard counts changes (ids only grow; four index lookups).
 * A member added, ended (section_member_drops), opting, or changed by staff or a roster
 * (audited) moves it. Only an erased account's memberships leave without a trace here: they
 * are out of the figures within the cache's minute. (Counting the members instead cost 35 to
 * 100 ms of the database per request at 100,000 members.)
 */
async function changeStamp(ctx: RequestContext): Promise<string> {
  const [row] = await queryRows<{ stamp: string }>(
    ctx.db,
    sql`select concat_ws(':',
          (select max(id) from opt_changes), (select max(id) from section_members),
          (select max(id) from section_member_drops), (select max(id) from audit_events)) as stamp`,
  );
  return row?.stamp ?? '';
}

async function countTerm(
  ctx: RequestContext,
  where: SQL,
  orgId: number,
  termId: number,
  query: DashboardQuery,
  timeZone: string,
): Promise<TermCounts> {
  // One read-only transaction without JIT: the planner's cost of the grouped count (its
  // per-member subquery) passes jit_above_cost at a campus's size, and compiling took 1.4 s
  // of a 0.5 s query on PostgreSQL 16 (bench/inclusive-dashboard.ts).
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    const inTx: RequestContext = { ...ctx, db: tx };
    const departments = await tx
      .selectDistinct({ department: courses.department })
      .from(courseSections)
      .innerJoin(courses, eq(courses.id, courseSections.courseId))
      .where(sectionFilter(orgId, termId, { ...query, department: null, courseType: null }))
      .orderBy(asc(courses.department));
    const sections = await termSections(inTx, where);
    const groups = await studentGroups(inTx, where);
    // Each section's figures are kept with the counts: within the cache's minute, days to a
    // deadline (whole days) read the same.
    const rows = sectionFigures(sections, groups, ctx.now);
    return [departments, rows, await optDays(inTx, where, timeZone)] as const;
  });
}

/**
 * Issue 39, Inclusive Dashboard: per section of the chosen term (the current one by default),
 * its students and how they stand, days to the deadline and expected billing; the term's
 * totals and its opt-outs over time. Filters by department and course type.
 */
export async function termDashboard(
  ctx: RequestContext,
  scope: OrgScope,
  query: DashboardQuery,
): Promise<TermDashboard> {
  const orgs = await orgChoices(ctx, scope);
  const org = await chosenOrg(ctx, scope, orgs, query.orgId);
  const empty: TermDashboard = {
    orgs,
    org,
    terms: [],
    term: null,
    departments: [],
    rows: [],
    totals: totalFigures([]),
    optOuts: [],
  };
  if (!org) return empty;
  const terms = await ctx.db
    .select({
      id: academicTerms.id,
      title: academicTerms.title,
      startDate: academicTerms.startDate,
      endDate: academicTerms.endDate,
    })
    .from(academicTerms)
    .where(and(eq(academicTerms.orgId, org.id), isNull(academicTerms.endedAt)))
    .orderBy(desc(academicTerms.startDate), asc(academicTerms.title));
  const timeZone = viewerTimeZone(ctx);
  let term: TermChoice | null;
  if (query.termId === null) {
    term = defaultTerm(terms, deadlineDay(ctx.now, timeZone));
  } else {
    term = terms.find((t) => t.id === query.termId) ?? null;
    if (!term) throw new NotFound();
  }
  if (!term) return { ...empty, terms };
  const where = sectionFilter(org.id, term.id, query);
  // The figures are kept a minute per term and filter, and only while nothing they count has
  // changed: any opting event, new or ended member, or audited staff change moves the stamp
  // (issue 39: the dashboard at 100,000 members, p95 ≤ 300 ms; a page reloaded by several
  // staff at once is counted once).
  const stamp = await changeStamp(ctx);
  const key = JSON.stringify([
    org.id,
    term.id,
    query.department,
    query.courseType,
    timeZone,
    stamp,
    Math.floor(ctx.now.getTime() / 60_000),
  ]);
  const [departments, rows, optOuts] = await termFigures.getOrLoad(key, () =>
    countTerm(ctx, where, org.id, term.id, query, timeZone),
  );
  return {
    orgs,
    org,
    terms,
    term,
    departments: departments.map((d) => d.department),
    rows,
    totals: totalFigures(rows),
    optOuts,
  };
}

export type CampusInsights = Omit<TermDashboard, 'rows' | 'optOuts' | 'departments'> & {
  departments: DepartmentFigures[];
  sectionCount: number;
};

/** Issue 39, Campus Insights Beta: the same term's figures grouped by department. */
export async function campusInsights(
  ctx: RequestContext,
  scope: OrgScope,
  query: Pick<DashboardQuery, 'orgId' | 'termId'>,
): Promise<CampusInsights> {
  const {
    rows,
    optOuts: _optOuts,
    ...dashboard
  } = await termDashboard(ctx, scope, {
    ...query,
    department: null,
    courseType: null,
  });
  return { ...dashboard, departments: departmentFigures(rows), sectionCount: rows.length };
}
