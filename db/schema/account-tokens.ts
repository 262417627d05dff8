import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

// Issue 20: the links mailed to prove an address, reset a password or move to a new address.
// A row is written with the change that asks for it; the link's token is made when the mail
// is sent (the outbox worker) and only its SHA-256 is kept. Single use: used_at.
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text().notNull(),
    /** The address the link is sent to (the new one, for a change of address). */
    email: text().notNull(),
    tokenHash: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    /**
     * Issue 38: the SHA-256 of the marker cookie of the browser that signed up; a sign-up's
     * link opened there signs the account in, elsewhere it asks for the password.
     */
    deviceHash: text(),
  },
  (t) => [
    uniqueIndex('account_tokens_hash').on(t.tokenHash),
    index('account_tokens_user').on(t.userId, t.purpose),
    check(
      'account_tokens_purpose',
      sql`${t.purpose} in ('verify-email', 'reset-password', 'change-email')`,
    ),
  ],
);

// Every request for a mailed link (forgot password, resend verification, sign-up), known address or
// not, so that throttling per address and per IP says the same for both.
export const accountMailRequests = pgTable(
  'account_mail_requests',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    kind: text().notNull(),
    email: text().notNull(),
    ipAddress: text().notNull(),
    requestedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('account_mail_requests_email').on(sql`lower(${t.email})`, t.requestedAt),
    index('account_mail_requests_ip').on(t.ipAddress, t.requestedAt),
    check(
      'account_mail_requests_kind',
      sql`${t.kind} in ('reset-password', 'verify-email', 'sign-up')`,
    ),
  ],
);
