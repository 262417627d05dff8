import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

// Secrets of the courseware launch at rest (decision 017): the LTI 1.1 shared secrets and the
// platform's private signing keys are AES-256-GCM ciphertexts under a key derived from
// LTI_KEY; the LTI `sub` is an HMAC of the tool and the user under another derivation of it.

function derived(ltiKey: string, purpose: string): Buffer {
  return createHash('sha256').update(`shelfmark-lti:${purpose}:${ltiKey}`).digest();
}

/** 'v1.' + base64url(iv ‖ tag ‖ ciphertext). */
export function encryptSecret(ltiKey: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derived(ltiKey, 'secrets'), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The plaintext, or throws when the ciphertext was altered or another key made it. */
export function decryptSecret(ltiKey: string, ciphertext: string): string {
  if (!ciphertext.startsWith('v1.')) throw new Error('unknown secret format');
  const raw = Buffer.from(ciphertext.slice(3), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', derived(ltiKey, 'secrets'), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** The user's `sub` at one tool: stable, and not the user id (tools cannot correlate users). */
export function pairwiseSubject(ltiKey: string, toolId: number, userId: number): string {
  return createHmac('sha256', derived(ltiKey, 'sub'))
    .update(`${toolId}:${userId}`)
    .digest('base64url')
    .slice(0, 32);
}

/** Digest of a single-use launch handle (message hint, cache key): stored, never the handle. */
export function handleDigest(handle: string): string {
  return createHash('sha256').update(handle).digest('hex');
}

export function newHandle(): string {
  return randomBytes(32).toString('base64url');
}
