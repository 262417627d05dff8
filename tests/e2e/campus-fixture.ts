import { eq } from 'drizzle-orm';
import type { Database } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { campusSignIns } from '#db/schema/campus-sign-in.ts';
import { organizations } from '#db/schema/sites.ts';
import { type MadeUser, makeUser } from './fixture-server.ts';

// Issue 20: a campus of the journey's own, signing in at the OpenID provider the journey runs
// on 127.0.0.1, and a student of that campus made like student@demo.test (same sections) whose
// address is on the campus's domain.

let made = 0;

export type CampusRequest = { issuer: string; clientId: string };
export type MadeCampus = { title: string; domain: string; student: MadeUser };

export async function makeCampus(db: Database, request: CampusRequest): Promise<MadeCampus> {
  made += 1;
  const domain = `journey-${process.pid}-${made}.campus.test`;
  const title = `Journey State University ${made}`;
  const [org] = await db
    .insert(organizations)
    .values({ title })
    .returning({ id: organizations.id });
  await db.insert(campusSignIns).values({
    orgId: org!.id,
    protocol: 'oidc',
    emailDomains: [domain],
    oidcIssuer: request.issuer,
    oidcClientId: request.clientId,
  });
  const student = await makeUser(db, { like: 'student', label: 'campus' });
  const email = `${student.email.split('@')[0]}@${domain}`;
  await db.update(users).set({ email }).where(eq(users.id, student.id));
  return { title, domain, student: { ...student, email } };
}

/** An organisation of the journey's own, with no campus sign-in (the settings journey adds one). */
export async function makeOrganization(db: Database): Promise<{ id: number; title: string }> {
  made += 1;
  const title = `Journey College ${process.pid}-${made}`;
  const [org] = await db
    .insert(organizations)
    .values({ title })
    .returning({ id: organizations.id });
  return { id: org!.id, title };
}

export function isCampusRequest(body: Record<string, unknown>): body is CampusRequest {
  return (
    typeof body.issuer === 'string' &&
    /^http:\/\/127\.0\.0\.1:\d+$/.test(body.issuer) &&
    typeof body.clientId === 'string' &&
    body.clientId.length <= 100
  );
}

/**
 * Issue 37: a campus signing in at the journey's own SAML IdP (SimpleSAMLphp on 127.0.0.1),
 * for the addresses of `domain`; the IdP's people sign in as new students of it.
 */
export type SamlCampusRequest = {
  domain: string;
  entityId: string;
  ssoUrl: string;
  certificate: string;
  spEntityId: string;
};

export async function makeSamlCampus(
  db: Database,
  request: SamlCampusRequest,
): Promise<{ title: string }> {
  made += 1;
  const title = `Journey SAML University ${process.pid}-${made}`;
  const [org] = await db
    .insert(organizations)
    .values({ title })
    .returning({ id: organizations.id });
  await db.insert(campusSignIns).values({
    orgId: org!.id,
    protocol: 'saml',
    emailDomains: [request.domain],
    samlIdpEntityId: request.entityId,
    samlSsoUrl: request.ssoUrl,
    samlSigningCert: request.certificate,
    samlSpEntityId: request.spEntityId,
    emailAttribute: 'mail',
    firstNameAttribute: 'givenName',
    lastNameAttribute: 'sn',
    campusIdAttribute: 'uid',
  });
  return { title };
}

export function isSamlCampusRequest(body: Record<string, unknown>): body is SamlCampusRequest {
  const local = (value: unknown) =>
    typeof value === 'string' && /^http:\/\/127\.0\.0\.1:\d+\/[\w./-]*$/.test(value);
  return (
    typeof body.domain === 'string' &&
    /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(body.domain) &&
    local(body.entityId) &&
    local(body.ssoUrl) &&
    typeof body.certificate === 'string' &&
    body.certificate.includes('BEGIN CERTIFICATE') &&
    body.certificate.length < 10_000 &&
    typeof body.spEntityId === 'string' &&
    body.spEntityId.length <= 200
  );
}
