import { isIP } from 'node:net';

// The visitor's address behind a reverse proxy (issue 40, deploy/nginx/shelfmark.conf). Login,
// second-factor, code-redemption and mail throttles count failures per address
// (domain/accounts/service.ts and others): behind nginx every request comes from nginx, so
// without this one visitor's failures would throttle everyone. X-Forwarded-For is believed
// only from the proxies named in TRUSTED_PROXIES; from anyone else it is the sender's to
// invent, and ignored.

/** An address as written by a proxy or seen on a socket: IPv4-mapped IPv6 is plain IPv4. */
function normalize(address: string): string {
  const trimmed = address.trim();
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(trimmed) ? trimmed.slice(7) : trimmed;
}

/** TRUSTED_PROXIES: addresses separated by commas; the bad ones, for the start's message. */
export function parseTrustedProxies(value: string | undefined): {
  addresses: string[];
  invalid: string[];
} {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return {
    addresses: entries.filter((entry) => isIP(entry)).map(normalize),
    invalid: entries.filter((entry) => !isIP(entry)),
  };
}

/**
 * The socket's peer, unless it is a trusted proxy: then the right-most address of
 * X-Forwarded-For that is not itself a trusted proxy (each proxy appends the address it saw).
 * A malformed entry ends the walk at the last address known good.
 */
export function clientAddressOf(
  peer: string,
  forwardedFor: string | null,
  trusted: readonly string[],
): string {
  let address = normalize(peer);
  if (trusted.length === 0 || !forwardedFor) return address;
  const hops = forwardedFor.split(',').map(normalize);
  while (trusted.includes(address)) {
    const next = hops.pop();
    if (next === undefined || !isIP(next)) break;
    address = next;
  }
  return address;
}
