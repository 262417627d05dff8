import { createHmac, timingSafeEqual } from 'node:crypto';

// The demo courseware tool that ships with the project (issue 14): a new user launches into it
// on a fresh clone. It lives under /demo-tool/ on our own server and acts as an outside tool
// would: it checks our LTI 1.3 id_token against our JWKS and the OAuth 1.0a signature of an
// LTI 1.1 launch with its own code (not the code that signed it). Its 1.1 secret is public:
// it is a demo, registered only by the demo seed.

export const DEMO_TOOL = {
  name13: 'Shelfmark demo tool (LTI 1.3)',
  name11: 'Shelfmark demo tool (LTI 1.1)',
  clientId: 'shelfmark-demo-tool',
  deploymentId: 'shelfmark-demo-deployment',
  loginPath: '/demo-tool/lti13/login',
  launchPath13: '/demo-tool/lti13/launch',
  launchPath11: '/demo-tool/lti11/launch',
  consumerKey: 'shelfmark-demo-consumer',
  secret: 'shelfmark-demo-secret-not-for-production',
} as const;

/** RFC 3986 percent-encoding, as OAuth 1.0a (RFC 5849 §3.6) wants it. */
export function oauthEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The signature base string of a form POST (RFC 5849 §3.4.1), from the received fields. */
export function signatureBaseString(url: string, fields: [string, string][]): string {
  const target = new URL(url);
  const all = [...fields, ...target.searchParams.entries()]
    .filter(([name]) => name !== 'oauth_signature')
    .map(([name, value]) => [oauthEncode(name), oauthEncode(value)] as const)
    .sort(([an, av], [bn, bv]) => (an === bn ? (av < bv ? -1 : 1) : an < bn ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const base = `${target.protocol}//${target.host}${target.pathname}`;
  return ['POST', oauthEncode(base), oauthEncode(all)].join('&');
}

/** Whether an LTI 1.1 launch is signed with the secret (HMAC-SHA1) and fresh enough. */
export function oauthSignatureRefusal(
  url: string,
  fields: [string, string][],
  secret: string,
  now: Date,
): string | null {
  const get = (name: string) => fields.find(([n]) => n === name)?.[1];
  if (get('oauth_signature_method') !== 'HMAC-SHA1') return 'signature method';
  if (get('oauth_consumer_key') !== DEMO_TOOL.consumerKey) return 'unknown consumer key';
  const timestamp = Number(get('oauth_timestamp'));
  if (!Number.isFinite(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > 300) {
    return 'expired timestamp';
  }
  const expected = createHmac('sha1', `${oauthEncode(secret)}&`)
    .update(signatureBaseString(url, fields))
    .digest();
  const given = Buffer.from(get('oauth_signature') ?? '', 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return 'invalid signature';
  }
  return null;
}

/** A role as the welcome line names it (the last part of an IMS role URI or LTI 1.1 name). */
export function shortRole(roles: string[]): string {
  const first = roles[0] ?? 'Learner';
  return first.split(/[#/]/).pop() ?? first;
}
