import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { userRoles, users } from '#db/schema/accounts.ts';
import { campusIdentities, campusSignIns } from '#db/schema/campus-sign-in.ts';
import { organizations } from '#db/schema/sites.ts';
import { saveCampusSettings } from '#domain/accounts/campus-settings-service.ts';
import {
  decryptClientSecret,
  finishOidcSignIn,
  forgetCampusConfigurations,
  startCampusSignIn,
} from '#domain/accounts/campus-sign-in-service.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { type DevCampusIdp, startDevCampusIdp } from '#server/dev-campus-idp.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { loader as metadataLoader } from '#web/accounts/campus-saml-metadata.tsx';
import { action, loader } from '#web/manage/campus-sign-in.tsx';

// Issue 20 "configured per organisation (IdP metadata or discovery URL, attribute mapping …)":
// a manager configures a campus on /manage/campus-sign-in (the route's action and loader, called
// as React Router calls them), and the campus then works: a SAML campus publishes our SP
// metadata, an OIDC campus signs a student in at oidc-provider on 127.0.0.1.

const APP = 'http://shelfmark.test';
const PASSWORD = 'campus-settings-password';
let database: DatabaseHandle;
let idp: DevCampusIdp;
let keyDir = '';
let certBody = '';
let manager: SessionUser;
let bookstoreManager: SessionUser;
let student: SessionUser;
const oidcDomain = `${unique('oidc-set')}.test`.toLowerCase();
const samlDomain = `${unique('saml-set')}.test`.toLowerCase();

async function person(role?: string): Promise<SessionUser> {
  const userId = await createUser(database.db, {
    email: `${unique('p')}@example.test`.toLowerCase(),
    password: 'a long enough password 1',
    firstName: 'Pat',
    lastName: 'Person',
  });
  if (role) await database.db.insert(userRoles).values({ userId, role });
  return (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
}

async function organisation(): Promise<{ id: number; title: string }> {
  const title = unique('University');
  const [org] = await database.db
    .insert(organizations)
    .values({ title })
    .returning({ id: organizations.id });
  return { id: org!.id, title };
}

const empty = {
  intent: 'save',
  id: '',
  orgId: '',
  protocol: 'oidc',
  emailDomains: '',
  emailAttribute: '',
  firstNameAttribute: '',
  lastNameAttribute: '',
  campusIdAttribute: '',
  oidcIssuer: '',
  oidcClientId: '',
  oidcScopes: '',
  oidcClientSecret: '',
  samlMetadata: '',
  samlIdpEntityId: '',
  samlSsoUrl: '',
  samlSigningCert: '',
  samlSpEntityId: '',
};

async function post(
  user: SessionUser,
  fields: Record<string, string>,
  options: { production?: boolean } = {},
) {
  const context = testWebContext(database, { user });
  if (options.production) context.loopbackIdentityProviders = false;
  const result = await action({
    request: new Request(`${APP}/manage/campus-sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ ...empty, ...fields }),
    }),
    params: {},
    context,
  } as never);
  return result instanceof Response
    ? { status: result.status, location: result.headers.get('location'), data: null }
    : {
        status: result.init?.status,
        location: null,
        data: result.data as { errors: Record<string, { key: string }> },
      };
}

const campusCount = async () =>
  (await database.db.select({ n: sql<number>`count(*)::int` }).from(campusSignIns))[0]!.n;

function idpMetadata(entityId: string): string {
  return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:transient</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.${samlDomain}/saml2/idp/SSOService.php"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

beforeAll(async () => {
  database = await openTestDatabase();
  manager = await person('manager');
  bookstoreManager = await person('bookstore_manager');
  student = await person();
  keyDir = mkdtempSync(path.join(tmpdir(), 'campus-settings-'));
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=idp'],
      ...['-keyout', path.join(keyDir, 'key.pem'), '-out', path.join(keyDir, 'cert.pem')],
    ],
    { stdio: 'ignore' },
  );
  certBody = readFileSync(path.join(keyDir, 'cert.pem'), 'utf8')
    .replace(/-----[A-Z ]+-----/g, '')
    .replace(/\s+/g, '');
  forgetCampusConfigurations();
  idp = await startDevCampusIdp({
    port: 0,
    appOrigins: [APP],
    clientId: 'shelfmark-settings',
    password: PASSWORD,
    people: [
      {
        sub: 'settings-1',
        email: `ada@${oidcDomain}`,
        givenName: 'Ada',
        familyName: 'Lovelace',
        studentId: 'S1',
      },
    ],
  });
}, 60_000);

afterAll(async () => {
  await idp?.close();
  await database?.close();
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
});

describe('issue 20: who may configure campus sign-in', () => {
  it('a bookstore manager and a student are refused (403), the page and the save alike', async () => {
    const org = await organisation();
    const before = await campusCount();
    for (const user of [bookstoreManager, student]) {
      await expect(
        post(user, {
          orgId: String(org.id),
          emailDomains: 'gmail.com',
          oidcIssuer: 'https://x.test',
          oidcClientId: 'c',
        }),
      ).rejects.toMatchObject({ init: { status: 403 } });
      await expect(
        loader({
          request: new Request(`${APP}/manage/campus-sign-in`),
          params: {},
          context: testWebContext(database, { user }),
        } as never),
      ).rejects.toMatchObject({ init: { status: 403 } });
      // The service refuses on its own too.
      await expect(
        saveCampusSettings(testContext(database.db, { user }), {
          id: null,
          allowLoopback: true,
          form: { ...empty, orgId: org.id, clearClientSecret: false },
        }),
      ).rejects.toMatchObject({ status: 403 });
    }
    expect(await campusCount()).toBe(before);
  });
});

describe('issue 20: a manager configures an OpenID Connect campus', () => {
  let campusId = 0;

  it('saves it: domains lower-cased, the standard claims by default, the secret encrypted', async () => {
    const org = await organisation();
    const result = await post(manager, {
      orgId: String(org.id),
      protocol: 'oidc',
      emailDomains: `${oidcDomain.toUpperCase()}, @mail.${oidcDomain}`,
      campusIdAttribute: 'student_id',
      oidcIssuer: `${idp.issuer}/.well-known/openid-configuration`,
      oidcClientId: 'shelfmark-settings',
      // Issue 37: the campus id comes only with the campus's own scope.
      oidcScopes: 'email profile campus_id',
      oidcClientSecret: 'a-client-secret-of-the-campus',
    });
    expect(result.status).toBe(302);
    const [row] = await database.db
      .select()
      .from(campusSignIns)
      .where(eq(campusSignIns.orgId, org.id));
    campusId = row!.id;
    expect(result.location).toBe(`/manage/campus-sign-in?saved=1&edit=${campusId}`);
    expect(row).toMatchObject({
      protocol: 'oidc',
      emailDomains: [oidcDomain, `mail.${oidcDomain}`],
      oidcIssuer: idp.issuer,
      oidcClientId: 'shelfmark-settings',
      emailAttribute: 'email',
      firstNameAttribute: 'given_name',
      lastNameAttribute: 'family_name',
      campusIdAttribute: 'student_id',
      oidcScopes: 'openid email profile campus_id',
      samlSsoUrl: null,
    });
    expect(row!.oidcClientSecretCiphertext).not.toContain('a-client-secret');
    const ltiKey = testContext(database.db).keys.lti;
    expect(decryptClientSecret(ltiKey, row!.oidcClientSecretCiphertext!)).toBe(
      'a-client-secret-of-the-campus',
    );

    // The page lists it, never showing the secret back.
    const page = await loader({
      request: new Request(`${APP}/manage/campus-sign-in?edit=${campusId}`),
      params: {},
      context: testWebContext(database, { user: manager }),
    } as never);
    expect(page.editing).toMatchObject({
      id: campusId,
      orgTitle: org.title,
      hasClientSecret: true,
    });
    expect(JSON.stringify(page)).not.toContain('a-client-secret');

    // Saved again with the secret left blank: kept. Then removed on request: a public client.
    const again = {
      orgId: String(org.id),
      id: String(campusId),
      emailDomains: oidcDomain,
      oidcIssuer: idp.issuer,
      oidcClientId: 'shelfmark-settings',
      oidcScopes: 'openid email profile campus_id',
      campusIdAttribute: 'student_id',
    };
    expect((await post(manager, again)).status).toBe(302);
    const [kept] = await database.db
      .select()
      .from(campusSignIns)
      .where(eq(campusSignIns.id, campusId));
    expect(kept!.oidcClientSecretCiphertext).toBe(row!.oidcClientSecretCiphertext);
    expect((await post(manager, { ...again, clearClientSecret: 'on' })).status).toBe(302);
    const [cleared] = await database.db
      .select()
      .from(campusSignIns)
      .where(eq(campusSignIns.id, campusId));
    expect(cleared!.oidcClientSecretCiphertext).toBeNull();
  });

  it('a student then signs in at the campus (oidc-provider): account made, campus id mapped', async () => {
    const ctx = testContext(database.db);
    const url = await startCampusSignIn(ctx, { campusId, next: '/shelf', origin: APP });
    expect(new URL(url).origin).toBe(idp.issuer);
    const callback = await signInAtProvider(url, `ada@${oidcDomain}`);
    const outcome = await finishOidcSignIn(testContext(database.db), callback);
    expect(outcome).toMatchObject({ ok: true, created: true, campusId });
    const [user] = await database.db
      .select()
      .from(users)
      .where(eq(users.email, `ada@${oidcDomain}`));
    expect(user).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    const [identity] = await database.db
      .select()
      .from(campusIdentities)
      .where(eq(campusIdentities.userId, user!.id));
    expect(identity).toMatchObject({
      campusSignInId: campusId,
      subject: 'settings-1',
      campusId: 'S1',
    });
  });

  it('in production a plain-http issuer on this machine is refused, and nothing changes', async () => {
    const org = await organisation();
    const before = await campusCount();
    const result = await post(
      manager,
      {
        orgId: String(org.id),
        emailDomains: `prod.${unique('d')}.test`.toLowerCase(),
        oidcIssuer: idp.issuer,
        oidcClientId: 'x',
      },
      { production: true },
    );
    expect(result.status).toBe(400);
    expect(result.data?.errors.oidcIssuer).toEqual({ key: 'manage.campus.error.loopback' });
    expect(await campusCount()).toBe(before);
  });
});

describe('issue 20: a manager configures a SAML campus from its metadata', () => {
  const IDP_ENTITY_ID = `https://idp.${samlDomain}/saml2/idp/metadata.php`;
  let campusId = 0;

  it('saves what the metadata says, and our SP metadata then carries the ACS address', async () => {
    const org = await organisation();
    const result = await post(manager, {
      orgId: String(org.id),
      protocol: 'saml',
      emailDomains: samlDomain,
      samlMetadata: idpMetadata(IDP_ENTITY_ID),
      samlSpEntityId: `${APP}/accounts/campus/saml`,
    });
    expect(result.status).toBe(302);
    const [row] = await database.db
      .select()
      .from(campusSignIns)
      .where(eq(campusSignIns.orgId, org.id));
    campusId = row!.id;
    expect(row).toMatchObject({
      protocol: 'saml',
      samlIdpEntityId: IDP_ENTITY_ID,
      samlSsoUrl: `https://idp.${samlDomain}/saml2/idp/SSOService.php`,
      samlSpEntityId: `${APP}/accounts/campus/saml`,
      emailAttribute: 'urn:oid:0.9.2342.19200300.100.1.3',
      oidcIssuer: null,
    });
    expect(row!.samlSigningCert?.replace(/-----[A-Z ]+-----|\s+/g, '')).toBe(certBody);

    // A page route answering a file (web/utils/attachment.server.ts): the body and its headers.
    const answer = (await metadataLoader({
      request: new Request(`${APP}/accounts/campus/saml/metadata/${campusId}`),
      params: { campusId: String(campusId) },
      context: testWebContext(database),
    } as never)) as unknown as { data: string; init: { headers: Record<string, string> } };
    expect(answer.init.headers['Content-Type']).toBe('application/samlmetadata+xml; charset=utf-8');
    const xml = answer.data;
    expect(xml).toContain(`entityID="${APP}/accounts/campus/saml"`);
    expect(xml).toContain(
      `<AssertionConsumerService index="1" isDefault="true" Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${APP}/accounts/campus/saml/acs"/>`,
    );
    expect(xml).toContain('WantAssertionsSigned="true"');
    // The SP asks for no NameID format (identifierFormat: null), so the metadata names none.
    expect(xml).not.toContain('NameIDFormat');

    // And the sign-in it starts goes to the campus's SSO address.
    const url = await startCampusSignIn(testContext(database.db), {
      campusId,
      next: '/shelf',
      origin: APP,
    });
    expect(url.startsWith(`https://idp.${samlDomain}/saml2/idp/SSOService.php?SAMLRequest=`)).toBe(
      true,
    );

    // The page shows the addresses the campus IT needs.
    const page = await loader({
      request: new Request(`${APP}/manage/campus-sign-in?edit=${campusId}`),
      params: {},
      context: testWebContext(database, { user: manager }),
    } as never);
    expect(page.campuses.find((c) => c.id === campusId)?.sp).toEqual({
      metadataUrl: `${APP}/accounts/campus/saml/metadata/${campusId}`,
      acsUrl: `${APP}/accounts/campus/saml/acs`,
    });
  });

  it('SP metadata: 404 for an unknown, malformed or OpenID Connect campus', async () => {
    const [oidcCampus] = await database.db
      .select({ id: campusSignIns.id })
      .from(campusSignIns)
      .where(eq(campusSignIns.protocol, 'oidc'))
      .limit(1);
    for (const id of ['999999', 'abc', '0x10', '-1', String(oidcCampus!.id)]) {
      await expect(
        metadataLoader({
          request: new Request(`${APP}/accounts/campus/saml/metadata/${id}`),
          params: { campusId: id },
          context: testWebContext(database),
        } as never),
      ).rejects.toMatchObject({ init: { status: 404 } });
    }
  });

  it('bad input is refused field by field, in a 400, and changes nothing', async () => {
    const org = await organisation();
    const before = await database.db.select().from(campusSignIns).orderBy(campusSignIns.id);
    const cases: [Record<string, string>, string, string][] = [
      [
        { samlMetadata: `<!DOCTYPE x [<!ENTITY a "b">]>${idpMetadata('https://x.test/idp')}` },
        'samlMetadata',
        'manage.campus.error.metadataDoctype',
      ],
      [
        {
          samlMetadata: idpMetadata('https://x.test/idp').replace(
            'use="signing"',
            'use="encryption"',
          ),
        },
        'samlMetadata',
        'manage.campus.error.metadataNoCert',
      ],
      [
        { samlMetadata: '<html>not metadata</html>' },
        'samlMetadata',
        'manage.campus.error.metadataInvalid',
      ],
      [
        { samlMetadata: idpMetadata('https://x.test/idp'), emailDomains: samlDomain },
        'emailDomains',
        'manage.campus.error.domainTaken',
      ],
      [
        { samlMetadata: idpMetadata('https://x.test/idp'), emailDomains: 'not a domain!' },
        'emailDomains',
        'manage.campus.error.domain',
      ],
      [
        { samlMetadata: idpMetadata('https://x.test/idp'), orgId: '99999999' },
        'orgId',
        'manage.campus.error.org',
      ],
      [
        {
          samlIdpEntityId: 'https://x.test/idp',
          samlSsoUrl: 'https://x.test/sso',
          samlSigningCert: 'not a certificate',
        },
        'samlSigningCert',
        'manage.campus.error.certificate',
      ],
    ];
    for (const [fields, field, key] of cases) {
      const result = await post(manager, {
        orgId: String(org.id),
        protocol: 'saml',
        emailDomains: `${unique('bad')}.test`.toLowerCase(),
        samlSpEntityId: `${APP}/accounts/campus/saml`,
        ...fields,
      });
      expect(result.status, key).toBe(400);
      expect(result.data?.errors[field]?.key, key).toBe(key);
    }
    // Editing an existing campus with bad input leaves it as it was.
    const result = await post(manager, {
      id: String(campusId),
      orgId: String(before.find((c) => c.id === campusId)!.orgId),
      protocol: 'saml',
      emailDomains: 'x',
      samlMetadata: idpMetadata(IDP_ENTITY_ID),
      samlSpEntityId: `${APP}/accounts/campus/saml`,
    });
    expect(result.status).toBe(400);
    expect(await database.db.select().from(campusSignIns).orderBy(campusSignIns.id)).toEqual(
      before,
    );
  });

  it('an unknown campus id to edit is a 404; a malformed one a 400', async () => {
    await expect(post(manager, { id: '99999999', orgId: '1' })).rejects.toMatchObject({
      init: { status: 404 },
    });
    // A malformed id in the form is a 400 (parseId's rule), never another campus.
    expect((await post(manager, { id: 'x1', orgId: '1' })).status).toBe(400);
  });
});

// ——— the campus's provider, as a browser (as campus-sign-in.test.ts drives it) ———

async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const c of response.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  };
  let response = await go(authorizationUrl);
  let location = new URL(response.headers.get('location')!, authorizationUrl).href;
  response = await go(location);
  response = await go(location, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login, password: PASSWORD }).toString(),
  });
  for (let hops = 0; hops < 5; hops += 1) {
    location = new URL(response.headers.get('location')!, location).href;
    if (location.startsWith(APP)) return new URL(location);
    response = await go(location);
  }
  throw new Error('the provider never sent the browser back');
}
