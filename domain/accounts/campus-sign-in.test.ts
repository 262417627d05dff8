import { describe, expect, it } from 'vitest';
import {
  CAMPUS_REQUEST_TTL_MS,
  campusForEmail,
  campusLinkDecision,
  campusStartThrottle,
  emailDomain,
  isAcceptableIssuer,
  isLoopbackIssuer,
  MAX_CAMPUS_REQUESTS_PER_IP,
  mapCampusProfile,
  samlRefusalOf,
  usedIdExpiry,
} from './campus-sign-in.ts';

const campuses = [
  { id: 1, emailDomains: ['campus.shelfmark.test'] },
  { id: 2, emailDomains: ['other.edu', 'alumni.other.edu'] },
];

describe('issue 20: a campus is chosen by e-mail domain', () => {
  it('routes an address of a campus domain to that campus, whatever its case', () => {
    expect(campusForEmail('Student@Campus.Shelfmark.TEST', campuses)?.id).toBe(1);
    expect(campusForEmail('a@other.edu', campuses)?.id).toBe(2);
  });
  it('routes a subdomain of a campus domain, not a look-alike domain', () => {
    expect(campusForEmail('a@mail.campus.shelfmark.test', campuses)?.id).toBe(1);
    expect(campusForEmail('a@evilcampus.shelfmark.test', campuses)).toBeNull();
    expect(campusForEmail('a@campus.shelfmark.test.evil.com', campuses)).toBeNull();
  });
  it('routes no other address, nor what is not an address', () => {
    expect(campusForEmail('a@gmail.com', campuses)).toBeNull();
    expect(campusForEmail('campus.shelfmark.test', campuses)).toBeNull();
    expect(campusForEmail('', campuses)).toBeNull();
    expect(emailDomain('a@b')).toBeNull();
  });
});

describe('issue 20: first sign-in creates or links, never takes over an account silently', () => {
  it('signs in the account an identity is already linked to', () => {
    expect(
      campusLinkDecision({
        linkedUser: { id: 7, isActive: true },
        emailAccount: null,
        emailInCampusDomains: true,
      }),
    ).toEqual({ kind: 'sign-in', userId: 7 });
  });
  it('links an account whose address is verified and in the campus domains', () => {
    expect(
      campusLinkDecision({
        linkedUser: null,
        emailAccount: { id: 3, isActive: true, emailVerified: true },
        emailInCampusDomains: true,
      }),
    ).toEqual({ kind: 'link', userId: 3 });
  });
  it('refuses an account whose address is not verified', () => {
    expect(
      campusLinkDecision({
        linkedUser: null,
        emailAccount: { id: 3, isActive: true, emailVerified: false },
        emailInCampusDomains: true,
      }),
    ).toEqual({ kind: 'refuse', reason: 'account-not-verified' });
  });
  it('refuses to link by an address outside the campus domains (a campus vouches for its own)', () => {
    expect(
      campusLinkDecision({
        linkedUser: null,
        emailAccount: { id: 3, isActive: true, emailVerified: true },
        emailInCampusDomains: false,
      }),
    ).toEqual({ kind: 'refuse', reason: 'account-not-verified' });
  });
  it('creates an account when nobody holds the address', () => {
    expect(
      campusLinkDecision({ linkedUser: null, emailAccount: null, emailInCampusDomains: true }),
    ).toEqual({ kind: 'create' });
  });
  it('links the identity to the account signed in with its password (then link)', () => {
    expect(
      campusLinkDecision({
        currentUserId: 9,
        linkedUser: null,
        emailAccount: { id: 9, isActive: true, emailVerified: false },
        emailInCampusDomains: true,
      }),
    ).toEqual({ kind: 'link', userId: 9 });
    expect(
      campusLinkDecision({
        currentUserId: 9,
        linkedUser: { id: 7, isActive: true },
        emailAccount: null,
        emailInCampusDomains: true,
      }),
    ).toEqual({ kind: 'refuse', reason: 'identity-linked-elsewhere' });
  });
  it('signs in the account signed in already when the identity is its own', () => {
    expect(
      campusLinkDecision({
        currentUserId: 7,
        linkedUser: { id: 7, isActive: true },
        emailAccount: null,
        emailInCampusDomains: true,
      }),
    ).toEqual({ kind: 'sign-in', userId: 7 });
  });
  it('never links a closed account by its address, verified or not', () => {
    expect(
      campusLinkDecision({
        linkedUser: null,
        emailAccount: { id: 3, isActive: false, emailVerified: true },
        emailInCampusDomains: true,
      }),
    ).toEqual({ kind: 'refuse', reason: 'account-inactive' });
  });
  it('refuses a closed account', () => {
    expect(
      campusLinkDecision({
        linkedUser: { id: 7, isActive: false },
        emailAccount: null,
        emailInCampusDomains: true,
      }),
    ).toEqual({ kind: 'refuse', reason: 'account-inactive' });
  });
});

describe('issue 20: attribute mapping for e-mail, name and campus id', () => {
  const mapping = {
    emailAttribute: 'urn:oid:0.9.2342.19200300.100.1.3',
    firstNameAttribute: 'urn:oid:2.5.4.42',
    lastNameAttribute: 'urn:oid:2.5.4.4',
    campusIdAttribute: 'studentId',
  };
  it('reads the mapped attributes, lower-casing the address', () => {
    expect(
      mapCampusProfile(
        'abc',
        {
          'urn:oid:0.9.2342.19200300.100.1.3': ['Ana@Campus.Shelfmark.test'],
          'urn:oid:2.5.4.42': 'Ana',
          'urn:oid:2.5.4.4': 'Lima',
          studentId: 'S-100',
        },
        mapping,
      ),
    ).toEqual({
      ok: true,
      profile: {
        subject: 'abc',
        email: 'ana@campus.shelfmark.test',
        firstName: 'Ana',
        lastName: 'Lima',
        campusId: 'S-100',
      },
    });
  });
  it('leaves a name the campus did not send empty, and reads a numeric campus id', () => {
    expect(
      mapCampusProfile(
        'abc',
        { 'urn:oid:0.9.2342.19200300.100.1.3': 'ana@campus.shelfmark.test', studentId: [20261234] },
        mapping,
      ),
    ).toEqual({
      ok: true,
      profile: {
        subject: 'abc',
        email: 'ana@campus.shelfmark.test',
        firstName: '',
        lastName: '',
        campusId: '20261234',
      },
    });
  });
  it('refuses a profile without an address or a subject', () => {
    expect(mapCampusProfile('abc', {}, mapping)).toEqual({ ok: false, reason: 'missing-email' });
    expect(
      mapCampusProfile('', { email: 'a@b.ca' }, { ...mapping, emailAttribute: 'email' }),
    ).toEqual({ ok: false, reason: 'missing-subject' });
  });
});

describe('issue 20: identity providers and SAML refusals', () => {
  it('talks to an https issuer, or plain http on this machine only', () => {
    expect(isAcceptableIssuer('https://login.campus.edu/')).toBe(true);
    expect(isAcceptableIssuer('http://127.0.0.1:3011/')).toBe(true);
    expect(isAcceptableIssuer('http://login.campus.edu/')).toBe(false);
    expect(isAcceptableIssuer('javascript:alert(1)')).toBe(false);
    // Each name of this machine; never another host, and never a text that is not an address.
    expect(isLoopbackIssuer('http://localhost:3011/')).toBe(true);
    expect(isLoopbackIssuer('http://127.0.0.1:3011/')).toBe(true);
    expect(isLoopbackIssuer('http://[::1]:3011/')).toBe(true);
    expect(isLoopbackIssuer('https://127.0.0.1:3011/')).toBe(false);
    expect(isLoopbackIssuer('http://login.campus.edu/')).toBe(false);
    expect(isLoopbackIssuer('not an address')).toBe(false);
    expect(isAcceptableIssuer('not an address')).toBe(false);
  });
  it("names node-saml's refusals", () => {
    expect(samlRefusalOf('Invalid signature')).toBe('signature');
    expect(samlRefusalOf('SAML assertion audience mismatch. Expected: a Received: b')).toBe(
      'audience',
    );
    expect(samlRefusalOf('SAML assertion expired: clocks skewed too much')).toBe('expired');
    expect(samlRefusalOf('InResponseTo is not valid')).toBe('unknown-request');
    expect(samlRefusalOf('Missing SAML assertion')).toBe('invalid');
  });
  it('remembers a spent id until it expires, at least ten minutes', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    expect(usedIdExpiry('2026-11-27T13:00:00Z', now).toISOString()).toBe(
      '2026-11-27T13:01:00.000Z',
    );
    expect(usedIdExpiry(null, now).toISOString()).toBe('2026-11-27T12:10:00.000Z');
  });
});

describe('campus sign-ins in flight per IP (issue 20: the campus routes are throttled)', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const started = (n: number, agoMs: number) =>
    Array.from({ length: n }, () => new Date(now.getTime() - agoMs));

  it('a whole campus behind one address still signs in; one source cannot pile up more', () => {
    expect(campusStartThrottle(started(MAX_CAMPUS_REQUESTS_PER_IP - 1, 60_000), now).allowed).toBe(
      true,
    );
    expect(campusStartThrottle(started(MAX_CAMPUS_REQUESTS_PER_IP, 60_000), now)).toEqual({
      allowed: false,
      retryAfterMinutes: 9,
    });
  });

  it('sign-ins older than their lifetime no longer count', () => {
    expect(
      campusStartThrottle(started(MAX_CAMPUS_REQUESTS_PER_IP, CAMPUS_REQUEST_TTL_MS + 1), now)
        .allowed,
    ).toBe(true);
  });
});
