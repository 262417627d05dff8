import { describe, expect, it } from 'vitest';
import {
  MAIL_REQUEST_WINDOW_MS,
  MAX_SIGN_UPS_PER_IP,
  mailRequestThrottle,
  mailRequestWindowMs,
  SIGN_UP_WINDOW_MS,
} from './mail-request-throttle.ts';

const now = new Date('2026-11-27T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const times = (n: number) => Array.from({ length: n }, (_, i) => ago((i + 1) * 60_000));

describe('mailed-link requests (issue 20: throttled per address and per IP like login)', () => {
  it('allows three requests for one address, then waits', () => {
    expect(
      mailRequestThrottle({ forAccount: times(2), forAddress: [] }, now, 'reset-password').allowed,
    ).toBe(true);
    expect(
      mailRequestThrottle({ forAccount: times(3), forAddress: [] }, now, 'reset-password'),
    ).toEqual({
      allowed: false,
      retryAfterMinutes: 12,
    });
  });

  it('limits one IP asking for many addresses', () => {
    expect(
      mailRequestThrottle({ forAccount: [], forAddress: times(10) }, now, 'reset-password').allowed,
    ).toBe(false);
  });

  it('forgets requests older than the window', () => {
    const old = [ago(MAIL_REQUEST_WINDOW_MS + 1), ago(MAIL_REQUEST_WINDOW_MS + 2)];
    expect(
      mailRequestThrottle({ forAccount: [...old, ...old], forAddress: [] }, now, 'reset-password')
        .allowed,
    ).toBe(true);
  });
});

describe('sign-up (issue 20: throttled per IP like login, but a classroom fits)', () => {
  it('lets a campus lab behind one IP make its accounts, then waits', () => {
    const lab = (n: number) => Array.from({ length: n }, (_, i) => ago(i * 30_000));
    expect(
      mailRequestThrottle(
        { forAccount: [], forAddress: lab(MAX_SIGN_UPS_PER_IP - 1) },
        now,
        'sign-up',
      ).allowed,
    ).toBe(true);
    expect(
      mailRequestThrottle({ forAccount: [], forAddress: lab(MAX_SIGN_UPS_PER_IP) }, now, 'sign-up')
        .allowed,
    ).toBe(false);
  });

  it('counts an hour, not a quarter hour', () => {
    const earlier = Array.from({ length: MAX_SIGN_UPS_PER_IP }, () => ago(30 * 60_000));
    expect(mailRequestThrottle({ forAccount: [], forAddress: earlier }, now, 'sign-up')).toEqual({
      allowed: false,
      retryAfterMinutes: 30,
    });
    expect(
      mailRequestThrottle({ forAccount: [], forAddress: earlier }, now, 'reset-password').allowed,
    ).toBe(true);
    expect(mailRequestWindowMs('sign-up')).toBe(SIGN_UP_WINDOW_MS);
  });

  it('three sign-ups for one address an hour, like its other mails', () => {
    expect(
      mailRequestThrottle({ forAccount: times(3), forAddress: [] }, now, 'sign-up').allowed,
    ).toBe(false);
  });
});
