import { describe, expect, it } from 'vitest';
import { Forbidden } from '#domain/shared/errors.ts';
import { mustVerifyEmail, requireVerifiedEmail } from './email-verification.ts';

describe('verified address before taking anything (issue 20)', () => {
  it('an unverified account is refused with the way to a new link', () => {
    expect(mustVerifyEmail({ emailVerified: false })).toBe(true);
    try {
      requireVerifiedEmail({ emailVerified: false });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(Forbidden);
      expect((error as Forbidden).messageKey).toBe('verify.error.required');
      expect((error as Forbidden).params).toEqual({ wayBack: 'verifyEmail' });
    }
  });

  it('a verified account goes on', () => {
    expect(mustVerifyEmail({ emailVerified: true })).toBe(false);
    expect(() => requireVerifiedEmail({ emailVerified: true })).not.toThrow();
  });
});
