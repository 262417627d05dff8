import { Forbidden } from '#domain/shared/errors.ts';

// Issue 20: an account proves its e-mail address before its first purchase, free book or code
// redemption. Accounts from the campus, the seed and before sign-up existed are verified.
// Asked by placeOrder (checkout, wallet), addFreeBook and redeemCode, pages and API alike.

export const VERIFY_EMAIL_PATH = '/account/verify-email';

/** Whether this account must prove its address before it may take something. */
export function mustVerifyEmail(user: { emailVerified: boolean }): boolean {
  return !user.emailVerified;
}

/** Refuses, with the way to a new link, an account that has not proved its address. */
export function requireVerifiedEmail(user: { emailVerified: boolean }): void {
  if (mustVerifyEmail(user)) {
    throw new Forbidden('verify.error.required', { wayBack: 'verifyEmail' });
  }
}
