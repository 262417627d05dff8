import { type RecentFailures, type ThrottleDecision, throttle } from '#domain/shared/throttle.ts';

// Issue 20: a second factor is required of the people who run stores (the roles 'manager' and
// 'bookstore_manager' of user_roles) and optional for everyone else. A passkey checked with
// user verification (a PIN or a biometric on the device) is two factors by itself (decision
// 021): it needs no code after it.

export const ROLES_REQUIRING_SECOND_FACTOR: readonly string[] = ['manager', 'bookstore_manager'];

/** Whether this account must have a TOTP authenticator before it may have a session. */
export function secondFactorRequired(roles: readonly string[]): boolean {
  return roles.some((role) => ROLES_REQUIRING_SECOND_FACTOR.includes(role));
}

/** Whether a session (proved with one factor or two) may no longer serve its account's roles. */
export function sessionNeedsSecondFactor(input: {
  roles: readonly string[];
  secondFactor: boolean;
}): boolean {
  return secondFactorRequired(input.roles) && !input.secondFactor;
}

/**
 * How the first factor was proved: a password, a passkey, the campus's own sign-in, or the
 * link mailed to a new account's address (issue 37: sign-up signs in only from its link).
 */
export type SignInMethod = 'password' | 'passkey' | 'campus' | 'email-link';

/** What comes after a first factor was proved: a session, a code, or an enrolment first. */
export type SignInStep = 'session' | 'second-factor' | 'enrol';

export function signInStep(input: {
  method: SignInMethod;
  roles: readonly string[];
  totpEnrolled: boolean;
}): SignInStep {
  if (input.method === 'passkey') return 'session';
  if (input.totpEnrolled) return 'second-factor';
  return secondFactorRequired(input.roles) ? 'enrol' : 'session';
}

/** Whether the account may turn its authenticator off (never when the role requires one). */
export function mayTurnOffTotp(roles: readonly string[]): boolean {
  return !secondFactorRequired(roles);
}

/** A typed code: six digits from the authenticator, or a recovery code (spaces and dashes ignored). */
export type CodeShape = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string } | null;

export function codeShape(input: string): CodeShape {
  const compact = input.replace(/[\s-]/g, '').toLowerCase();
  if (/^\d{6}$/.test(compact)) return { kind: 'totp', code: compact };
  if (/^[a-z0-9]{10}$/.test(compact)) return { kind: 'recovery', code: compact };
  return null;
}

// Codes are throttled like passwords: six digits are a million guesses, so five wrong codes per
// account in fifteen minutes stop a guesser long before luck helps.
export const SECOND_FACTOR_WINDOW_MS = 15 * 60 * 1000;

export function secondFactorThrottle(failures: RecentFailures, now: Date): ThrottleDecision {
  return throttle(failures, now, {
    windowMs: SECOND_FACTOR_WINDOW_MS,
    maxPerAccount: 5,
    maxPerAddress: 20,
  });
}

/** How long a sign-in may wait for its second factor, and a WebAuthn challenge live. */
export const SIGN_IN_STEP_TTL_MS = 5 * 60 * 1000;

/** An account without a password proves itself by a sign-in of the last ten minutes. */
export const FRESH_SIGN_IN_MS = 10 * 60 * 1000;

export function freshSignIn(sessionStartedAt: Date | null, now: Date): boolean {
  return (
    sessionStartedAt !== null && now.getTime() - sessionStartedAt.getTime() <= FRESH_SIGN_IN_MS
  );
}
