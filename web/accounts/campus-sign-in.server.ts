import { data, redirect } from 'react-router';
import type { CampusFailure } from '#domain/accounts/campus-sign-in-service.ts';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import { startSession } from '#domain/accounts/service.ts';
import { mergeAnonymousCart } from '#domain/commerce/cart.ts';
import type { WebContext } from '#server/load-context.ts';
import { sessionCookie } from '#web/utils/session-cookie.server.ts';

/** Where a campus sign-in goes after: a safe `next`, else the student's shelf (issue 20). */
export function campusNext(raw: string | null | undefined): string {
  const next = safeNextPath(raw, '/shelf');
  return next === '/' ? '/shelf' : next;
}

/** Signed in: a new session (the old one ended), the guest cart kept, on to `next`. */
export async function campusSignedIn(
  context: WebContext,
  userId: number,
  next: string,
): Promise<Response> {
  const session = await startSession(context.rc.db, {
    userId,
    previousToken: context.sessionToken,
    now: context.rc.now,
  });
  if (context.anonymousKey) {
    await mergeAnonymousCart(context.rc, context.anonymousKey, userId);
  }
  return redirect(campusNext(next), {
    headers: { 'Set-Cookie': sessionCookie(context, session.token, session.expiresAt) },
  });
}

const CONFLICTS: readonly CampusFailure[] = ['account-not-verified', 'identity-linked-elsewhere'];

/** A refused sign-in: 409 when an account stands in the way, 403 closed, else 400. */
export function campusFailure(reason: CampusFailure) {
  const status = CONFLICTS.includes(reason) ? 409 : reason === 'account-inactive' ? 403 : 400;
  return data({ reason }, { status, headers: { 'Cache-Control': 'no-store' } });
}
