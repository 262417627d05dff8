import { createHash, randomInt } from 'node:crypto';

// Ten recovery codes, shown once, kept only as SHA-256 digests, each good for one sign-in
// (issue 20). 10 characters of a 31-letter alphabet: about 49 bits each, far past guessing under
// the code throttle.

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** The digest stored for a code, however it was typed (case, spaces and dashes ignored). */
export function recoveryCodeDigest(code: string): string {
  const compact = code.replace(/[\s-]/g, '').toLowerCase();
  return createHash('sha256').update(`recovery:${compact}`).digest('base64url');
}
