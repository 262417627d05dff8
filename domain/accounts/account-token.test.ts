import { describe, expect, it } from 'vitest';
import {
  TOKEN_LIFETIME_MS,
  tokenExpiry,
  tokenRefusalMessage,
  tokenState,
} from './account-token.ts';

const now = new Date('2026-11-27T12:00:00Z');
const HOUR = 60 * 60 * 1000;

describe('mailed links (issue 20: single use, expiring)', () => {
  it('a reset link lasts one hour, a verification link 48 hours', () => {
    expect(TOKEN_LIFETIME_MS['reset-password']).toBe(HOUR);
    expect(tokenExpiry('verify-email', now).getTime() - now.getTime()).toBe(48 * HOUR);
  });

  it('works before its expiry, not at or after it', () => {
    const row = {
      purpose: 'reset-password',
      usedAt: null,
      expiresAt: tokenExpiry('reset-password', now),
    };
    expect(tokenState(row, 'reset-password', new Date(now.getTime() + HOUR - 1))).toBe('usable');
    expect(tokenState(row, 'reset-password', new Date(now.getTime() + HOUR))).toBe('expired');
  });

  it('works once', () => {
    const row = {
      purpose: 'verify-email',
      usedAt: now,
      expiresAt: tokenExpiry('verify-email', now),
    };
    expect(tokenState(row, 'verify-email', now)).toBe('used');
  });

  it('a link of another purpose, or none, is unknown', () => {
    const row = {
      purpose: 'verify-email',
      usedAt: null,
      expiresAt: tokenExpiry('verify-email', now),
    };
    expect(tokenState(row, 'reset-password', now)).toBe('unknown');
    expect(tokenState(null, 'reset-password', now)).toBe('unknown');
  });

  it('each refusal has its message', () => {
    expect(tokenRefusalMessage('expired')).toBe('token.error.expired');
  });
});
