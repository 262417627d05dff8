import { describe, expect, it } from 'vitest';
import { clientAddressOf, parseTrustedProxies } from './client-address.ts';

describe('the visitor address behind a reverse proxy', () => {
  const trusted = ['127.0.0.1', '10.0.0.5'];

  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf('203.0.113.7', '198.51.100.1', [])).toBe('203.0.113.7');
    expect(clientAddressOf('127.0.0.1', '198.51.100.1', [])).toBe('127.0.0.1');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(clientAddressOf('203.0.113.7', '198.51.100.1', trusted)).toBe('203.0.113.7');
  });

  it('takes the address a trusted proxy saw', () => {
    expect(clientAddressOf('127.0.0.1', '198.51.100.1', trusted)).toBe('198.51.100.1');
    expect(clientAddressOf('::ffff:127.0.0.1', '198.51.100.1', trusted)).toBe('198.51.100.1');
  });

  it('walks past trusted proxies from the right, never trusting what the visitor wrote', () => {
    // The visitor sent "X-Forwarded-For: 1.2.3.4"; nginx appended its peer, a second proxy its own.
    expect(clientAddressOf('127.0.0.1', '1.2.3.4, 198.51.100.1, 10.0.0.5', trusted)).toBe(
      '198.51.100.1',
    );
  });

  it('stops at a malformed entry, keeping the last good address', () => {
    expect(clientAddressOf('127.0.0.1', 'nonsense', trusted)).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1', '', trusted)).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1', null, trusted)).toBe('127.0.0.1');
  });

  it('reads TRUSTED_PROXIES and names the entries that are not addresses', () => {
    expect(parseTrustedProxies(undefined)).toEqual({ addresses: [], invalid: [] });
    expect(parseTrustedProxies(' 127.0.0.1, ::1 ,10.0.0.0/8')).toEqual({
      addresses: ['127.0.0.1', '::1'],
      invalid: ['10.0.0.0/8'],
    });
  });
});
