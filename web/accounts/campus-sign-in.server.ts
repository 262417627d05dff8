import { data } from 'react-router';
import type { CampusFailure } from '#domain/accounts/campus-sign-in-service.ts';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import type { WebContext } from '#server/load-context.ts';
import { signIn } from './sign-in.server.ts';

/** Where a campus sign-in goes after: a safe `next`, else the student's shelf (issue 20). */
export function campusNext(raw: string | null | undefined): string {
  const next = safeNextPath(raw, '/shelf');
  return next === '/' ? '/shelf' : next;
}

/**
 * Signed in at the campus: the one sign-in path (sign-in.server.ts) — a new session, the guest
 * cart kept, on to `next`; a manager's second factor is still asked (the campus proved the
 * first factor only).
 */
export function campusSignedIn(context: WebContext, userId: number, next: string) {
  return signIn(context, { userId, method: 'campus', next: campusNext(next) });
}

const CONFLICTS: readonly CampusFailure[] = ['account-not-verified', 'identity-linked-elsewhere'];

/** A refused sign-in: 409 when an account stands in the way, 403 closed, else 400. */
export function campusFailure(reason: CampusFailure) {
  const status = CONFLICTS.includes(reason) ? 409 : reason === 'account-inactive' ? 403 : 400;
  return data({ reason }, { status, headers: { 'Cache-Control': 'no-store' } });
}
