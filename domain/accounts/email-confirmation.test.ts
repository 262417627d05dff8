import { describe, expect, it } from 'vitest';
import { afterConfirmation } from './email-confirmation.ts';

describe('afterConfirmation (issue 38: confirming an e-mail signs the person in on the device that signed up)', () => {
  it('the browser that signed up is signed in', () => {
    expect(afterConfirmation({ linkUserId: 7, signedInUserId: null, sameDevice: true })).toBe(
      'signIn',
    );
  });

  it('another browser signs in once, with the password, then goes on', () => {
    expect(afterConfirmation({ linkUserId: 7, signedInUserId: null, sameDevice: false })).toBe(
      'logIn',
    );
  });

  it('already signed in as the account: straight on, on any device', () => {
    for (const sameDevice of [true, false]) {
      expect(afterConfirmation({ linkUserId: 7, signedInUserId: 7, sameDevice })).toBe('goOn');
    }
  });

  it('signed in as someone else: never switched to the link’s account', () => {
    for (const sameDevice of [true, false]) {
      expect(afterConfirmation({ linkUserId: 7, signedInUserId: 8, sameDevice })).toBe(
        'otherAccount',
      );
    }
  });
});
