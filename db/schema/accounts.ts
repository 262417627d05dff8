import { type SQL, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  type PgColumn,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { organizations } from './sites.ts';

/**
 * What the help desk's search box finds a part of (issue 39, people-search.ts): the address,
 * then the name both ways round ("maya okafor", "okafor maya"), lower-cased, one per line.
 * A query holds no line break (people-query.ts), so no match spans two of them. Trigrams
 * index it (users_search_trgm), so a part of a name or address is found without reading
 * every account.
 */
export function personSearchText(t: {
  email: PgColumn;
  firstName: PgColumn;
  lastName: PgColumn;
}): SQL {
  return sql`lower(${t.email} || chr(10) || ${t.firstName} || ' ' || ${t.lastName} || chr(10) || ${t.lastName} || ' ' || ${t.firstName})`;
}

export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    email: text().notNull(),
    firstName: text().notNull().default(''),
    lastName: text().notNull().default(''),
    passwordHash: text(),
    orgId: integer().references(() => organizations.id),
    languageCode: text(),
    timeZone: text().notNull().default('America/New_York'),
    mustAcceptEula: boolean().notNull().default(true),
    eulaAcceptedAt: timestamp({ withTimezone: true }),
    isActive: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // Issue 20: when the address was proved (a mailed link, the campus, an admin). Accounts
    // made before sign-up existed, or by the seed, fixtures and admins, count as verified
    // (the default); only self sign-up writes null until its link is followed.
    emailVerifiedAt: timestamp({ withTimezone: true }).defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    index('users_search_trgm').using('gin', sql`(${personSearchText(t)}) gin_trgm_ops`),
    check(
      'users_email_shape',
      sql`${t.email} ~ '^[^@\\s]+@[^@\\s]+$' and length(${t.email}) <= 254`,
    ),
    check('users_language', sql`${t.languageCode} is null or ${t.languageCode} in ('en', 'fr-CA')`),
  ],
);

export const USER_ROLES = [
  'manager',
  'bookstore_manager',
  'publisher',
  'admin',
  'support',
] as const;

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.role] }),
    check(
      'user_roles_role',
      sql`${t.role} in ('manager', 'bookstore_manager', 'publisher', 'admin', 'support')`,
    ),
  ],
);

// Account flags of spec 1 §3 (Login.navigationInfo) that are stored; the others
// (isClassroomInstructor, isImpersonating, isManager, isBookstoreManager) are derived.
export const accountFlags = pgTable('account_flags', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  myShelfEnabled: boolean().notNull().default(true),
  hasAccessToCampusTools: boolean().notNull().default(false),
  isCourseManagerEnabled: boolean().notNull().default(false),
  hasAccessToBsmProductRequests: boolean().notNull().default(false),
  hasAccessToPubProductRequests: boolean().notNull().default(false),
  isPostingEnabled: boolean().notNull().default(false),
  hasAccessToMyUsers: boolean().notNull().default(false),
  isSamplesEnabled: boolean().notNull().default(false),
  isAnalyticsEnabled: boolean().notNull().default(false),
  hasAccessToClaimCodeChecker: boolean().notNull().default(false),
  canImpersonate: boolean().notNull().default(false),
});

export const sessions = pgTable(
  'sessions',
  {
    // SHA-256 of the cookie value: a database leak does not leak live sessions.
    idHash: text().primaryKey(),
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    impersonatorId: integer().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    // Issue 20: the browser that signed in, for My Account's list of devices (cut to 500).
    userAgent: text(),
    // Issue 20: the sign-in proved two factors (a code, or a user-verified passkey). A session
    // without it ends when its account gains a role that requires them.
    secondFactor: boolean().notNull().default(false),
  },
  (t) => [index('sessions_user').on(t.userId), index('sessions_expires').on(t.expiresAt)],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    email: text().notNull(),
    ipAddress: text().notNull(),
    succeeded: boolean().notNull(),
    attemptedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_attempts_email').on(sql`lower(${t.email})`, t.attemptedAt),
    index('login_attempts_ip').on(t.ipAddress, t.attemptedAt),
  ],
);
