import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { products } from './catalog.ts';
import { orders } from './commerce.ts';

// Codes a shopper types to get a product. Only a keyed digest is stored, so a code is
// looked up without comparing secrets byte by byte and never sits whole in the database.
export const redeemCodes = pgTable(
  'redeem_codes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    codeDigest: text().notNull(),
    codeLast4: text().notNull(),
    durationDays: integer(),
    redeemedByUserId: integer().references(() => users.id),
    redeemedAt: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('redeem_codes_digest').on(t.codeDigest),
    check(
      'redeem_codes_redeemed_together',
      sql`(${t.redeemedByUserId} is null) = (${t.redeemedAt} is null)`,
    ),
  ],
);

// Publisher access codes for courseware, handed out from a pool on purchase and shown
// to their owner (spec 1 §4, Access code panel).
export const accessCodes = pgTable(
  'access_codes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    code: text().notNull(),
    accessCodeUrl: text(),
    assignedUserId: integer().references(() => users.id),
    orderId: uuid().references(() => orders.id),
    assignedAt: timestamp({ withTimezone: true }),
    /**
     * Issue 39: the order line that delivered it was refunded. The code works no more here: it
     * is never shown or handed out again, nor back in the pool (the refund says why).
     */
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('access_codes_product_code').on(t.productId, t.code),
    index('access_codes_pool').on(t.productId).where(sql`${t.assignedUserId} is null`),
    index('access_codes_user').on(t.assignedUserId),
  ],
);

// Redemption attempts, to slow down guessing (issue 6): failures per user and per address.
export const redeemAttempts = pgTable(
  'redeem_attempts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    ipAddress: text().notNull(),
    succeeded: boolean().notNull(),
    // Only the last four characters: a code is never stored or logged whole.
    codeLast4: text().notNull(),
    attemptedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('redeem_attempts_user').on(t.userId, t.attemptedAt),
    index('redeem_attempts_ip').on(t.ipAddress, t.attemptedAt),
  ],
);

// Claim Code Checker (spec 1 §2 user menu, "users with access"): each code a staff member
// looked up, to slow down guessing through the checker and to say afterwards who checked what.
// As with redemptions, only the last four characters of the code are kept.
export const claimCodeChecks = pgTable(
  'claim_code_checks',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    checkerUserId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ipAddress: text().notNull(),
    codeLast4: text().notNull(),
    found: boolean().notNull(),
    checkedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('claim_code_checks_checker').on(t.checkerUserId, t.checkedAt),
    // The limit per address reads these (as redeem_attempts_ip does for redemptions).
    index('claim_code_checks_ip').on(t.ipAddress, t.checkedAt),
  ],
);
