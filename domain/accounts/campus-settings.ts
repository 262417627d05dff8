// Campus sign-in settings a manager can edit (issue 20, decision 023 "Settings"): the rules,
// pure. What a form sent (plain strings) becomes a campus configuration, or a message key per
// field. The service (campus-settings-service.ts) loads what these rules compare against and
// writes in one transaction.

import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { type CampusProtocol, isAcceptableIssuer, isLoopbackIssuer } from './campus-sign-in.ts';

/** Pasted IdP metadata larger than this is refused (a federation aggregate is not one IdP). */
export const MAX_METADATA_BYTES = 200 * 1024;
export const MAX_CAMPUS_DOMAINS = 50;

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** What a blank attribute field means, per protocol (OIDC standard claims; eduPerson OIDs). */
export const DEFAULT_ATTRIBUTES: Record<
  CampusProtocol,
  { email: string; firstName: string; lastName: string }
> = {
  oidc: { email: 'email', firstName: 'given_name', lastName: 'family_name' },
  saml: {
    email: 'urn:oid:0.9.2342.19200300.100.1.3',
    firstName: 'urn:oid:2.5.4.42',
    lastName: 'urn:oid:2.5.4.4',
  },
};

// ——— e-mail domains ———

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** Whether a lower-case name is a domain that can receive mail (two labels at least). */
export function isMailDomain(domain: string): boolean {
  if (domain.length > 253) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => LABEL.test(label)) && TOP_LABEL.test(labels.at(-1) ?? '');
}

/**
 * The e-mail domains a campus routes (issue 20 "chosen by e-mail domain"), from what a manager
 * typed: comma- or space-separated, lower-cased, a leading '@' dropped, duplicates once.
 */
export function parseEmailDomains(
  raw: string,
): { ok: true; domains: string[] } | { ok: false; error: string; params?: { domain: string } } {
  const parts = raw
    .split(/[\s,;]+/)
    .map((part) => part.trim().toLowerCase().replace(/^@/, ''))
    .filter(Boolean);
  if (parts.length === 0) return { ok: false, error: 'manage.campus.error.domainsRequired' };
  const domains = [...new Set(parts)];
  if (domains.length > MAX_CAMPUS_DOMAINS) {
    return { ok: false, error: 'manage.campus.error.domainsTooMany' };
  }
  const bad = domains.find((domain) => !isMailDomain(domain));
  if (bad !== undefined) {
    return { ok: false, error: 'manage.campus.error.domain', params: { domain: bad.slice(0, 80) } };
  }
  return { ok: true, domains };
}

/**
 * A domain this campus would route that another campus routes already (the same domain, or one
 * inside the other): the login page could not tell which campus an address belongs to.
 */
export function domainTakenElsewhere(
  domains: readonly string[],
  others: readonly { emailDomains: readonly string[] }[],
): string | null {
  for (const domain of domains) {
    for (const other of others) {
      for (const theirs of other.emailDomains) {
        const t = theirs.toLowerCase();
        if (domain === t || domain.endsWith(`.${t}`) || t.endsWith(`.${domain}`)) return domain;
      }
    }
  }
  return null;
}

// ——— addresses ———

const DISCOVERY_SUFFIX = '/.well-known/openid-configuration';

/**
 * An OIDC issuer from what a manager typed: the issuer, or its discovery URL (the suffix is
 * dropped). https, or http on this machine where the local provider may run (never production).
 */
export function parseIssuer(
  raw: string,
  allowLoopback: boolean,
): { ok: true; issuer: string } | { ok: false; error: string } {
  let issuer = raw.trim();
  if (issuer.endsWith(DISCOVERY_SUFFIX)) issuer = issuer.slice(0, -DISCOVERY_SUFFIX.length);
  if (!issuer) return { ok: false, error: 'manage.campus.error.required' };
  if (issuer.length > 2000 || !isAcceptableIssuer(issuer)) {
    return { ok: false, error: 'manage.campus.error.https' };
  }
  const url = new URL(issuer);
  if (url.search || url.hash || url.username || url.password) {
    return { ok: false, error: 'manage.campus.error.https' };
  }
  if (isLoopbackIssuer(issuer) && !allowLoopback) {
    return { ok: false, error: 'manage.campus.error.loopback' };
  }
  return { ok: true, issuer };
}

/** A SAML SSO address the browser is sent to: the same rule as an issuer. */
export function parseSsoUrl(
  raw: string,
  allowLoopback: boolean,
): { ok: true; url: string } | { ok: false; error: string } {
  const url = raw.trim();
  if (!url) return { ok: false, error: 'manage.campus.error.required' };
  if (url.length > 2000 || !isAcceptableIssuer(url)) {
    return { ok: false, error: 'manage.campus.error.https' };
  }
  if (isLoopbackIssuer(url) && !allowLoopback) {
    return { ok: false, error: 'manage.campus.error.loopback' };
  }
  return { ok: true, url };
}

/** A SAML entity id: a URI (scheme:…), no spaces, at most 1024 characters (SAML core §8.3.6). */
export function isEntityId(value: string): boolean {
  return value.length <= 1024 && /^[a-z][a-z0-9+.-]*:\S+$/i.test(value);
}

/** A claim or attribute name: printable, no spaces. */
export function isAttributeName(value: string): boolean {
  return value.length <= 200 && /^[\x21-\x7e]+$/.test(value);
}

// ——— certificates ———

function pem(base64: string): string {
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----`;
}

/**
 * The X.509 certificates in a text (PEM blocks, or one bare base64 body as metadata carries it),
 * each checked by node:crypto and returned as PEM; null when any of them is not a certificate.
 */
export function parseCertificates(raw: string): string[] | null {
  const text = raw.trim();
  if (!text || text.length > MAX_METADATA_BYTES) return null;
  const bodies = text.includes('-----BEGIN')
    ? [...text.matchAll(/-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/g)].map(
        (m) => m[1] ?? '',
      )
    : [text];
  if (bodies.length === 0 || bodies.length > 5) return null;
  const certs: string[] = [];
  for (const body of bodies) {
    const base64 = body.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
    try {
      new X509Certificate(Buffer.from(base64, 'base64'));
    } catch {
      return null;
    }
    certs.push(pem(base64));
  }
  return certs;
}

/** The certificates stored in `campus_sign_ins.saml_signing_cert` (PEM blocks, one or more). */
export function storedCertificates(stored: string | null): string[] {
  if (!stored?.trim()) return [];
  const blocks = [
    ...stored.matchAll(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g),
  ].map((m) => m[0]);
  // A bare base64 body (written by hand into the table before this screen) is one certificate.
  return blocks.length > 0 ? blocks : [stored.trim()];
}

// ——— IdP metadata ———

export type IdpMetadata = { entityId: string; ssoUrl: string; certificates: string[] };

type Element = {
  localName: string;
  namespaceURI: string | null;
  getAttribute(name: string): string | null;
  childNodes: { length: number; [i: number]: unknown };
  textContent: string | null;
};

function children(parent: Element, ns: string, name: string): Element[] {
  const found: Element[] = [];
  for (let i = 0; i < parent.childNodes.length; i += 1) {
    const node = parent.childNodes[i] as Element & { nodeType: number };
    if (node.nodeType === 1 && node.namespaceURI === ns && node.localName === name) {
      found.push(node);
    }
  }
  return found;
}

/**
 * What we need from a campus IdP's SAML metadata (SAML metadata §2.4.3): its entityID, the
 * SingleSignOnService address (HTTP-Redirect, which is how we send the AuthnRequest; else
 * HTTP-POST) and its signing certificates (KeyDescriptor use="signing" or without use). Parsed
 * with @xmldom/xmldom; a DOCTYPE (entities: billion laughs, external files) is refused before
 * parsing, and the size is capped.
 */
export function parseIdpMetadata(
  xml: string,
): { ok: true; metadata: IdpMetadata } | { ok: false; error: string } {
  if (Buffer.byteLength(xml, 'utf8') > MAX_METADATA_BYTES) {
    return { ok: false, error: 'manage.campus.error.metadataTooLarge' };
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    return { ok: false, error: 'manage.campus.error.metadataDoctype' };
  }
  let root: Element | null;
  try {
    const fail = (message: string) => {
      throw new Error(message);
    };
    const doc = new DOMParser({
      errorHandler: { warning: () => {}, error: fail, fatalError: fail },
    }).parseFromString(xml.trim(), 'text/xml');
    if (doc.doctype) return { ok: false, error: 'manage.campus.error.metadataDoctype' };
    root = doc.documentElement as unknown as Element | null;
  } catch {
    return { ok: false, error: 'manage.campus.error.metadataInvalid' };
  }
  if (!root || root.namespaceURI !== MD) {
    return { ok: false, error: 'manage.campus.error.metadataInvalid' };
  }
  const entities =
    root.localName === 'EntityDescriptor'
      ? [root]
      : root.localName === 'EntitiesDescriptor'
        ? children(root, MD, 'EntityDescriptor')
        : [];
  const idps = entities.filter((e) => children(e, MD, 'IDPSSODescriptor').length > 0);
  if (idps.length === 0) return { ok: false, error: 'manage.campus.error.metadataNoIdp' };
  if (idps.length > 1) return { ok: false, error: 'manage.campus.error.metadataSeveral' };
  const entity = idps[0]!;
  const entityId = (entity.getAttribute('entityID') ?? '').trim();
  if (!isEntityId(entityId)) return { ok: false, error: 'manage.campus.error.metadataInvalid' };
  const descriptor = children(entity, MD, 'IDPSSODescriptor')[0]!;
  const services = children(descriptor, MD, 'SingleSignOnService');
  const service =
    services.find((s) => s.getAttribute('Binding') === REDIRECT) ??
    services.find((s) => s.getAttribute('Binding') === POST);
  const ssoUrl = (service?.getAttribute('Location') ?? '').trim();
  if (!ssoUrl) return { ok: false, error: 'manage.campus.error.metadataNoSso' };
  const certificates: string[] = [];
  for (const key of children(descriptor, MD, 'KeyDescriptor')) {
    const use = key.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const info of children(key, DS, 'KeyInfo')) {
      for (const data of children(info, DS, 'X509Data')) {
        for (const cert of children(data, DS, 'X509Certificate')) {
          const parsed = parseCertificates(cert.textContent ?? '');
          if (!parsed) return { ok: false, error: 'manage.campus.error.metadataCert' };
          certificates.push(...parsed);
        }
      }
    }
  }
  if (certificates.length === 0) return { ok: false, error: 'manage.campus.error.metadataNoCert' };
  return { ok: true, metadata: { entityId, ssoUrl, certificates: [...new Set(certificates)] } };
}

// ——— the whole form ———

/** What the managers' form sends, as strings (blank where not filled in). */
export type CampusSettingsForm = {
  orgId: number | null;
  protocol: string;
  emailDomains: string;
  emailAttribute: string;
  firstNameAttribute: string;
  lastNameAttribute: string;
  campusIdAttribute: string;
  oidcIssuer: string;
  oidcClientId: string;
  /** The scopes to ask for, separated by spaces (blank: DEFAULT_OIDC_SCOPES). */
  oidcScopes: string;
  /** Write-only: blank keeps the stored one. */
  oidcClientSecret: string;
  /** Forget the stored secret: a public client (PKCE only). */
  clearClientSecret: boolean;
  samlMetadata: string;
  samlIdpEntityId: string;
  samlSsoUrl: string;
  samlSigningCert: string;
  samlSpEntityId: string;
};

export type CampusSettings = {
  orgId: number;
  protocol: CampusProtocol;
  emailDomains: string[];
  emailAttribute: string;
  firstNameAttribute: string;
  lastNameAttribute: string;
  campusIdAttribute: string | null;
  oidc: {
    issuer: string;
    clientId: string;
    scopes: string[];
    secret: 'keep' | 'clear' | { set: string };
  } | null;
  saml: { idpEntityId: string; ssoUrl: string; signingCert: string; spEntityId: string } | null;
};

export type FieldErrors = Record<string, { key: string; params?: Record<string, string> }>;

/**
 * Issue 20 "configured per organisation (IdP metadata or discovery URL, attribute mapping for
 * e-mail, name, campus id)": the form checked field by field. Pasted metadata, when given,
 * supplies the IdP's entity id, SSO address and certificates; otherwise those three fields do.
 */
export function checkCampusSettings(
  form: CampusSettingsForm,
  facts: {
    allowLoopback: boolean;
    organizationIds: readonly number[];
    /** The campuses other than the one edited. */
    otherCampuses: readonly { orgId: number; emailDomains: readonly string[] }[];
  },
): { ok: true; settings: CampusSettings } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const fail = (field: string, key: string, params?: Record<string, string>) => {
    errors[field] ??= params ? { key, params } : { key };
  };
  const orgId = form.orgId;
  if (orgId === null || !facts.organizationIds.includes(orgId)) {
    fail('orgId', 'manage.campus.error.org');
  } else if (facts.otherCampuses.some((c) => c.orgId === orgId)) {
    fail('orgId', 'manage.campus.error.orgTaken');
  }
  const protocol = form.protocol === 'oidc' || form.protocol === 'saml' ? form.protocol : null;
  if (!protocol) fail('protocol', 'manage.campus.error.protocol');
  const domains = parseEmailDomains(form.emailDomains);
  if (!domains.ok) {
    fail('emailDomains', domains.error, domains.params);
  } else {
    const taken = domainTakenElsewhere(domains.domains, facts.otherCampuses);
    if (taken) fail('emailDomains', 'manage.campus.error.domainTaken', { domain: taken });
  }
  const defaults = DEFAULT_ATTRIBUTES[protocol ?? 'oidc'];
  const attribute = (field: string, raw: string, fallback: string | null) => {
    const value = raw.trim();
    if (!value) return fallback;
    if (!isAttributeName(value)) fail(field, 'manage.campus.error.attribute');
    return value;
  };
  const emailAttribute = attribute('emailAttribute', form.emailAttribute, defaults.email);
  const firstNameAttribute = attribute(
    'firstNameAttribute',
    form.firstNameAttribute,
    defaults.firstName,
  );
  const lastNameAttribute = attribute(
    'lastNameAttribute',
    form.lastNameAttribute,
    defaults.lastName,
  );
  const campusIdAttribute = attribute('campusIdAttribute', form.campusIdAttribute, null);

  let oidc: CampusSettings['oidc'] = null;
  let saml: CampusSettings['saml'] = null;
  if (protocol === 'oidc') {
    const issuer = parseIssuer(form.oidcIssuer, facts.allowLoopback);
    if (!issuer.ok) fail('oidcIssuer', issuer.error);
    const clientId = form.oidcClientId.trim();
    if (!clientId) fail('oidcClientId', 'manage.campus.error.required');
    else if (!isAttributeName(clientId)) fail('oidcClientId', 'manage.campus.error.clientId');
    const secret = form.oidcClientSecret.trim();
    if (secret && (secret.length < 8 || secret.length > 500)) {
      fail('oidcClientSecret', 'manage.campus.error.secret');
    }
    const scopes = parseOidcScopes(form.oidcScopes);
    if (!scopes.ok) fail('oidcScopes', 'manage.campus.error.scopes');
    if (issuer.ok && clientId && scopes.ok) {
      oidc = {
        issuer: issuer.issuer,
        clientId,
        scopes: scopes.scopes,
        secret: secret ? { set: secret } : form.clearClientSecret ? 'clear' : 'keep',
      };
    }
  } else if (protocol === 'saml') {
    let idpEntityId = form.samlIdpEntityId.trim();
    let ssoRaw = form.samlSsoUrl;
    let certificates: string[] | null = null;
    if (form.samlMetadata.trim()) {
      const parsed = parseIdpMetadata(form.samlMetadata);
      if (!parsed.ok) {
        fail('samlMetadata', parsed.error);
      } else {
        idpEntityId = parsed.metadata.entityId;
        ssoRaw = parsed.metadata.ssoUrl;
        certificates = parsed.metadata.certificates;
      }
    } else {
      if (!idpEntityId) fail('samlIdpEntityId', 'manage.campus.error.required');
      else if (!isEntityId(idpEntityId)) fail('samlIdpEntityId', 'manage.campus.error.entityId');
      if (!form.samlSigningCert.trim()) fail('samlSigningCert', 'manage.campus.error.required');
      else {
        certificates = parseCertificates(form.samlSigningCert);
        if (!certificates) fail('samlSigningCert', 'manage.campus.error.certificate');
      }
    }
    const sso = errors.samlMetadata ? null : parseSsoUrl(ssoRaw, facts.allowLoopback);
    if (sso && !sso.ok) fail(form.samlMetadata.trim() ? 'samlMetadata' : 'samlSsoUrl', sso.error);
    const spEntityId = form.samlSpEntityId.trim();
    if (!spEntityId) fail('samlSpEntityId', 'manage.campus.error.required');
    else if (!isEntityId(spEntityId)) fail('samlSpEntityId', 'manage.campus.error.entityId');
    if (sso?.ok && certificates && isEntityId(idpEntityId) && isEntityId(spEntityId)) {
      saml = {
        idpEntityId,
        ssoUrl: sso.url,
        signingCert: certificates.join('\n'),
        spEntityId,
      };
    }
  }
  if (Object.keys(errors).length > 0 || !protocol || orgId === null || !domains.ok) {
    return {
      ok: false,
      errors: Object.keys(errors).length
        ? errors
        : { form: { key: 'manage.campus.error.invalid' } },
    };
  }
  return {
    ok: true,
    settings: {
      orgId,
      protocol,
      emailDomains: domains.domains,
      emailAttribute: emailAttribute ?? defaults.email,
      firstNameAttribute: firstNameAttribute ?? defaults.firstName,
      lastNameAttribute: lastNameAttribute ?? defaults.lastName,
      campusIdAttribute,
      oidc,
      saml,
    },
  };
}

/** What a campus's provider is asked for when its settings name no scopes. */
export const DEFAULT_OIDC_SCOPES: readonly string[] = ['openid', 'email', 'profile'];

/** RFC 6749 §3.3: a scope token is printable ASCII without space, '"' or '\\'. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]{1,100}$/;

/**
 * Issue 37: the scopes a campus's OpenID provider is asked for, as its IT names them (a campus
 * id often comes only with a scope of its own, `student_id`, `urn:campus:id`). Separated by
 * spaces or commas; `openid` is always asked; blank is DEFAULT_OIDC_SCOPES; at most 20.
 */
export function parseOidcScopes(raw: string): { ok: true; scopes: string[] } | { ok: false } {
  const tokens = raw.split(/[\s,]+/).filter(Boolean);
  if (tokens.length === 0) return { ok: true, scopes: [...DEFAULT_OIDC_SCOPES] };
  if (tokens.length > 20 || !tokens.every((token) => SCOPE_TOKEN.test(token))) {
    return { ok: false };
  }
  return { ok: true, scopes: [...new Set(['openid', ...tokens])] };
}

/** Our SP entity id offered for a new SAML campus: one per store, named for the ACS's home. */
export function defaultSpEntityId(origin: string): string {
  return `${origin.replace(/\/$/, '')}/accounts/campus/saml`;
}
