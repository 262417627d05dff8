import { and, asc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { personSearchText, users } from '#db/schema/accounts.ts';
import { campusIdentities } from '#db/schema/campus-sign-in.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { campusPeople } from '#db/schema/operations.ts';
import { organizations } from '#db/schema/sites.ts';
import { type OrgScope, orgScopeOf } from '#domain/operations/staff-scope.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid } from '#domain/shared/errors.ts';
import { queryProblem } from './people-query.ts';

// Issue 39, the help desk: find a person by name, e-mail or campus id, among the people the
// staff member's scope holds (people-scope.ts). Fast at a large store (docs/benchmarks.md,
// "the help desk's search"): each way of matching is an index (migration 0043), and nobody
// waits for more than MAX_COUNTED to be counted.

export const SEARCH_PAGE_SIZE = 25;

/** People counted at most: past it the page says "more than", and asks for a narrower search. */
export const MAX_COUNTED = 1000;

export type PersonHit = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  orgName: string | null;
  isActive: boolean;
};

export type PeopleSearch = {
  people: PersonHit[];
  /** How many were found, MAX_COUNTED at most. */
  total: number;
  /** More than MAX_COUNTED were found. */
  more: boolean;
  page: number;
  pages: number;
};

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

/** What may come before a word in personSearchText: its start, a space, a line, punctuation. */
const WORD_START = "(^|[ \n.@_+'-])";

function regexLiteral(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A part of the name (either way round) or of the address, case aside, as SQL on `users`,
 * through the trigrams of personSearchText (migration 0043), where they can help:
 * - one or two characters ("Wu", "Li") start a word of the name or address: pg_trgm finds the
 *   words starting so; a mere part of a word, so short, would have it read every account, and
 *   would find half of them;
 * - in an address, the domain's trigrams are in every account of its campus: the part up to
 *   the @ finds the few accounts, and the whole address is checked on those.
 */
function nameOrAddressWhere(q: string): SQL {
  const text = personSearchText(users);
  const lowered = q.toLowerCase();
  if ([...lowered].length < 3) return sql`${text} ~ ${WORD_START + regexLiteral(lowered)}`;
  const at = lowered.indexOf('@');
  if (at >= 3) {
    return sql`(${text} like ${likePattern(lowered.slice(0, at + 1))} and strpos(${text}, ${lowered}) > 0)`;
  }
  return sql`${text} like ${likePattern(lowered)}`;
}

/**
 * The accounts a query finds, as SQL on `users`: a part of the name or of the address
 * (nameOrAddressWhere), or a campus id exactly, the roster's or a campus sign-in's (looked up
 * once, before the accounts, each through its own index).
 */
export function peopleMatchingWhere(q: string): SQL {
  const byCampusId = sql`array(
    select ${campusPeople.userId} from ${campusPeople} where ${campusPeople.campusId} = ${q}
    union all
    select ${campusIdentities.userId} from ${campusIdentities} where ${campusIdentities.campusId} = ${q})`;
  return sql`(${nameOrAddressWhere(q)} or ${users.id} = any(${byCampusId}))`;
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
  if (q === '') return { people: [], total: 0, more: false, page: 1, pages: 0 };
  // Without JIT, as the term dashboard (dashboard/service.ts): a campus's scope makes the
  // planner's cost pass jit_above_cost, and compiling took 400 ms of a 130 ms query.
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    const where = and(peopleMatchingWhere(q), peopleInScopeWhere(orgScopeOf(staff)));
    const found = tx
      .select({ one: sql`1` })
      .from(users)
      .where(where)
      .limit(MAX_COUNTED + 1)
      .as('found');
    const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(found);
    const counted = count?.n ?? 0;
    const total = Math.min(counted, MAX_COUNTED);
    const pages = Math.ceil(total / SEARCH_PAGE_SIZE);
    const page = Math.min(Math.max(1, input.page), Math.max(1, pages));
    if (total === 0) return { people: [], total, more: false, page, pages };
    // In name order, case aside. No index holds this order, on purpose: sorting what the
    // indexes found costs what was found, where reading the accounts in name order until a page
    // is full would read every name before the first found ("Mo…": most of them).
    const people = await tx
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
      .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.id))
      .limit(SEARCH_PAGE_SIZE)
      .offset((page - 1) * SEARCH_PAGE_SIZE);
    return { people, total, more: counted > MAX_COUNTED, page, pages };
  });
}
