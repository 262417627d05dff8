import { describe, expect, it } from 'vitest';
import { LOGIN_WINDOW_MS, loginThrottle } from './login-throttle.ts';

const now = new Date('2026-11-23T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const times = (n: number, spacingMs = 1000) =>
  Array.from({ length: n }, (_, i) => ago((i + 1) * spacingMs));

describe('login throttle (issue 2 §4: per account and per address)', () => {
  it('allows four failures on an account', () => {
    expect(loginThrottle({ forAccount: times(4), forAddress: [] }, now)).toEqual({ allowed: true });
  });

  it('blocks the fifth try on an account for the rest of the window', () => {
    const decision = loginThrottle({ forAccount: times(5, 60_000), forAddress: [] }, now);
    expect(decision).toEqual({ allowed: false, retryAfterMinutes: 10 });
  });

  it('blocks one address spraying many accounts', () => {
    expect(loginThrottle({ forAccount: [], forAddress: times(20) }, now).allowed).toBe(false);
  });

  it('forgets failures older than the window', () => {
    const old = Array.from({ length: 10 }, () => ago(LOGIN_WINDOW_MS + 1));
    expect(loginThrottle({ forAccount: old, forAddress: old }, now)).toEqual({ allowed: true });
  });
});
