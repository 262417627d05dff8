/**
 * Issue 39, Switch Account: a manager acts as a person to help them. It never reaches another
 * manager's (or staff member's) account, nor the person's password, e-mail address, passkeys,
 * second factor, payment or privacy requests; it ends by itself after 30 minutes
 * (decision 039).
 */

/** How long an impersonated session lives, from its start; activity does not extend it. */
export const IMPERSONATION_MINUTES = 30;

export function impersonationExpiry(startedAt: Date): Date {
  return new Date(startedAt.getTime() + IMPERSONATION_MINUTES * 60_000);
}

/** Roles whose accounts nobody switches to: those who run the store or its help desk. */
const UNREACHABLE_ROLES: readonly string[] = ['manager', 'bookstore_manager', 'support', 'admin'];

export type SwitchActor = {
  id: number;
  roles: readonly string[];
  canImpersonate: boolean;
  /** Already acting as someone: switch back first. */
  isImpersonating: boolean;
};

export type SwitchTarget = { id: number; roles: readonly string[]; isActive: boolean };

/** Whether this manager may switch to this account, or the message key saying why not. */
export function switchRefusal(actor: SwitchActor, target: SwitchTarget): string | null {
  if (actor.isImpersonating) return 'ops.helpdesk.switch.error.already';
  if (!actor.roles.includes('manager') || !actor.canImpersonate) {
    return 'ops.helpdesk.switch.error.notAllowed';
  }
  if (actor.id === target.id) return 'ops.helpdesk.switch.error.self';
  if (target.roles.some((role) => UNREACHABLE_ROLES.includes(role))) {
    return 'ops.helpdesk.switch.error.staff';
  }
  if (!target.isActive) return 'ops.helpdesk.switch.error.locked';
  return null;
}

/** Whether the page offers "Switch to this account" (the same rule the action asks). */
export function canSwitchTo(actor: SwitchActor, target: SwitchTarget): boolean {
  return switchRefusal(actor, target) === null;
}

/** What a person does for themselves that nobody acting as them may do. */
export type SelfServiceAction =
  | 'password'
  | 'email'
  | 'passkeys'
  | 'secondFactor'
  | 'payment'
  | 'privacy';

const FORBIDDEN_WHILE_IMPERSONATING: ReadonlySet<SelfServiceAction> = new Set([
  'password',
  'email',
  'passkeys',
  'secondFactor',
  'payment',
  'privacy',
]);

/** Whether acting as someone forbids this action. */
export function impersonationForbids(action: SelfServiceAction): boolean {
  return FORBIDDEN_WHILE_IMPERSONATING.has(action);
}

/**
 * The one check every page and API call of those actions asks: null when the request may go
 * on, else the message key of the refusal (a 403).
 */
export function impersonationRefusal(
  user: { isImpersonating: boolean } | null,
  action: SelfServiceAction,
): string | null {
  if (!user?.isImpersonating || !impersonationForbids(action)) return null;
  return `ops.helpdesk.impersonation.refused.${action}`;
}

const CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Which requests made through a Switch Account session are recorded: every one that may
 * change something, but not the page-view counters the browser sends by itself (they are
 * not an action, and would bury the actions in the person's history).
 */
export function isRecordedWhileSwitched(method: string, path: string): boolean {
  return CHANGING_METHODS.has(method) && !path.startsWith('/api/events/');
}
