// What follows a confirmed address (issue 38: confirming an e-mail signs the person in on the
// device that signed up, or goes straight on to where they were going after one sign-in).
// The mailed link alone signs in nowhere else: a mail scanner, a forwarded message or a shared
// inbox holds the link too; it proves the address, the password proves the person.

export type AfterConfirmation =
  /** Already signed in as the link's account: straight on to `next`. */
  | 'goOn'
  /** The browser that signed up: signed in here (a second factor still asked where set). */
  | 'signIn'
  /** Another browser: the sign-in page, then straight on to `next`. */
  | 'logIn'
  /** Signed in as another account: the link proved its own account's address, not theirs. */
  | 'otherAccount';

export function afterConfirmation(input: {
  linkUserId: number;
  signedInUserId: number | null;
  sameDevice: boolean;
}): AfterConfirmation {
  if (input.signedInUserId === input.linkUserId) return 'goOn';
  if (input.signedInUserId !== null) return 'otherAccount';
  return input.sameDevice ? 'signIn' : 'logIn';
}
