import { inOrgScope, type OrgScope } from '#domain/operations/staff-scope.ts';

/**
 * Issue 39, the help desk (Users, My Users): whose accounts a staff member may find and open.
 * A manager and store support see everyone (orgScopeOf: 'all'); a campus's staff see the people
 * of their organisation: an account of that organisation (users.org_id), a person the campus's
 * roster knows (campus_people), or a member of one of its sections. Anyone else is not found,
 * by search, URL or id, exactly as an id that does not exist.
 */
export type PersonOrgs = {
  /** users.org_id. */
  orgId: number | null;
  /** The organisations whose roster knows the person (campus_people.org_id). */
  campusOrgIds: readonly number[];
  /** The organisations of the courses of the sections the person is a member of. */
  sectionOrgIds: readonly number[];
};

export function personInScope(scope: OrgScope, person: PersonOrgs): boolean {
  if (scope.kind === 'all') return true;
  return [person.orgId, ...person.campusOrgIds, ...person.sectionOrgIds].some(
    (orgId) => orgId !== null && inOrgScope(scope, orgId),
  );
}

/** The staff roles the help desk grants and revokes (issue 39: managers only). */
export const GRANTABLE_ROLES = ['manager', 'bookstore_manager', 'support'] as const;
export type GrantableRole = (typeof GRANTABLE_ROLES)[number];

export function isGrantableRole(role: string): role is GrantableRole {
  return (GRANTABLE_ROLES as readonly string[]).includes(role);
}

/** Accounts only a manager may change: those that run the store or answer its help desk. */
const PROTECTED_ROLES: readonly string[] = ['manager', 'support', 'admin'];

export type AccountChange = 'lock' | 'unlock' | 'mail' | 'role';

/**
 * Whether this staff member may make this change to this account, or the message key saying
 * why not. Issue 39: a campus's staff never change a manager's or store support's account;
 * only managers grant and revoke staff roles; nobody locks themselves out or changes their own
 * roles.
 */
export function accountChangeRefusal(
  staff: { id: number; roles: readonly string[] },
  target: { id: number; roles: readonly string[] },
  change: AccountChange,
): string | null {
  const staffIsManager = staff.roles.includes('manager');
  if (change === 'role' && !staffIsManager) return 'ops.helpdesk.error.managersOnly';
  if ((change === 'role' || change === 'lock') && staff.id === target.id) {
    return 'ops.helpdesk.error.self';
  }
  if (!staffIsManager && target.roles.some((role) => PROTECTED_ROLES.includes(role))) {
    return 'ops.helpdesk.error.protected';
  }
  return null;
}
