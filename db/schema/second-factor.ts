import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

// Passkeys and the second factor (issue 20, decision 021).

/** A WebAuthn credential: signs its owner in without a password. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the authenticator gave it. */
    credentialId: text().notNull(),
    /** The COSE public key, base64url. */
    publicKey: text().notNull(),
    /** The signature counter last seen (0 for authenticators that keep none). */
    signCount: bigint({ mode: 'number' }).notNull().default(0),
    transports: text().array().notNull().default(sql`'{}'::text[]`),
    name: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('passkeys_credential').on(t.credentialId),
    index('passkeys_user').on(t.userId),
    check('passkeys_name_length', sql`length(${t.name}) between 1 and 64`),
    check('passkeys_sign_count', sql`${t.signCount} >= 0`),
  ],
);

/** A TOTP authenticator; confirmed once a code from it was entered. */
export const totpAuthenticators = pgTable('totp_authenticators', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The base32 secret, AES-256-GCM under a key derived from LTI_KEY's configuration. */
  secretCiphertext: text().notNull(),
  confirmedAt: timestamp({ withTimezone: true }),
  /** The last time step a code was accepted for: a code is never accepted twice. */
  lastUsedStep: bigint({ mode: 'number' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Single-use recovery codes, stored as SHA-256 digests. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeDigest: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('recovery_codes_user_code').on(t.userId, t.codeDigest)],
);

/**
 * A short-lived, single-use step of a sign-in or of a passkey registration, found by the
 * SHA-256 of a random cookie value: a WebAuthn challenge, or a password (or passkey) sign-in
 * waiting for its second factor or for the enrolment a manager must make.
 */
export const signInSteps = pgTable(
  'sign_in_steps',
  {
    idHash: text().primaryKey(),
    kind: text().notNull(),
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    challenge: text(),
    next: text(),
    /** The anonymous visitor's cart key, merged into the account once the session starts. */
    anonymousKey: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sign_in_steps_expires').on(t.expiresAt),
    check(
      'sign_in_steps_kind',
      sql`${t.kind} in ('passkey-register', 'passkey-sign-in', 'second-factor', 'enrol')`,
    ),
  ],
);

/** Second-factor codes tried, for throttling (like login_attempts). */
export const secondFactorAttempts = pgTable(
  'second_factor_attempts',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ipAddress: text().notNull(),
    succeeded: boolean().notNull(),
    attemptedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('second_factor_attempts_user').on(t.userId, t.attemptedAt),
    index('second_factor_attempts_ip').on(t.ipAddress, t.attemptedAt),
  ],
);
