// Issue 20: the links mailed to an account. Each is good once and for a while: proving an
// address for 48 hours, resetting a password for one hour, moving to a new address for a day.
const HOUR_MS = 60 * 60 * 1000;

export type TokenPurpose = 'verify-email' | 'reset-password' | 'change-email';

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  'verify-email': 48 * HOUR_MS,
  'reset-password': HOUR_MS,
  'change-email': 24 * HOUR_MS,
};

export function tokenExpiry(purpose: TokenPurpose, now: Date): Date {
  return new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]);
}

export type TokenState = 'usable' | 'used' | 'expired' | 'unknown';

/** Whether a presented link still works: unknown, already used, past its time, or usable. */
export function tokenState(
  row: { purpose: string; usedAt: Date | null; expiresAt: Date } | null,
  purpose: TokenPurpose,
  now: Date,
): TokenState {
  if (!row || row.purpose !== purpose) return 'unknown';
  if (row.usedAt) return 'used';
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'usable';
}

/** The message a refused link shows. */
export function tokenRefusalMessage(state: Exclude<TokenState, 'usable'>): string {
  return `token.error.${state}`;
}
