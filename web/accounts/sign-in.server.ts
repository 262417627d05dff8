import { redirect } from 'react-router';
import type { SignInMethod } from '#domain/accounts/second-factor.ts';
import { afterFirstFactor, type PendingSignIn } from '#domain/accounts/second-factor-service.ts';
import { startSession } from '#domain/accounts/service.ts';
import { mergeAnonymousCart } from '#domain/commerce/cart.ts';
import { parseCookies, serializeCookie } from '#server/cookies.ts';
import type { WebContext } from '#server/load-context.ts';
import { sessionCookie, signedInHeaders } from '#web/utils/session-cookie.server.ts';

// The one way a proved identity becomes a session (issue 20): the password form, a passkey,
// a new sign-up, a password reset, the second-factor step and a manager's enrolment all end
// here, with the same session rotation, guest-cart merge and `next` as the login page has
// always had. A reset proves the mailbox, not the second factor: it asks the code too.

/** The cookie of a sign-in between its steps (second factor, enrolment). */
export const SIGN_IN_STEP_COOKIE = 'signin_step';
/** The cookie of a WebAuthn ceremony's challenge. */
export const PASSKEY_STEP_COOKIE = 'passkey_step';

export function stepCookie(
  context: WebContext,
  name: string,
  token: string,
  expiresAt: Date,
): string {
  return serializeCookie(name, token, {
    secure: context.secureCookies,
    sameSite: 'Strict',
    maxAgeSeconds: Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000)),
  });
}

export function clearStepCookie(context: WebContext, name: string): string {
  return serializeCookie(name, '', {
    secure: context.secureCookies,
    sameSite: 'Strict',
    maxAgeSeconds: 0,
  });
}

export function stepToken(request: Request, name: string): string | null {
  return parseCookies(request.headers.get('cookie')).get(name) ?? null;
}

/** After a first factor: a session now, or the second step (a code, or an enrolment). */
export async function signIn(
  context: WebContext,
  input: { userId: number; method: SignInMethod; next: string; anonymousKey?: string | null },
): Promise<Response> {
  const anonymousKey = input.anonymousKey ?? context.anonymousKey;
  const after = await afterFirstFactor(context.rc, {
    userId: input.userId,
    method: input.method,
    next: input.next,
    anonymousKey,
  });
  if (after.step === 'session') {
    return startSignedIn(context, {
      userId: input.userId,
      next: input.next,
      anonymousKey,
      // A user-verified passkey is two factors by itself (decision 021).
      secondFactor: input.method === 'passkey',
    });
  }
  const page = after.step === 'enrol' ? '/accounts/login/enrol/' : '/accounts/login/verify/';
  return redirect(page, {
    headers: {
      'Set-Cookie': stepCookie(context, SIGN_IN_STEP_COOKIE, after.token, after.expiresAt),
    },
  });
}

/** The session, the guest cart joined to the account's, and on to `next`. */
export async function startSignedIn(
  context: WebContext,
  pending: PendingSignIn,
  headers: Headers = new Headers(),
): Promise<Response> {
  headers.append('Set-Cookie', await sessionCookieFor(context, pending));
  for (const [name, value] of Object.entries(signedInHeaders(context, pending.userId)))
    headers.set(name, value);
  return redirect(pending.next, { headers });
}

/** Starts the session and merges the guest cart; the Set-Cookie value of the new session. */
export async function sessionCookieFor(
  context: WebContext,
  pending: PendingSignIn,
): Promise<string> {
  const session = await startSession(context.rc.db, {
    userId: pending.userId,
    previousToken: context.sessionToken,
    now: context.rc.now,
    // The browser, for My Account's list of signed-in devices.
    userAgent: context.userAgent,
    secondFactor: pending.secondFactor,
  });
  // What the shopper put in the cart before logging in joins the account's cart (issue 4).
  if (pending.anonymousKey) {
    await mergeAnonymousCart(context.rc, pending.anonymousKey, pending.userId);
  }
  return sessionCookie(context, session.token, session.expiresAt);
}

/**
 * The relying party of a passkey ceremony: the site this request came to (issue 20), by its
 * host name, under https when the site is served so (PUBLIC_ORIGIN behind a TLS proxy: the
 * request itself reaches us as http).
 */
export function relyingParty(request: Request, context: WebContext) {
  const url = new URL(request.url);
  const scheme = context.secureCookies ? 'https:' : url.protocol;
  return {
    id: url.hostname,
    origin: `${scheme}//${url.host}`,
    name: context.rc.site.title || 'Shelfmark',
  };
}
