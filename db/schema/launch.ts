import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { products } from './catalog.ts';
import { courseSections } from './courses.ts';

// Courseware tools (issue 14, spec 2 §4 "Courseware launch"): where a courseware product (or
// every product of a publisher) is launched, over LTI 1.3 (Link 2.0) or LTI 1.1 (Link 1.0).
// A product's own tool wins over its publisher's. The 1.1 shared secret is stored encrypted
// with LTI_KEY (AES-256-GCM) and never shown back.
export const ltiTools = pgTable(
  'lti_tools',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    productId: integer().references(() => products.id, { onDelete: 'cascade' }),
    publisher: text(),
    ltiVersion: text().notNull(),
    launchUrl: text().notNull(),
    // LTI 1.3
    clientId: text(),
    deploymentId: text(),
    loginUrl: text(),
    redirectUris: text().array().notNull().default(sql`'{}'::text[]`),
    jwksUrl: text(),
    publicKey: text(),
    // LTI 1.1
    consumerKey: text(),
    secretCiphertext: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('lti_tools_product').on(t.productId),
    uniqueIndex('lti_tools_publisher').on(t.publisher),
    uniqueIndex('lti_tools_client_id').on(t.clientId),
    check('lti_tools_version', sql`${t.ltiVersion} in ('1.1', '1.3')`),
    check('lti_tools_target', sql`(${t.productId} is null) <> (${t.publisher} is null)`),
    check(
      'lti_tools_13_fields',
      sql`${t.ltiVersion} <> '1.3' or (${t.clientId} is not null and ${t.deploymentId} is not null and ${t.loginUrl} is not null and cardinality(${t.redirectUris}) > 0)`,
    ),
    check(
      'lti_tools_11_fields',
      sql`${t.ltiVersion} <> '1.1' or (${t.consumerKey} is not null and ${t.secretCiphertext} is not null)`,
    ),
  ],
);

// Every launch, from the moment it is asked for (spec 2 §7 "Courseware launch 2.0" / "Launch
// 1.0 authorize") to its outcome. The row also carries the single-use, short-lived handle of
// the launch in flight: the 1.3 lti_message_hint or the 1.1 cache_key, stored as a digest.
export const ltiLaunches = pgTable(
  'lti_launches',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sectionId: integer().references(() => courseSections.id, { onDelete: 'set null' }),
    toolId: integer().references(() => ltiTools.id, { onDelete: 'set null' }),
    ltiVersion: text().notNull(),
    handleDigest: text(),
    outcome: text().notNull().default('pending'),
    reason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('lti_launches_handle').on(t.handleDigest),
    index('lti_launches_section').on(t.sectionId, t.createdAt),
    index('lti_launches_user').on(t.userId, t.createdAt),
    check('lti_launches_version', sql`${t.ltiVersion} in ('1.1', '1.3')`),
    check('lti_launches_outcome', sql`${t.outcome} in ('pending', 'launched', 'refused')`),
  ],
);

// The platform's signing keys (RS256). One signs; a retired key stays in the JWKS until the
// launches it signed have expired (retired_at + token lifetime), then leaves it.
export const ltiPlatformKeys = pgTable(
  'lti_platform_keys',
  {
    kid: text().primaryKey(),
    publicJwk: jsonb().notNull(),
    privateKeyCiphertext: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    retiredAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('lti_platform_keys_one_active')
      .on(sql`(${t.retiredAt} is null)`)
      .where(sql`${t.retiredAt} is null`),
  ],
);
