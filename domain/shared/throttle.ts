// Failed attempts are limited per account and per address (login, code redemption): slow for
// one account, and slow for one attacker spraying many accounts.

export type ThrottleLimits = { windowMs: number; maxPerAccount: number; maxPerAddress: number };

export type RecentFailures = {
  forAccount: Date[];
  forAddress: Date[];
};

/** Recent rows (an account, an address, an instant) split into the two counts the limits read. */
export function recentFailures(
  rows: readonly { userId: number | null; ipAddress: string; at: Date }[],
  userId: number,
  ipAddress: string,
): RecentFailures {
  return {
    forAccount: rows.filter((r) => r.userId === userId).map((r) => r.at),
    forAddress: rows.filter((r) => r.ipAddress === ipAddress).map((r) => r.at),
  };
}

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterMinutes: number };

export function throttle(
  failures: RecentFailures,
  now: Date,
  limits: ThrottleLimits,
): ThrottleDecision {
  const blockedUntil = (times: Date[], max: number): number | null => {
    const sorted = times.map((t) => t.getTime()).sort((a, b) => a - b);
    if (sorted.length < max) return null;
    // Blocked while the max-th most recent failure is inside the window: until it falls out.
    // (One older than the window gives a time already past: nothing to filter first.)
    return sorted[sorted.length - max]! + limits.windowMs;
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
