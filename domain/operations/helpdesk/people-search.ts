import { and, asc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { users } from '#db/schema/accounts.ts';
import { campusIdentities } from '#db/schema/campus-sign-in.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { campusPeople } from '#db/schema/operations.ts';
import { organizations } from '#db/schema/sites.ts';
import { type OrgScope, orgScopeOf } from '#domain/operations/staff-scope.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid } from '#domain/shared/errors.ts';
import { queryProblem } from './people-query.ts';

// Issue 39, the help desk: find a person by name, e-mail or campus id, among the people the
// staff member's scope holds (people-scope.ts).

export const SEARCH_PAGE_SIZE = 25;

export type PersonHit = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  orgName: string | null;
  isActive: boolean;
};

export type PeopleSearch = { people: PersonHit[]; total: number; page: number; pages: number };

/**
 * The people of the staff member's scope, as SQL: the same rule as `personInScope`, for the
 * search (which cannot load every person to ask it). Undefined: everyone.
 */
export function peopleInScopeWhere(scope: OrgScope): SQL | undefined {
  if (scope.kind === 'all') return undefined;
  if (scope.orgIds.length === 0) return sql`false`;
  const orgIds = [...scope.orgIds];
  return or(
    inArray(users.orgId, orgIds),
    sql`exists(select 1 from ${campusPeople} where ${campusPeople.userId} = ${users.id} and ${inArray(campusPeople.orgId, orgIds)})`,
    sql`exists(select 1 from ${sectionMembers} join ${courseSections} on ${courseSections.id} = ${sectionMembers.sectionId} join ${courses} on ${courses.id} = ${courseSections.courseId} where ${sectionMembers.userId} = ${users.id} and ${inArray(courses.orgId, orgIds)})`,
  );
}

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function searchPeople(
  ctx: RequestContext,
  input: { q: string; page: number },
): Promise<PeopleSearch> {
  const staff = ctx.user;
  if (!staff) throw new Forbidden('error.loginRequired');
  const q = input.q.trim();
  const problem = queryProblem(q);
  if (problem) throw new Invalid(problem);
  if (q === '') return { people: [], total: 0, page: 1, pages: 0 };
  const pattern = likePattern(q.toLowerCase());
  const matches = or(
    sql`lower(${users.email}) like ${pattern}`,
    sql`lower(${users.firstName} || ' ' || ${users.lastName}) like ${pattern}`,
    sql`lower(${users.lastName} || ' ' || ${users.firstName}) like ${pattern}`,
    sql`exists(select 1 from ${campusPeople} where ${campusPeople.userId} = ${users.id} and ${campusPeople.campusId} = ${q})`,
    sql`exists(select 1 from ${campusIdentities} where ${campusIdentities.userId} = ${users.id} and ${campusIdentities.campusId} = ${q})`,
  );
  const where = and(matches, peopleInScopeWhere(orgScopeOf(staff)));
  const [count] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(users).where(where);
  const total = count?.n ?? 0;
  const pages = Math.ceil(total / SEARCH_PAGE_SIZE);
  const page = Math.min(Math.max(1, input.page), Math.max(1, pages));
  const people = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      orgName: organizations.title,
      isActive: users.isActive,
    })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.orgId))
    .where(where)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(SEARCH_PAGE_SIZE)
    .offset((page - 1) * SEARCH_PAGE_SIZE);
  return { people, total, page, pages };
}
