import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// TOTP secrets at rest: AES-256-GCM under a key derived from the configured LTI_KEY (a secret
// production already requires, decision 011) for this purpose only, so a copy of the
// database alone does not give anyone a manager's codes.

function keyOf(configuredKey: string): Buffer {
  return createHash('sha256').update(`shelfmark-totp:${configuredKey}`).digest();
}

export function sealSecret(configuredKey: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(configuredKey), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

export function openSecret(configuredKey: string, sealed: string): string {
  if (!sealed.startsWith('v1.')) throw new Error('unknown secret format');
  const raw = Buffer.from(sealed.slice(3), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(configuredKey), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
