import type { NavigationFlags } from '#domain/accounts/navigation.ts';

/**
 * Issue 39: whose things a staff member may see and change in the campus tools. A manager (and
 * store support) sees every organisation; anyone else (a bookstore manager, a course manager, a campus help desk)
 * only their own organisation, by any page, URL or id. Someone with no organisation sees none.
 * The one rule; `canManageSection` (section-access.ts) is its answer for one section.
 */
export type OrgScope = { kind: 'all' } | { kind: 'orgs'; orgIds: readonly number[] };

export type StaffMember = { roles: readonly string[]; orgId: number | null };

export function orgScopeOf(staff: StaffMember): OrgScope {
  // Store support answers students of every campus (the help desk); it grants nothing.
  if (staff.roles.includes('manager') || staff.roles.includes('support')) return { kind: 'all' };
  return { kind: 'orgs', orgIds: staff.orgId === null ? [] : [staff.orgId] };
}

/** The object of organisation `orgId` is inside the scope. */
export function inOrgScope(scope: OrgScope, orgId: number | null): boolean {
  if (scope.kind === 'all') return true;
  return orgId !== null && scope.orgIds.includes(orgId);
}

/** The flags a tool's page needs beyond the menu's: a manager may act store-wide. */
export function isStoreWide(flags: Pick<NavigationFlags, 'isManager'>): boolean {
  return flags.isManager;
}
