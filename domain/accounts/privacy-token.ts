// The mailed links of privacy self-service (issue 20: "each confirmed by mail"): a random
// token of 32 bytes, kept only as its SHA-256, used once, valid for a short while, and only
// for the account that asked for it.
import { createHash, randomBytes } from 'node:crypto';

export type PrivacyRequestKind = 'export' | 'delete';

/** How long a mailed link works: long enough to open the mail, short enough to go stale. */
export const PRIVACY_LINK_TTL_MS = 60 * 60_000;

export function newPrivacyToken(): string {
  return randomBytes(32).toString('base64url');
}

export function privacyTokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token's shape: 43 base64url characters; anything else is not one of ours. */
export function isPrivacyTokenShape(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

export type PrivacyLinkRefusal =
  | 'privacy.error.linkUnknown'
  | 'privacy.error.linkUsed'
  | 'privacy.error.linkExpired';

/**
 * Why a mailed link does not work, or null when it does. A link of another account reads as
 * unknown: it says nothing about whose it is.
 */
export function privacyLinkRefusal(
  request: { userId: number; kind: string; expiresAt: Date; usedAt: Date | null } | null,
  asked: { userId: number; kind: PrivacyRequestKind },
  now: Date,
): PrivacyLinkRefusal | null {
  if (!request || request.userId !== asked.userId || request.kind !== asked.kind) {
    return 'privacy.error.linkUnknown';
  }
  if (request.usedAt) return 'privacy.error.linkUsed';
  if (request.expiresAt <= now) return 'privacy.error.linkExpired';
  return null;
}
