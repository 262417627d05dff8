// Campus single sign-on (issue 20, decision 023): the rules, pure. The service
// (campus-sign-in-service.ts) loads the campus, talks to the identity provider through
// openid-client or node-saml, asks these rules and writes in one transaction.

import { type ThrottleDecision, throttle } from '#domain/shared/throttle.ts';

export type CampusProtocol = 'oidc' | 'saml';

/** The lower-case domain of an e-mail address, or null when it is not one. */
export function emailDomain(email: string): string | null {
  const at = email.trim().lastIndexOf('@');
  if (at < 1) return null;
  const domain = email
    .trim()
    .slice(at + 1)
    .toLowerCase();
  return /^[a-z0-9.-]+\.[a-z0-9-]+$/.test(domain) ? domain : null;
}

/**
 * Issue 20 "chosen by e-mail domain": the campus whose domains include the address's domain
 * (student@campus.example.edu), or a parent domain of it (student@mail.campus.example.edu).
 */
export function campusForEmail<C extends { emailDomains: readonly string[] }>(
  email: string,
  campuses: readonly C[],
): C | null {
  const domain = emailDomain(email);
  if (!domain) return null;
  for (const campus of campuses) {
    for (const routed of campus.emailDomains) {
      const d = routed.toLowerCase();
      if (domain === d || domain.endsWith(`.${d}`)) return campus;
    }
  }
  return null;
}

export type CampusProfile = {
  subject: string;
  email: string;
  firstName: string;
  lastName: string;
  campusId: string | null;
};

export type AttributeMapping = {
  emailAttribute: string;
  firstNameAttribute: string;
  lastNameAttribute: string;
  campusIdAttribute: string | null;
};

function text(value: unknown): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string' && first.trim()) return first.trim().slice(0, 254);
  if (typeof first === 'number') return String(first);
  return null;
}

/** What the campus said about the person, through the organisation's attribute mapping. */
export function mapCampusProfile(
  subject: string | null | undefined,
  attributes: Record<string, unknown>,
  mapping: AttributeMapping,
):
  | { ok: true; profile: CampusProfile }
  | { ok: false; reason: 'missing-subject' | 'missing-email' } {
  if (!subject?.trim()) return { ok: false, reason: 'missing-subject' };
  const email = text(attributes[mapping.emailAttribute])?.toLowerCase() ?? null;
  if (!email || !emailDomain(email)) return { ok: false, reason: 'missing-email' };
  return {
    ok: true,
    profile: {
      subject: subject.trim(),
      email,
      firstName: text(attributes[mapping.firstNameAttribute]) ?? '',
      lastName: text(attributes[mapping.lastNameAttribute]) ?? '',
      campusId: mapping.campusIdAttribute ? text(attributes[mapping.campusIdAttribute]) : null,
    },
  };
}

export type LinkDecision =
  | { kind: 'sign-in'; userId: number }
  | { kind: 'link'; userId: number }
  | { kind: 'create' }
  | {
      kind: 'refuse';
      reason: 'account-not-verified' | 'account-inactive' | 'identity-linked-elsewhere';
    };

/**
 * Issue 20 "First sign-in creates or links the account (by verified e-mail …), never takes over
 * an existing account silently":
 * - an identity already linked (issuer + subject) signs its account in;
 * - otherwise an account holding the address is linked only when its address is verified AND
 *   the address is in one of the campus's own domains (a campus vouches for its addresses only);
 *   any other account holding it is refused: sign in with your password first, then link;
 * - otherwise a new account is made (verified by the campus);
 * - someone already signed in (with their password) who signs in at the campus links that
 *   identity to their own account, unless it belongs to another account.
 */
export function campusLinkDecision(input: {
  currentUserId?: number | null;
  linkedUser: { id: number; isActive: boolean } | null;
  emailAccount: { id: number; isActive: boolean; emailVerified: boolean } | null;
  emailInCampusDomains: boolean;
}): LinkDecision {
  const { linkedUser, emailAccount, currentUserId } = input;
  if (currentUserId && linkedUser && linkedUser.id !== currentUserId) {
    return { kind: 'refuse', reason: 'identity-linked-elsewhere' };
  }
  if (currentUserId && !linkedUser) return { kind: 'link', userId: currentUserId };
  if (linkedUser) {
    return linkedUser.isActive
      ? { kind: 'sign-in', userId: linkedUser.id }
      : { kind: 'refuse', reason: 'account-inactive' };
  }
  if (!emailAccount) return { kind: 'create' };
  if (!emailAccount.isActive) return { kind: 'refuse', reason: 'account-inactive' };
  if (emailAccount.emailVerified && input.emailInCampusDomains) {
    return { kind: 'link', userId: emailAccount.id };
  }
  return { kind: 'refuse', reason: 'account-not-verified' };
}

/** openid-client talks plain HTTP only to an issuer on this machine (the local test provider). */
export function isLoopbackIssuer(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/** An issuer we may talk to: https, or http on this machine only. */
export function isAcceptableIssuer(issuer: string): boolean {
  try {
    return new URL(issuer).protocol === 'https:' || isLoopbackIssuer(issuer);
  } catch {
    return false;
  }
}

export type SamlRefusal =
  | 'signature'
  | 'audience'
  | 'expired'
  | 'replayed'
  | 'unknown-request'
  | 'invalid';

/** Why node-saml refused a response, as a reason we can tell the user (its errors are prose). */
export function samlRefusalOf(message: string): SamlRefusal {
  const m = message.toLowerCase();
  if (m.includes('signature')) return 'signature';
  if (m.includes('audience')) return 'audience';
  if (m.includes('expired') || m.includes('not yet valid') || m.includes('subject confirmation'))
    return 'expired';
  if (m.includes('inresponseto')) return 'unknown-request';
  return 'invalid';
}

/** How long a sign-in in flight lives (state, nonce, PKCE verifier, AuthnRequest id). */
export const CAMPUS_REQUEST_TTL_MS = 10 * 60 * 1000;
/**
 * Sign-ins one IP may have in flight at once. A whole campus can sit behind one address at the
 * start of term, so this is generous: it bounds what one source can make the store keep, not
 * how fast students sign in.
 */
export const MAX_CAMPUS_REQUESTS_PER_IP = 300;

/** Whether one more sign-in may start from an IP that has these still in flight. */
export function campusStartThrottle(startedFromIp: Date[], now: Date): ThrottleDecision {
  return throttle({ forAccount: [], forAddress: startedFromIp }, now, {
    windowMs: CAMPUS_REQUEST_TTL_MS,
    maxPerAccount: Number.POSITIVE_INFINITY,
    maxPerAddress: MAX_CAMPUS_REQUESTS_PER_IP,
  });
}

/** Clock skew accepted on SAML NotBefore / NotOnOrAfter. */
export const SAML_CLOCK_SKEW_MS = 60 * 1000;

/** How long a spent SAML id is remembered: until its NotOnOrAfter (+ skew), at least 10 min. */
export function usedIdExpiry(notOnOrAfter: string | null | undefined, now: Date): Date {
  const floor = now.getTime() + CAMPUS_REQUEST_TTL_MS;
  const parsed = notOnOrAfter ? Date.parse(notOnOrAfter) : Number.NaN;
  const until = Number.isNaN(parsed) ? floor : parsed + SAML_CLOCK_SKEW_MS;
  return new Date(Math.max(floor, until));
}
