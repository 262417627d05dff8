import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { organizations } from './sites.ts';

// Campus single sign-on (issue 20, decision 023): how an organisation signs its students in.

export const campusSignIns = pgTable(
  'campus_sign_ins',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orgId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    protocol: text().notNull(),
    // Lower-case e-mail domains that route to this campus (student@campus.example.edu).
    emailDomains: text().array().notNull().default(sql`'{}'::text[]`),
    // OpenID Connect: the issuer (its discovery document is <issuer>/.well-known/openid-configuration).
    oidcIssuer: text(),
    oidcClientId: text(),
    // AES-256-GCM under a key derived from LTI_KEY (decision 023); null: a public client (PKCE only).
    oidcClientSecretCiphertext: text(),
    // The scopes asked for, space-separated (issue 37: a campus id often comes with a scope of
    // the campus's own); null: openid email profile.
    oidcScopes: text(),
    // SAML 2.0: the IdP's metadata we keep, and our SP entity id (the audience we expect).
    samlIdpEntityId: text(),
    samlSsoUrl: text(),
    samlSigningCert: text(),
    samlSpEntityId: text(),
    // Which claim / attribute carries what (defaults: OIDC standard claims, eduPerson OIDs).
    emailAttribute: text().notNull().default('email'),
    firstNameAttribute: text().notNull().default('given_name'),
    lastNameAttribute: text().notNull().default('family_name'),
    campusIdAttribute: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campus_sign_ins_org').on(t.orgId),
    check('campus_sign_ins_protocol', sql`${t.protocol} in ('oidc', 'saml')`),
    check(
      'campus_sign_ins_oidc',
      sql`${t.protocol} <> 'oidc' or (${t.oidcIssuer} is not null and ${t.oidcClientId} is not null)`,
    ),
    check(
      'campus_sign_ins_saml',
      sql`${t.protocol} <> 'saml' or (${t.samlSsoUrl} is not null and ${t.samlSigningCert} is not null and ${t.samlSpEntityId} is not null)`,
    ),
  ],
);

/** A campus identity linked to an account: the issuer and its subject (OIDC `sub`, SAML NameID). */
export const campusIdentities = pgTable(
  'campus_identities',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    campusSignInId: integer()
      .notNull()
      .references(() => campusSignIns.id, { onDelete: 'cascade' }),
    issuer: text().notNull(),
    subject: text().notNull(),
    campusId: text(),
    linkedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campus_identities_subject').on(t.issuer, t.subject),
    index('campus_identities_user').on(t.userId),
    // The help desk finds a person by campus id (issue 39, people-search.ts).
    index('campus_identities_campus_id').on(t.campusId),
  ],
);

/**
 * A sign-in in flight: the state (OIDC) or AuthnRequest id (SAML) as a SHA-256 digest, the
 * PKCE verifier and nonce, where to go after; single-use, expiring.
 */
export const campusSignInRequests = pgTable(
  'campus_sign_in_requests',
  {
    handleHash: text().primaryKey(),
    campusSignInId: integer()
      .notNull()
      .references(() => campusSignIns.id, { onDelete: 'cascade' }),
    codeVerifier: text(),
    nonce: text(),
    nextPath: text().notNull().default('/shelf'),
    // Set once the identity provider's answer was accepted: the sign-in waits to be picked up
    // by a same-site GET (SAML posts from the IdP's site carry none of our cookies).
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    // Who started it while signed in (with their password): the identity links to them.
    linkUserId: integer().references(() => users.id, { onDelete: 'cascade' }),
    // Where it started from: one source may keep only so many in flight (campus-sign-in.ts).
    ipAddress: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('campus_sign_in_requests_expires').on(t.expiresAt),
    index('campus_sign_in_requests_ip').on(t.ipAddress),
  ],
);

/** SAML response and assertion ids already spent, kept until they expire (replay refused). */
export const campusUsedAssertions = pgTable(
  'campus_used_assertions',
  {
    idHash: text().primaryKey(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('campus_used_assertions_expires').on(t.expiresAt)],
);
