import { sql } from 'drizzle-orm';
import {
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
import { inList } from './catalog.ts';
import { orderItems, orders } from './commerce.ts';

// Issue 39: refunds of order lines (domain/commerce/refunds.ts, decision 038). One row per order
// line, ever: a buyer's request waiting for support, a refund on its way to the gateway, or one
// made. The row is the intent recorded before the gateway is called (decision 033); its
// idempotency key, derived from the line, is the one the gateway sees.
export const REFUND_STATUSES = [
  /** The buyer asked beyond the policy: support answers (the queue). */
  'requested',
  /** Decided: the gateway is (being) asked; a crash here is settled by asking again. */
  'approved',
  'refunded',
  /** Support said no to a request, with a reason. */
  'refused',
] as const;

export const refunds = pgTable(
  'refunds',
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    orderItemId: integer()
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    amountCents: integer().notNull(),
    currencyCode: text().notNull().default('USD'),
    status: text().notNull(),
    /** The policy's rule that sent the line to support (a message id); null within the policy. */
    rule: text(),
    /** Staff's reason: required beyond the policy, and for a refusal. */
    reason: text(),
    requestedById: integer().references(() => users.id, { onDelete: 'set null' }),
    decidedById: integer().references(() => users.id, { onDelete: 'set null' }),
    /** The gateway asked, and its own id of the refund once it answered. */
    gateway: text(),
    gatewayRefundRef: text(),
    idempotencyKey: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp({ withTimezone: true }),
    refundedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // At most one refund per order line, ever: two clicks at once cannot make two.
    uniqueIndex('refunds_order_item').on(t.orderItemId),
    uniqueIndex('refunds_idempotency_key').on(t.idempotencyKey),
    index('refunds_order').on(t.orderId),
    // The help desk's queue, and the refunds a crash left between the gateway and us.
    index('refunds_open')
      .on(t.status, t.createdAt)
      .where(sql`${t.status} in ('requested', 'approved')`),
    check('refunds_status', sql`${t.status} in (${inList(REFUND_STATUSES)})`),
    check('refunds_amount', sql`${t.amountCents} > 0`),
    check('refunds_currency', sql`${t.currencyCode} = 'USD'`),
    check('refunds_gateway', sql`${t.gateway} is null or ${t.gateway} in ('test', 'stripe')`),
  ],
);

// The built-in test gateway's refunds of part of a payment, kept as a provider keeps them: the
// same idempotency key is the same refund, and a payment is never refunded past its amount.
export const testGatewayRefunds = pgTable(
  'test_gateway_refunds',
  {
    ref: text().primaryKey(),
    paymentRef: text().notNull(),
    amountCents: integer().notNull(),
    idempotencyKey: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('test_gateway_refunds_payment').on(t.paymentRef),
    check('test_gateway_refunds_amount', sql`${t.amountCents} > 0`),
  ],
);
