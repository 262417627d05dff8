// Login is throttled per account and per address so that password guessing is slow for one
// account and for one attacker spraying many accounts.
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export type RecentFailures = {
  forAccount: Date[];
  forAddress: Date[];
};

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterMinutes: number };

export function loginThrottle(failures: RecentFailures, now: Date): ThrottleDecision {
  const blockedUntil = (times: Date[], max: number): number | null => {
    const recent = times
      .map((t) => t.getTime())
      .filter((t) => now.getTime() - t < LOGIN_WINDOW_MS)
      .sort((a, b) => a - b);
    if (recent.length < max) return null;
    // The window frees up when the oldest failure that still counts falls out of it.
    return recent[recent.length - max]! + LOGIN_WINDOW_MS;
  };
  const until = Math.max(
    blockedUntil(failures.forAccount, MAX_FAILURES_PER_ACCOUNT) ?? 0,
    blockedUntil(failures.forAddress, MAX_FAILURES_PER_ADDRESS) ?? 0,
  );
  if (until <= now.getTime()) return { allowed: true };
  return {
    allowed: false,
    retryAfterMinutes: Math.max(1, Math.ceil((until - now.getTime()) / 60_000)),
  };
}
