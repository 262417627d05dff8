import { describe, expect, it } from 'vitest';
import { MAIL_REQUEST_WINDOW_MS, mailRequestThrottle } from './mail-request-throttle.ts';

const now = new Date('2026-11-27T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const times = (n: number) => Array.from({ length: n }, (_, i) => ago((i + 1) * 60_000));

describe('mailed-link requests (issue 20: throttled per address and per IP like login)', () => {
  it('allows three requests for one address, then waits', () => {
    expect(mailRequestThrottle({ forAccount: times(2), forAddress: [] }, now).allowed).toBe(true);
    expect(mailRequestThrottle({ forAccount: times(3), forAddress: [] }, now)).toEqual({
      allowed: false,
      retryAfterMinutes: 12,
    });
  });

  it('limits one IP asking for many addresses', () => {
    expect(mailRequestThrottle({ forAccount: [], forAddress: times(10) }, now).allowed).toBe(false);
  });

  it('forgets requests older than the window', () => {
    const old = [ago(MAIL_REQUEST_WINDOW_MS + 1), ago(MAIL_REQUEST_WINDOW_MS + 2)];
    expect(mailRequestThrottle({ forAccount: [...old, ...old], forAddress: [] }, now).allowed).toBe(
      true,
    );
  });
});
