import { type RecentFailures, type ThrottleDecision, throttle } from '#domain/shared/throttle.ts';

// Login is throttled per account and per address so that password guessing is slow for one
// account and for one attacker spraying many accounts.
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export type { RecentFailures, ThrottleDecision };

export function loginThrottle(failures: RecentFailures, now: Date): ThrottleDecision {
  return throttle(failures, now, {
    windowMs: LOGIN_WINDOW_MS,
    maxPerAccount: MAX_FAILURES_PER_ACCOUNT,
    maxPerAddress: MAX_FAILURES_PER_ADDRESS,
  });
}
