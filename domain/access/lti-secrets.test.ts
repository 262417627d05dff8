import { describe, expect, it } from 'vitest';
import {
  decryptSecret,
  encryptSecret,
  handleDigest,
  newHandle,
  pairwiseSubject,
} from './lti-secrets.ts';

// Issue 14 / decision 017: secrets at rest and the pairwise LTI `sub`.
describe('courseware-launch secrets', () => {
  it('a secret comes back only under its key, and an altered ciphertext is refused', () => {
    const sealed = encryptSecret('key-one', 'the tool secret');
    expect(sealed).not.toContain('the tool secret');
    expect(decryptSecret('key-one', sealed)).toBe('the tool secret');
    expect(() => decryptSecret('key-two', sealed)).toThrow();
    const body = Buffer.from(sealed.slice(3), 'base64url');
    body[body.length - 1]! ^= 1;
    expect(() => decryptSecret('key-one', `v1.${body.toString('base64url')}`)).toThrow();
    // Two encryptions of one secret differ (a fresh IV each time).
    expect(encryptSecret('key-one', 'x')).not.toBe(encryptSecret('key-one', 'x'));
  });

  it('sub is stable per user and tool, differs between tools, and is not the user id', () => {
    const sub = pairwiseSubject('k', 1, 42);
    expect(pairwiseSubject('k', 1, 42)).toBe(sub);
    expect(pairwiseSubject('k', 2, 42)).not.toBe(sub);
    expect(pairwiseSubject('k', 1, 43)).not.toBe(sub);
    expect(sub).not.toContain('42');
  });

  it('handles are random and stored as digests', () => {
    const handle = newHandle();
    expect(newHandle()).not.toBe(handle);
    expect(handleDigest(handle)).toMatch(/^[0-9a-f]{64}$/);
    expect(handleDigest(handle)).not.toContain(handle);
  });
});
