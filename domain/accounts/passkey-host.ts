/**
 * Whether a passkey can be made or used on a store opened at this host name (issue 20):
 * WebAuthn names a site by its host name and refuses an IP address (IPv4, or IPv6 in brackets).
 */
export function passkeysWorkOn(hostname: string): boolean {
  return !/^[\d.]+$|^\[/.test(hostname);
}
