import { describe, expect, it } from 'vitest';
import {
  accountJustLocked,
  LOGIN_WINDOW_MS,
  type LoginFailures,
  loginThrottle,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ACCOUNT_FROM_ADDRESS,
} from './login-throttle.ts';

// Issue 2 (throttled per account and per address) as issue 37 sharpened it: guessing waits
// where it comes from; nobody can keep a chosen student out from their own device.
const now = new Date('2026-11-23T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const times = (n: number, spacingMs = 1000) =>
  Array.from({ length: n }, (_, i) => ago((i + 1) * spacingMs));
const none: LoginFailures = {
  forAccountFromAddress: [],
  forAddress: [],
  forAccount: [],
  lastResetAt: null,
};

describe('login throttle, from one address', () => {
  it('allows four failures on an account from here', () => {
    const four = times(4);
    expect(
      loginThrottle(
        { ...none, forAccountFromAddress: four, forAddress: four, forAccount: four },
        now,
      ),
    ).toEqual({ allowed: true });
  });

  it('makes this address wait after five on one account, for the rest of the window', () => {
    const five = times(5, 60_000);
    const decision = loginThrottle(
      { ...none, forAccountFromAddress: five, forAddress: five, forAccount: five },
      now,
    );
    expect(decision).toEqual({ allowed: false, retryAfterMinutes: 10 });
  });

  it('blocks one address spraying many accounts at twenty', () => {
    expect(loginThrottle({ ...none, forAddress: times(19) }, now).allowed).toBe(true);
    expect(loginThrottle({ ...none, forAddress: times(20) }, now).allowed).toBe(false);
  });

  it('forgets failures older than the window', () => {
    const old = Array.from({ length: 30 }, () => ago(LOGIN_WINDOW_MS + 1));
    expect(
      loginThrottle(
        { forAccountFromAddress: old, forAddress: old, forAccount: old, lastResetAt: null },
        now,
      ),
    ).toEqual({ allowed: true });
  });
});

describe('login throttle, the owner elsewhere', () => {
  it('five failures from an attacker’s address do not keep the owner out from theirs', () => {
    // The owner's address has no failure; the account has the attacker's five (and more).
    expect(loginThrottle({ ...none, forAccount: times(19) }, now)).toEqual({ allowed: true });
  });

  it('twenty failures on the account from many addresses make everyone wait', () => {
    expect(
      loginThrottle({ ...none, forAccount: times(MAX_FAILURES_PER_ACCOUNT, 30_000) }, now),
    ).toEqual({
      allowed: false,
      retryAfterMinutes: 5,
    });
  });

  it('the owner’s password reset ends that wait: failures before it no longer count', () => {
    const failures = times(MAX_FAILURES_PER_ACCOUNT, 10_000);
    expect(loginThrottle({ ...none, forAccount: failures, lastResetAt: ago(5_000) }, now)).toEqual({
      allowed: true,
    });
    // A reset before the failures changes nothing.
    expect(
      loginThrottle({ ...none, forAccount: failures, lastResetAt: ago(LOGIN_WINDOW_MS) }, now)
        .allowed,
    ).toBe(false);
  });

  it('the owner’s reset also ends the wait of the address they share with whoever guessed', () => {
    // Five failures from the dorm's one address, then the owner resets from a mailed link and
    // signs in from that same address (found in the issue 37 walk: it stayed 429).
    const five = times(MAX_FAILURES_PER_ACCOUNT_FROM_ADDRESS, 10_000);
    const failures = { ...none, forAccountFromAddress: five, forAddress: five, forAccount: five };
    expect(loginThrottle({ ...failures, lastResetAt: ago(5_000) }, now)).toEqual({ allowed: true });
    expect(loginThrottle({ ...failures, lastResetAt: ago(LOGIN_WINDOW_MS) }, now).allowed).toBe(
      false,
    );
  });

  it('the owner is told once: at the failure that makes the account wait', () => {
    expect(
      accountJustLocked({ ...none, forAccount: times(MAX_FAILURES_PER_ACCOUNT - 1) }, now),
    ).toBe(false);
    expect(accountJustLocked({ ...none, forAccount: times(MAX_FAILURES_PER_ACCOUNT) }, now)).toBe(
      true,
    );
    expect(
      accountJustLocked({ ...none, forAccount: times(MAX_FAILURES_PER_ACCOUNT + 1) }, now),
    ).toBe(false);
    // Counted since the reset and within the window only.
    expect(
      accountJustLocked(
        { ...none, forAccount: [...times(MAX_FAILURES_PER_ACCOUNT), ago(LOGIN_WINDOW_MS + 1)] },
        now,
      ),
    ).toBe(true);
    expect(
      accountJustLocked(
        { ...none, forAccount: times(MAX_FAILURES_PER_ACCOUNT), lastResetAt: ago(1_500) },
        now,
      ),
    ).toBe(false);
  });
});

// Issue 37: what the first StrykerJS run left alive in this rule.
describe('login throttle, at its instants (issue 37)', () => {
  it('a failure at the very instant of the reset no longer counts; one after it does', () => {
    const atReset = ago(60_000);
    const after = times(MAX_FAILURES_PER_ACCOUNT - 1, 1_000);
    expect(
      loginThrottle({ ...none, forAccount: [atReset, ...after], lastResetAt: atReset }, now),
    ).toEqual({ allowed: true });
    expect(
      loginThrottle({ ...none, forAccount: [ago(500), ...after], lastResetAt: atReset }, now)
        .allowed,
    ).toBe(false);
  });

  it('the owner is told when twenty failures since the reset, within the window, are reached', () => {
    const twenty = times(MAX_FAILURES_PER_ACCOUNT, 1_000);
    expect(accountJustLocked({ ...none, forAccount: twenty, lastResetAt: ago(60_000) }, now)).toBe(
      true,
    );
    // One of them exactly at the reset, or exactly a window ago: not counted, not yet twenty.
    const atReset = [...times(MAX_FAILURES_PER_ACCOUNT - 1, 1_000), ago(60_000)];
    expect(accountJustLocked({ ...none, forAccount: atReset, lastResetAt: ago(60_000) }, now)).toBe(
      false,
    );
    const windowAgo = [...times(MAX_FAILURES_PER_ACCOUNT - 1, 1_000), ago(LOGIN_WINDOW_MS)];
    expect(accountJustLocked({ ...none, forAccount: windowAgo }, now)).toBe(false);
    // Before the reset: not counted either.
    const before = [...times(MAX_FAILURES_PER_ACCOUNT - 1, 1_000), ago(120_000)];
    expect(accountJustLocked({ ...none, forAccount: before, lastResetAt: ago(60_000) }, now)).toBe(
      false,
    );
  });
});
