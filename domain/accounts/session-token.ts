import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this digest is stored, so the sessions table never holds a usable cookie. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** The CSRF token is bound to the session (or anonymous visitor) key by a keyed hash. */
/** Tokens already worked out, by secret then key: an HMAC was a twentieth of a page's time. */
const knownTokens = new Map<string, Map<string, string>>();
const KNOWN_TOKENS_MAX = 20_000;

export function csrfTokenFor(secret: string, sessionKey: string): string {
  let bySecret = knownTokens.get(secret);
  if (!bySecret) {
    bySecret = new Map();
    knownTokens.set(secret, bySecret);
  }
  let token = bySecret.get(sessionKey);
  if (token === undefined) {
    token = createHmac('sha256', secret).update(`csrf:${sessionKey}`).digest('base64url');
    if (bySecret.size >= KNOWN_TOKENS_MAX) bySecret.clear();
    bySecret.set(sessionKey, token);
  }
  return token;
}

export function csrfTokenMatches(secret: string, sessionKey: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length > 200) return false;
  const expected = Buffer.from(csrfTokenFor(secret, sessionKey));
  const actual = Buffer.from(presented);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
