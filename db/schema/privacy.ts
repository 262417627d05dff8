import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

// Privacy self-service (issue 20): a request to download one's data or to delete one's
// account, confirmed by a mailed link. Only the SHA-256 of the link's token is kept; a
// request is used once and expires (domain/accounts/privacy-rules.ts).
export const privacyRequests = pgTable(
  'privacy_requests',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('privacy_requests_user').on(t.userId, t.createdAt),
    check('privacy_requests_kind', sql`${t.kind} in ('export', 'delete')`),
  ],
);

// An account deleted by its owner: the users row stays as a tombstone without personal data,
// so that the orders and payments kept for the retention period still have their buyer row.
// The purge of those orders reads this table (domain/accounts/account-deletion.ts).
export const deletedAccounts = pgTable('deleted_accounts', {
  userId: integer()
    .primaryKey()
    .references(() => users.id),
  deletedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
