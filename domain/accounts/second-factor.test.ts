import { describe, expect, it } from 'vitest';
import {
  codeShape,
  FRESH_SIGN_IN_MS,
  freshSignIn,
  mayTurnOffTotp,
  secondFactorRequired,
  secondFactorThrottle,
  sessionNeedsSecondFactor,
  signInStep,
} from './second-factor.ts';

describe('second factor rules', () => {
  it('issue 20: managers and bookstore managers must have a second factor, others may', () => {
    expect(secondFactorRequired(['manager'])).toBe(true);
    expect(secondFactorRequired(['bookstore_manager'])).toBe(true);
    expect(secondFactorRequired(['publisher'])).toBe(false);
    expect(secondFactorRequired([])).toBe(false);
    expect(mayTurnOffTotp(['manager'])).toBe(false);
    expect(mayTurnOffTotp([])).toBe(true);
  });

  it('issue 20: after the password, a code when enrolled; a manager without one enrols first', () => {
    expect(signInStep({ method: 'password', roles: [], totpEnrolled: false })).toBe('session');
    expect(signInStep({ method: 'password', roles: [], totpEnrolled: true })).toBe('second-factor');
    expect(signInStep({ method: 'password', roles: ['manager'], totpEnrolled: false })).toBe(
      'enrol',
    );
    expect(
      signInStep({ method: 'password', roles: ['bookstore_manager'], totpEnrolled: true }),
    ).toBe('second-factor');
  });

  it('issue 20, decision 021: a user-verified passkey is two factors and needs no code', () => {
    expect(signInStep({ method: 'passkey', roles: ['manager'], totpEnrolled: true })).toBe(
      'session',
    );
  });

  it('issue 20: a session proved with one factor does not serve a role that needs two', () => {
    expect(sessionNeedsSecondFactor({ roles: ['bookstore_manager'], secondFactor: false })).toBe(
      true,
    );
    expect(sessionNeedsSecondFactor({ roles: ['manager'], secondFactor: true })).toBe(false);
    expect(sessionNeedsSecondFactor({ roles: ['instructor'], secondFactor: false })).toBe(false);
    expect(sessionNeedsSecondFactor({ roles: [], secondFactor: false })).toBe(false);
  });

  it('issue 20: six digits are an authenticator code, ten letters a recovery code', () => {
    expect(codeShape(' 123 456 ')).toEqual({ kind: 'totp', code: '123456' });
    expect(codeShape('ABCDE-fgh23')).toEqual({ kind: 'recovery', code: 'abcdefgh23' });
    expect(codeShape('12345')).toBeNull();
    expect(codeShape('<script>')).toBeNull();
  });

  it('issue 20: five wrong codes for one account stop the next try for a while', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const failures = Array.from({ length: 5 }, (_, i) => new Date(now.getTime() - i * 60_000));
    expect(secondFactorThrottle({ forAccount: failures.slice(0, 4), forAddress: [] }, now)).toEqual(
      { allowed: true },
    );
    expect(secondFactorThrottle({ forAccount: failures, forAddress: [] }, now)).toEqual({
      allowed: false,
      retryAfterMinutes: 11,
    });
  });
});

// Issue 37: what the first StrykerJS run left alive in this rule.
describe('second factor rules, at their edges (issue 37)', () => {
  it('a code is exactly six digits, a recovery code exactly ten letters or digits', () => {
    for (const typed of ['1234567', 'a123456', '123456a', '12345']) {
      expect(codeShape(typed)).toBeNull();
    }
    for (const typed of ['abcdefgh234', 'xabcdefgh2', 'abcdefgh2x!']) {
      expect(codeShape(typed)?.kind ?? null).not.toBe('totp');
    }
    expect(codeShape('abcdefgh234')).toBeNull();
    expect(codeShape('!abcdefgh23')).toBeNull();
    expect(codeShape('abcdefgh23!')).toBeNull();
    expect(codeShape('abcde fgh23')).toEqual({ kind: 'recovery', code: 'abcdefgh23' });
    expect(codeShape('abcdefgh2')).toBeNull();
  });

  it('a sign-in exactly ten minutes old is still fresh; a millisecond later it is not', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    expect(freshSignIn(new Date(now.getTime() - FRESH_SIGN_IN_MS), now)).toBe(true);
    expect(freshSignIn(new Date(now.getTime() - FRESH_SIGN_IN_MS - 1), now)).toBe(false);
    expect(freshSignIn(null, now)).toBe(false);
  });
});
