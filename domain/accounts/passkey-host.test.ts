import { describe, expect, it } from 'vitest';
import { passkeysWorkOn } from './passkey-host.ts';

describe('where passkeys work (issue 20, WebAuthn relying party ids)', () => {
  it('on a host name, not on an IP address', () => {
    expect(passkeysWorkOn('localhost')).toBe(true);
    expect(passkeysWorkOn('store.example.edu')).toBe(true);
    expect(passkeysWorkOn('127.0.0.1')).toBe(false);
    expect(passkeysWorkOn('[::1]')).toBe(false);
  });
});
