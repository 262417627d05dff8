// Failed attempts are limited per account and per address (login, code redemption): slow for
// one account, and slow for one attacker spraying many accounts.

export type ThrottleLimits = { windowMs: number; maxPerAccount: number; maxPerAddress: number };

export type RecentFailures = {
  forAccount: Date[];
  forAddress: Date[];
};

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterMinutes: number };

export function throttle(
  failures: RecentFailures,
  now: Date,
  limits: ThrottleLimits,
): ThrottleDecision {
  const blockedUntil = (times: Date[], max: number): number | null => {
    const recent = times
      .map((t) => t.getTime())
      .filter((t) => now.getTime() - t < limits.windowMs)
      .sort((a, b) => a - b);
    if (recent.length < max) return null;
    // The window frees up when the oldest failure that still counts falls out of it.
    return recent[recent.length - max]! + limits.windowMs;
  };
  const until = Math.max(
    blockedUntil(failures.forAccount, limits.maxPerAccount) ?? 0,
    blockedUntil(failures.forAddress, limits.maxPerAddress) ?? 0,
  );
  if (until <= now.getTime()) return { allowed: true };
  return {
    allowed: false,
    retryAfterMinutes: Math.max(1, Math.ceil((until - now.getTime()) / 60_000)),
  };
}
