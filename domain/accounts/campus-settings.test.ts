import { describe, expect, it } from 'vitest';
import {
  type CampusSettingsForm,
  checkCampusSettings,
  DEFAULT_ATTRIBUTES,
  domainTakenElsewhere,
  parseCertificates,
  parseEmailDomains,
  parseIdpMetadata,
  parseIssuer,
  parseOidcScopes,
  storedCertificates,
} from './campus-settings.ts';

// Self-signed certificates made with openssl for these tests (public parts only).
const CERT_A =
  'MIIDFTCCAf2gAwIBAgIUIjxeis1DmyekUpJGNqiJHl7z5EAwDQYJKoZIhvcNAQELBQAwGjEYMBYGA1UEAwwPaWRwLmV4YW1wbGUuZWR1MB4XDTI2MTEyNzE2MzkxM1oXDTM2MTEyNDE2MzkxM1owGjEYMBYGA1UEAwwPaWRwLmV4YW1wbGUuZWR1MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAob77FJdUUB6BfHsFfmqJ+QHiATH44ZO6cNjzzmTXuR8kMmypZ9GS9Q5YZ2Znl6QINbi+HPNKz03Rx8JgYq9UOD8cFR9B5yYc+p92te5xRebu9ZmY8BEMn1YFQlwv5OzvQa1bLQArStPukx/a4yjP1NKwePt74zJxeoD2skUJZO2uUP7LIjGy7PZcfDYxmUwzmjp4eV/OhPBp9ZB6ABR4XC0Zfu7NfsOdFkc9rKP6p/hwoFRIsSsbQvyeW30zP1TEsotiQJSPKGp+MPg1bpjeLfup6CXJ8wHh8dh0oWYiz7ODfe2MBoH4JxAf7q1uVB0SJhEhW4HWcTJv8GI+l1AuFwIDAQABo1MwUTAdBgNVHQ4EFgQUinRIIc5L/hMIk90EdZysxTc43cMwHwYDVR0jBBgwFoAUinRIIc5L/hMIk90EdZysxTc43cMwDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOCAQEAfL/Mfk+HQKBmnCGIw3baDx2lPucg/IV9shDpEMUEm5hT1CKz1zB09+MvvKlJGtfUr7+mAtHR/2iZfXucdoIWSGE+EJlNCFUMHKG3+yt77qMl6Fvd7z2t2cErVJFJw/Q0FSbN5XVNkfaCxMTUV+MCfmxEqrCjCpyQySnqvZV4HAOXMB9nF4CNHNVQjYQ+J1iuZWXylFG6Ik/Wpm0IyDMyzYsOX15J3hBE9Ese55kgRHMhwByyh0IONjwzAoI1/nphJvuJjCMt3ytM7NP8O/Yj/n2+vwLnCZzZDph7auYXPqeSRwHhSZ8Z784Jovbr0XWZ7x60ZsVqBgQevOBcrLyJHA==';
const CERT_B =
  'MIIDFzCCAf+gAwIBAgIUSW8bgTaCTHvdN6Qa5rzkwIo2jyowDQYJKoZIhvcNAQELBQAwGzEZMBcGA1UEAwwQaWRwMi5leGFtcGxlLmVkdTAeFw0yNjExMjcxNjM5MTNaFw0zNjExMjQxNjM5MTNaMBsxGTAXBgNVBAMMEGlkcDIuZXhhbXBsZS5lZHUwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQCQLcuBYYy93RVfSHPTx4KNAbalMknul3KfEWTZjgJaaz7ywL3uITr8xkYLJv+0tES+hCZ2vYzh3my+Xs9jC+3NSRMT5vyC0XjeNeVACTFek+2b6oQHof7xsX0awfueNZGxHhQ8S39Ky0NFlsRSVQ41I1eIeO/5zWaxCEdaZK/2oJgISjgZIMbpWPBZuGRpdWiAgfvm1BFj30pdQflFG6mVq3IfCnHgUX9x3MQFV/fXWdR3jUsrNmltXos8jPhLm9iJf089uWnL3R0J8Un3QowQR/AI6ECN4KJIqBC2gFPPOxF42IliuPOgyl8/2Z19TK6Q9/m+s4+TI5VCp3rEviV/AgMBAAGjUzBRMB0GA1UdDgQWBBSUbFk89nPvFx5m9jEGjFHHGj9imDAfBgNVHSMEGDAWgBSUbFk89nPvFx5m9jEGjFHHGj9imDAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3DQEBCwUAA4IBAQBWbFXlPbI0Ih+XjX9tIpNx7L6vVKy/Z6+eGjqCgHpE0pvm1S1ykdw9jWjmy5kGksfiMKbsVVV1NeaTQLVtp3DvQL3pezoPg9r+y2L8fcByEg7coWInhS8G9RUzWHh1IvYBph7zxJaX18tTpzvKEHz+PI9EVt65RLnoR6llgOIxi5wY03r3NQu7d1E92qpWtqNJa/Huguo3brQJQ1ETOOoKL1IBPnmckX2bzRT4msHyoK34VZlcupVPbaLmXwm+k5FaW+cugZaKmav6qAaBGa662T1EX6ZvJ+HR+371WNJ1Tf6uQ107XaqPTOsUSGuzAL/XD4RTVRw9U+W7RhCj55n3';
const wrap = (body: string) => body.match(/.{1,64}/g)!.join('\n');

/** As SimpleSAMLphp 1.19 publishes it (saml20-idp-hosted): md: prefix, two KeyDescriptors. */
const SIMPLESAMLPHP = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.example.edu/simplesaml/saml2/idp/metadata.php">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
        <ds:X509Data>
          <ds:X509Certificate>${CERT_A}</ds:X509Certificate>
        </ds:X509Data>
      </ds:KeyInfo>
    </md:KeyDescriptor>
    <md:KeyDescriptor use="encryption">
      <ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#">
        <ds:X509Data>
          <ds:X509Certificate>${CERT_B}</ds:X509Certificate>
        </ds:X509Data>
      </ds:KeyInfo>
    </md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.edu/simplesaml/saml2/idp/SingleLogoutService.php"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.edu/simplesaml/saml2/idp/SSOService.php"/>
  </md:IDPSSODescriptor>
  <md:ContactPerson contactType="technical">
    <md:GivenName>IT</md:GivenName>
    <md:EmailAddress>mailto:it@example.edu</md:EmailAddress>
  </md:ContactPerson>
</md:EntityDescriptor>`;

/**
 * As a Shibboleth IdP 4 publishes it (idp-metadata.xml): default namespace, shibmd and mdui
 * extensions, KeyDescriptors without 'use' (signing and encryption), wrapped certificates, the
 * POST binding listed before Redirect.
 */
const SHIBBOLETH = `<?xml version="1.0" encoding="UTF-8"?>
<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" xmlns:shibmd="urn:mace:shibboleth:metadata:1.0" xmlns:xml="http://www.w3.org/XML/1998/namespace" xmlns:mdui="urn:oasis:names:tc:SAML:metadata:ui" validUntil="2030-01-01T00:00:00Z" entityID="https://login.northfield.edu/idp/shibboleth">
    <IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol urn:oasis:names:tc:SAML:1.1:protocol urn:mace:shibboleth:1.0">
        <Extensions>
            <shibmd:Scope regexp="false">northfield.edu</shibmd:Scope>
            <mdui:UIInfo>
                <mdui:DisplayName xml:lang="en">Northfield State University</mdui:DisplayName>
            </mdui:UIInfo>
        </Extensions>
        <KeyDescriptor>
            <ds:KeyInfo>
                <ds:X509Data>
                    <ds:X509Certificate>
${wrap(CERT_A)}
                    </ds:X509Certificate>
                </ds:X509Data>
            </ds:KeyInfo>
        </KeyDescriptor>
        <KeyDescriptor use="signing">
            <ds:KeyInfo>
                <ds:X509Data>
                    <ds:X509Certificate>
${wrap(CERT_B)}
                    </ds:X509Certificate>
                </ds:X509Data>
            </ds:KeyInfo>
        </KeyDescriptor>
        <NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</NameIDFormat>
        <SingleSignOnService Binding="urn:mace:shibboleth:1.0:profiles:AuthnRequest" Location="https://login.northfield.edu/idp/profile/Shibboleth/SSO"/>
        <SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://login.northfield.edu/idp/profile/SAML2/POST/SSO"/>
        <SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://login.northfield.edu/idp/profile/SAML2/Redirect/SSO"/>
    </IDPSSODescriptor>
</EntityDescriptor>`;

describe('issue 20 campus settings: e-mail domains', () => {
  it('comma- or space-separated, lower-cased, a leading @ dropped, each once', () => {
    expect(
      parseEmailDomains(' Campus.Example.EDU, @mail.example.edu\n campus.example.edu '),
    ).toEqual({
      ok: true,
      domains: ['campus.example.edu', 'mail.example.edu'],
    });
  });

  it('refuses what is not a domain, naming it; and an empty list', () => {
    for (const bad of [
      'localhost',
      'example',
      'exa mple.edu,-bad.edu',
      'a..edu',
      'x.123',
      'user@x.edu',
    ]) {
      const result = parseEmailDomains(bad);
      expect(result.ok, bad).toBe(false);
    }
    expect(parseEmailDomains('ok.edu, -bad.edu')).toEqual({
      ok: false,
      error: 'manage.campus.error.domain',
      params: { domain: '-bad.edu' },
    });
    expect(parseEmailDomains(' , ')).toEqual({
      ok: false,
      error: 'manage.campus.error.domainsRequired',
    });
  });

  it('a domain another campus routes (or one inside it) is taken', () => {
    const others = [{ emailDomains: ['example.edu'] }];
    expect(domainTakenElsewhere(['mail.example.edu'], others)).toBe('mail.example.edu');
    expect(domainTakenElsewhere(['example.edu'], [{ emailDomains: ['cs.example.edu'] }])).toBe(
      'example.edu',
    );
    expect(domainTakenElsewhere(['notexample.edu'], others)).toBeNull();
  });
});

describe('issue 20 campus settings: the OpenID issuer', () => {
  it('https, or a discovery URL whose suffix is dropped', () => {
    expect(parseIssuer('https://login.example.edu/', false)).toEqual({
      ok: true,
      issuer: 'https://login.example.edu/',
    });
    expect(
      parseIssuer('https://login.example.edu/realms/x/.well-known/openid-configuration', false),
    ).toEqual({
      ok: true,
      issuer: 'https://login.example.edu/realms/x',
    });
  });

  it('plain http only on this machine, and only outside production', () => {
    expect(parseIssuer('http://login.example.edu', true)).toEqual({
      ok: false,
      error: 'manage.campus.error.https',
    });
    expect(parseIssuer('http://127.0.0.1:3011', true)).toEqual({
      ok: true,
      issuer: 'http://127.0.0.1:3011',
    });
    expect(parseIssuer('http://127.0.0.1:3011', false)).toEqual({
      ok: false,
      error: 'manage.campus.error.loopback',
    });
    expect(parseIssuer('javascript:alert(1)', true).ok).toBe(false);
    expect(parseIssuer('https://login.example.edu/?x=1', true).ok).toBe(false);
  });
});

describe('issue 20 campus settings: SAML IdP metadata', () => {
  it('SimpleSAMLphp style: entity id, the HTTP-Redirect SSO address, the signing certificate only', () => {
    const result = parseIdpMetadata(SIMPLESAMLPHP);
    expect(result).toEqual({
      ok: true,
      metadata: {
        entityId: 'https://idp.example.edu/simplesaml/saml2/idp/metadata.php',
        ssoUrl: 'https://idp.example.edu/simplesaml/saml2/idp/SSOService.php',
        certificates: [`-----BEGIN CERTIFICATE-----\n${wrap(CERT_A)}\n-----END CERTIFICATE-----`],
      },
    });
  });

  it('Shibboleth style: default namespace, Redirect preferred over POST, certificates without use and rollover', () => {
    const result = parseIdpMetadata(SHIBBOLETH);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.metadata.entityId).toBe('https://login.northfield.edu/idp/shibboleth');
    expect(result.metadata.ssoUrl).toBe(
      'https://login.northfield.edu/idp/profile/SAML2/Redirect/SSO',
    );
    expect(result.metadata.certificates).toHaveLength(2);
  });

  it('only HTTP-POST: its address', () => {
    const postOnly = SHIBBOLETH.replace(
      /<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"[^>]*>/,
      '',
    );
    const result = parseIdpMetadata(postOnly);
    expect(result.ok && result.metadata.ssoUrl).toBe(
      'https://login.northfield.edu/idp/profile/SAML2/POST/SSO',
    );
  });

  it('an aggregate with one IdP is read; with several it is refused', () => {
    const inner = SHIBBOLETH.replace('<?xml version="1.0" encoding="UTF-8"?>', '');
    const one = `<EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata">${inner}</EntitiesDescriptor>`;
    expect(parseIdpMetadata(one).ok).toBe(true);
    const two = `<EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata">${inner}${inner.replace('login.northfield.edu/idp/shibboleth', 'other.edu/idp')}</EntitiesDescriptor>`;
    expect(parseIdpMetadata(two)).toEqual({
      ok: false,
      error: 'manage.campus.error.metadataSeveral',
    });
  });

  it('a DOCTYPE (entities) is refused before parsing', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>${SIMPLESAMLPHP.replace('<?xml version="1.0"?>', '')}`;
    expect(parseIdpMetadata(laughs)).toEqual({
      ok: false,
      error: 'manage.campus.error.metadataDoctype',
    });
    const external = `<!DOCTYPE md SYSTEM "file:///etc/passwd"><md:EntityDescriptor/>`;
    expect(parseIdpMetadata(external)).toEqual({
      ok: false,
      error: 'manage.campus.error.metadataDoctype',
    });
  });

  it('metadata without a signing certificate is refused (we would accept unsigned answers)', () => {
    const noSigning = SIMPLESAMLPHP.replace('use="signing"', 'use="encryption"');
    expect(parseIdpMetadata(noSigning)).toEqual({
      ok: false,
      error: 'manage.campus.error.metadataNoCert',
    });
  });

  it('not metadata, broken XML, no IdP, no SSO address, a certificate that is not one, too large', () => {
    expect(parseIdpMetadata('<html><body>Login</body></html>')).toEqual({
      ok: false,
      error: 'manage.campus.error.metadataInvalid',
    });
    expect(
      parseIdpMetadata('<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"'),
    ).toEqual({
      ok: false,
      error: 'manage.campus.error.metadataInvalid',
    });
    expect(
      parseIdpMetadata(SIMPLESAMLPHP.replaceAll('IDPSSODescriptor', 'SPSSODescriptor')),
    ).toEqual({
      ok: false,
      error: 'manage.campus.error.metadataNoIdp',
    });
    expect(parseIdpMetadata(SIMPLESAMLPHP.replace(/<md:SingleSignOnService[^>]*>/, ''))).toEqual({
      ok: false,
      error: 'manage.campus.error.metadataNoSso',
    });
    expect(parseIdpMetadata(SIMPLESAMLPHP.replace(CERT_A, 'bm90IGEgY2VydGlmaWNhdGU='))).toEqual({
      ok: false,
      error: 'manage.campus.error.metadataCert',
    });
    expect(parseIdpMetadata(`${SIMPLESAMLPHP}<!--${'x'.repeat(210_000)}-->`)).toEqual({
      ok: false,
      error: 'manage.campus.error.metadataTooLarge',
    });
  });
});

describe('issue 20 campus settings: certificates', () => {
  it('PEM blocks or a bare body; each checked as X.509; stored PEM read back as a list', () => {
    const pemA = `-----BEGIN CERTIFICATE-----\n${wrap(CERT_A)}\n-----END CERTIFICATE-----`;
    const pemB = `-----BEGIN CERTIFICATE-----\n${wrap(CERT_B)}\n-----END CERTIFICATE-----`;
    expect(parseCertificates(CERT_A)).toEqual([pemA]);
    expect(parseCertificates(`${pemA}\n${pemB}`)).toEqual([pemA, pemB]);
    expect(parseCertificates('hello')).toBeNull();
    expect(storedCertificates(`${pemA}\n${pemB}`)).toEqual([pemA, pemB]);
  });
});

const blank: CampusSettingsForm = {
  orgId: 7,
  protocol: 'oidc',
  emailDomains: 'campus.example.edu',
  emailAttribute: '',
  firstNameAttribute: '',
  lastNameAttribute: '',
  campusIdAttribute: '',
  oidcIssuer: 'https://login.example.edu',
  oidcClientId: 'shelfmark',
  oidcScopes: '',
  oidcClientSecret: '',
  clearClientSecret: false,
  samlMetadata: '',
  samlIdpEntityId: '',
  samlSsoUrl: '',
  samlSigningCert: '',
  samlSpEntityId: '',
};
const facts = {
  allowLoopback: false,
  organizationIds: [7, 8],
  otherCampuses: [],
};

describe('issue 20 campus settings: the whole form', () => {
  it('OIDC: blank attribute fields take the standard claims; a blank secret keeps the stored one', () => {
    const result = checkCampusSettings(blank, facts);
    expect(result).toEqual({
      ok: true,
      settings: {
        orgId: 7,
        protocol: 'oidc',
        emailDomains: ['campus.example.edu'],
        emailAttribute: 'email',
        firstNameAttribute: 'given_name',
        lastNameAttribute: 'family_name',
        campusIdAttribute: null,
        oidc: {
          issuer: 'https://login.example.edu',
          clientId: 'shelfmark',
          scopes: ['openid', 'email', 'profile'],
          secret: 'keep',
        },
        saml: null,
      },
    });
  });

  it('SAML from metadata: the eduPerson attributes by default, our entity id kept', () => {
    const result = checkCampusSettings(
      {
        ...blank,
        protocol: 'saml',
        samlMetadata: SIMPLESAMLPHP,
        samlSpEntityId: 'https://store.example/accounts/campus/saml',
      },
      facts,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.settings.emailAttribute).toBe(DEFAULT_ATTRIBUTES.saml.email);
    expect(result.settings.saml).toMatchObject({
      idpEntityId: 'https://idp.example.edu/simplesaml/saml2/idp/metadata.php',
      ssoUrl: 'https://idp.example.edu/simplesaml/saml2/idp/SSOService.php',
      spEntityId: 'https://store.example/accounts/campus/saml',
    });
    expect(result.settings.oidc).toBeNull();
  });

  it('every bad field has its own message; an organisation with a campus already is refused', () => {
    const result = checkCampusSettings(
      {
        ...blank,
        orgId: 8,
        protocol: 'saml',
        emailDomains: 'nope',
        emailAttribute: 'has space',
        samlIdpEntityId: 'not a uri',
        samlSsoUrl: 'http://idp.example.edu/sso',
        samlSigningCert: 'garbage',
        samlSpEntityId: '',
      },
      { ...facts, otherCampuses: [{ orgId: 8, emailDomains: ['other.edu'] }] },
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        orgId: { key: 'manage.campus.error.orgTaken' },
        emailDomains: { key: 'manage.campus.error.domain', params: { domain: 'nope' } },
        emailAttribute: { key: 'manage.campus.error.attribute' },
        samlIdpEntityId: { key: 'manage.campus.error.entityId' },
        samlSigningCert: { key: 'manage.campus.error.certificate' },
        samlSsoUrl: { key: 'manage.campus.error.https' },
        samlSpEntityId: { key: 'manage.campus.error.required' },
      },
    });
  });

  it('an organisation that is not one, and a protocol that is neither, are refused', () => {
    const result = checkCampusSettings({ ...blank, orgId: 99, protocol: 'ldap' }, facts);
    expect(result.ok === false && result.errors).toMatchObject({
      orgId: { key: 'manage.campus.error.org' },
      protocol: { key: 'manage.campus.error.protocol' },
    });
  });
});

// Issue 37: the campus id often comes only with a scope of the campus's own.
describe('issue 37 campus settings: the scopes asked for', () => {
  it('blank asks for openid email profile', () => {
    expect(parseOidcScopes('')).toEqual({ ok: true, scopes: ['openid', 'email', 'profile'] });
    expect(parseOidcScopes('  \n ')).toEqual({ ok: true, scopes: ['openid', 'email', 'profile'] });
  });

  it('the campus’s own scopes, by spaces or commas, openid always first and once', () => {
    expect(parseOidcScopes('email profile student_id')).toEqual({
      ok: true,
      scopes: ['openid', 'email', 'profile', 'student_id'],
    });
    expect(parseOidcScopes('profile,openid, urn:campus:id')).toEqual({
      ok: true,
      scopes: ['openid', 'profile', 'urn:campus:id'],
    });
  });

  it('refuses quotes, backslashes, control characters and more than 20 scopes', () => {
    expect(parseOidcScopes('email "x"')).toEqual({ ok: false });
    expect(parseOidcScopes('email a\\b')).toEqual({ ok: false });
    expect(parseOidcScopes('email \u0001')).toEqual({ ok: false });
    expect(parseOidcScopes('é')).toEqual({ ok: false });
    expect(parseOidcScopes(Array.from({ length: 20 }, (_, i) => `s${i}`).join(' ')).ok).toBe(true);
    expect(parseOidcScopes(Array.from({ length: 21 }, (_, i) => `s${i}`).join(' ')).ok).toBe(false);
    expect(parseOidcScopes('x'.repeat(100)).ok).toBe(true);
    expect(parseOidcScopes('x'.repeat(101)).ok).toBe(false);
  });

  it('a form with bad scopes says so on that field', () => {
    expect(checkCampusSettings({ ...blank, oidcScopes: 'email "x"' }, facts)).toEqual({
      ok: false,
      errors: { oidcScopes: { key: 'manage.campus.error.scopes' } },
    });
  });
});
