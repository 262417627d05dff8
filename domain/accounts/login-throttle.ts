import { type ThrottleDecision, throttle } from '#domain/shared/throttle.ts';

// Password guessing is slowed where it comes from, without handing anyone a way to keep a
// chosen student out (issue 37: five wrong passwords from any address used to lock the owner
// out for 15 minutes, and one address could do it to four accounts at a time).
// - From one address, 5 failures on one account in 15 minutes: that address waits for that
//   account; the owner elsewhere is not affected, and the owner's reset ends it (a campus or a
//   home shares one address between the owner and whoever guessed).
// - From one address, 20 failures on any accounts: that address waits (one attacker spraying).
// - On one account, 20 failures from anywhere (many addresses guessing at it): signing in to it
//   with a password waits for everyone, the owner is told by mail, and the owner's own password
//   reset (a mailed link) ends it at once; failures before the reset no longer count.
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT_FROM_ADDRESS = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const MAX_FAILURES_PER_ACCOUNT = 20;

export type { ThrottleDecision };

export type LoginFailures = {
  /** Failures on this account from this address. */
  forAccountFromAddress: Date[];
  /** Failures from this address, on any account. */
  forAddress: Date[];
  /** Failures on this account from any address. */
  forAccount: Date[];
  /** When the account's password was last reset by its owner's mailed link, if ever. */
  lastResetAt: Date | null;
};

export function loginThrottle(failures: LoginFailures, now: Date): ThrottleDecision {
  const sinceReset = (times: Date[]) =>
    failures.lastResetAt
      ? times.filter((time) => time.getTime() > failures.lastResetAt!.getTime())
      : times;
  const here = throttle(
    { forAccount: sinceReset(failures.forAccountFromAddress), forAddress: failures.forAddress },
    now,
    {
      windowMs: LOGIN_WINDOW_MS,
      maxPerAccount: MAX_FAILURES_PER_ACCOUNT_FROM_ADDRESS,
      maxPerAddress: MAX_FAILURES_PER_ADDRESS,
    },
  );
  if (!here.allowed) return here;
  return throttle({ forAccount: sinceReset(failures.forAccount), forAddress: [] }, now, {
    windowMs: LOGIN_WINDOW_MS,
    maxPerAccount: MAX_FAILURES_PER_ACCOUNT,
    maxPerAddress: Number.POSITIVE_INFINITY,
  });
}

/**
 * Whether this failure is the one that makes the account wait for everyone: its owner is told
 * then, once, not at every failure after it.
 */
export function accountJustLocked(failures: LoginFailures, now: Date): boolean {
  const counted = failures.forAccount.filter(
    (time) =>
      now.getTime() - time.getTime() < LOGIN_WINDOW_MS &&
      (!failures.lastResetAt || time.getTime() > failures.lastResetAt.getTime()),
  );
  return counted.length === MAX_FAILURES_PER_ACCOUNT;
}
