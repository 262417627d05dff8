import { describe, expect, it } from 'vitest';
import {
  isPrivacyTokenShape,
  newPrivacyToken,
  PRIVACY_LINK_TTL_MS,
  privacyLinkRefusal,
  privacyTokenDigest,
} from './privacy-token.ts';

const now = new Date('2026-11-27T12:00:00Z');
const request = (overrides: Partial<Parameters<typeof privacyLinkRefusal>[0] & object> = {}) => ({
  userId: 5,
  kind: 'export',
  expiresAt: new Date(now.getTime() + 1000),
  usedAt: null,
  ...overrides,
});

describe('the mailed privacy links (issue 20: confirmed by mail; single-use, expiring, hashed)', () => {
  it('issue 20: a token is 32 random bytes; only its SHA-256 is stored', () => {
    const token = newPrivacyToken();
    expect(isPrivacyTokenShape(token)).toBe(true);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(newPrivacyToken()).not.toBe(token);
    expect(privacyTokenDigest(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(privacyTokenDigest(token)).not.toContain(token);
  });

  it('issue 20: a malformed token is not one of ours', () => {
    for (const bad of ['', 'abc', `${newPrivacyToken()}x`, '../../etc/passwd', 'a'.repeat(42)]) {
      expect(isPrivacyTokenShape(bad)).toBe(false);
    }
  });

  it('issue 20: the owner’s unused, unexpired link works', () => {
    expect(privacyLinkRefusal(request(), { userId: 5, kind: 'export' }, now)).toBeNull();
  });

  it('issue 20: another account’s link, or a link of the other kind, reads as unknown', () => {
    expect(privacyLinkRefusal(request(), { userId: 6, kind: 'export' }, now)).toBe(
      'privacy.error.linkUnknown',
    );
    expect(privacyLinkRefusal(request(), { userId: 5, kind: 'delete' }, now)).toBe(
      'privacy.error.linkUnknown',
    );
    expect(privacyLinkRefusal(null, { userId: 5, kind: 'export' }, now)).toBe(
      'privacy.error.linkUnknown',
    );
  });

  it('issue 20: a used link and an expired link say so', () => {
    expect(privacyLinkRefusal(request({ usedAt: now }), { userId: 5, kind: 'export' }, now)).toBe(
      'privacy.error.linkUsed',
    );
    expect(
      privacyLinkRefusal(request({ expiresAt: now }), { userId: 5, kind: 'export' }, now),
    ).toBe('privacy.error.linkExpired');
    expect(PRIVACY_LINK_TTL_MS).toBeLessThanOrEqual(60 * 60_000);
  });
});
