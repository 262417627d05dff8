import { sql } from 'drizzle-orm';
import {
  boolean,
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
import { inList, offerings, products } from './catalog.ts';
import { courseSections } from './courses.ts';

// One open cart per user, or per anonymous shopper (cookie token) until login merges it.
export const carts = pgTable(
  'carts',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    anonymousTokenHash: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('carts_user').on(t.userId),
    uniqueIndex('carts_anonymous').on(t.anonymousTokenHash),
    check('carts_owner', sql`${t.userId} is not null or ${t.anonymousTokenHash} is not null`),
  ],
);

export const cartItems = pgTable(
  'cart_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    cartId: uuid()
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id),
    offeringId: integer()
      .notNull()
      .references(() => offerings.id),
    courseSectionId: integer().references(() => courseSections.id),
    // A combo sets both (spec 1 §3 Cart item).
    isDigital: boolean().notNull(),
    isPrint: boolean().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('cart_items_cart_product').on(t.cartId, t.productId),
    check('cart_items_kind', sql`${t.isDigital} or ${t.isPrint}`),
  ],
);

export const ORDER_STATUSES = ['pending', 'paid', 'fulfilled', 'canceled', 'refunded'] as const;

export const orders = pgTable(
  'orders',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    status: text().notNull().default('pending'),
    // One checkout, one order: a double click or a retry finds this row (DESIGN.md).
    idempotencyKey: text().notNull(),
    courseSectionId: integer().references(() => courseSections.id),
    subtotalCents: integer().notNull(),
    feeCents: integer().notNull().default(0),
    /** The shipping charged (issue 38): the configured rate when it posts something, else 0. */
    shippingCents: integer().notNull().default(0),
    totalCents: integer().notNull(),
    currencyCode: text().notNull().default('USD'),
    shippingAddress: jsonb().$type<Record<string, string>>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
    /**
     * When its buyer was first shown the order-complete page: a paid order whose buyer never
     * saw it (the answer lost to a crash or a closed tab) is named on their cart (issue 37).
     */
    completionSeenAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('orders_user_idempotency').on(t.userId, t.idempotencyKey),
    index('orders_user').on(t.userId, t.createdAt),
    // The sweep for duplicate orders reads the orders paid in the last half hour (issue 37).
    index('orders_paid_at')
      .on(t.paidAt)
      .where(sql`${t.paidAt} is not null`),
    check(
      'orders_status',
      sql`${t.status} in ('pending', 'paid', 'fulfilled', 'canceled', 'refunded')`,
    ),
    check(
      'orders_totals',
      sql`${t.subtotalCents} >= 0 and ${t.feeCents} >= 0 and ${t.shippingCents} >= 0 and ${t.totalCents} = ${t.subtotalCents} + ${t.feeCents} + ${t.shippingCents}`,
    ),
    check('orders_currency', sql`${t.currencyCode} = 'USD'`),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id),
    offeringId: integer()
      .notNull()
      .references(() => offerings.id),
    priceCents: integer().notNull(),
    isDigital: boolean().notNull(),
    isPrint: boolean().notNull(),
    // This line took a unit of its offering's stock, to be put back if the order is canceled.
    tookStock: boolean().notNull().default(false),
  },
  (t) => [
    index('order_items_order').on(t.orderId),
    check('order_items_price', sql`${t.priceCents} >= 0`),
  ],
);

export const orderTransitions = pgTable(
  'order_transitions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text(),
    toStatus: text().notNull(),
    reason: text(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_transitions_order').on(t.orderId, t.at)],
);

// A payment's life at the gateway (payment-gateway.ts), plus refunded.
export const PAYMENT_STATUSES = [
  'requires_payment_method',
  'requires_action',
  'processing',
  'succeeded',
  'canceled',
  'refunded',
] as const;

export const payments = pgTable(
  'payments',
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id),
    gateway: text().notNull(),
    gatewayRef: text().notNull(),
    status: text().notNull(),
    amountCents: integer().notNull(),
    currencyCode: text().notNull().default('USD'),
    // Why the last confirmation failed (payment-gateway.ts FailureReason).
    failure: text(),
    // Paid with the wallet button rather than the card form.
    isWallet: boolean().notNull().default(false),
    // The card as the gateway reports it, for the order page and mail (issue 19): its brand
    // (Stripe's names: visa, mastercard, amex, …) and last four digits; never more of it.
    cardBrand: text(),
    cardLast4: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_gateway_ref').on(t.gateway, t.gatewayRef),
    // An order's payments (the checkout's open payment, the cart's reconciliation, issue 37).
    index('payments_order').on(t.orderId),
    // The payments still open, which the reconciler asks about every few seconds (issue 37):
    // few at any time, however many payments the store has taken.
    index('payments_open')
      .on(t.updatedAt)
      .where(sql`${t.status} in ('requires_payment_method', 'requires_action', 'processing')`),
    // At most one successful charge per order.
    uniqueIndex('payments_one_success')
      .on(t.orderId)
      .where(sql`${t.status} = 'succeeded'`),
    check('payments_gateway', sql`${t.gateway} in ('test', 'stripe')`),
    check('payments_status', sql`${t.status} in (${inList(PAYMENT_STATUSES)})`),
    check('payments_amount', sql`${t.amountCents} >= 0`),
    check('payments_card_last4', sql`${t.cardLast4} is null or ${t.cardLast4} ~ '^[0-9]{4}$'`),
  ],
);

// Gateway events, deduplicated by their id.
export const paymentEvents = pgTable(
  'payment_events',
  {
    gateway: text().notNull(),
    eventId: text().notNull(),
    type: text().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    payload: jsonb().notNull(),
  },
  (t) => [uniqueIndex('payment_events_gateway_event').on(t.gateway, t.eventId)],
);

// The built-in test gateway keeps its payments here, as a provider keeps them on its side:
// every app process sees the same ones (test-gateway.ts).
export const testGatewayPayments = pgTable(
  'test_gateway_payments',
  {
    ref: text().primaryKey(),
    idempotencyKey: text().notNull().unique(),
    orderId: uuid().notNull(),
    amountCents: integer().notNull(),
    status: text().notNull(),
    failure: text(),
    // The confirmation's own idempotency key: a retried confirm is the same confirm.
    confirmKey: text(),
    // The confirming card's brand and last four digits, as a provider reports them (issue 19).
    cardBrand: text(),
    cardLast4: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('test_gateway_payments_amount', sql`${t.amountCents} >= 0`)],
);

// A physical item to post (issue 4, Fulfilment): carrier and tracking are filled in when it
// ships; a rental is due back 7 days after the section's add/drop date.
export const shipments = pgTable(
  'shipments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    orderItemId: integer()
      .notNull()
      .unique()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    status: text().notNull().default('pending'),
    carrier: text(),
    trackingNumber: text(),
    rentalDueAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    shippedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('shipments_order').on(t.orderId),
    check('shipments_status', sql`${t.status} in ('pending', 'shipped', 'delivered', 'returned')`),
  ],
);

// A print-on-demand copy to print and post: 7–10 business days (spec 2 §9).
export const printOrders = pgTable(
  'print_orders',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    orderItemId: integer()
      .notNull()
      .unique()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    status: text().notNull().default('queued'),
    earliestDeliveryAt: timestamp({ withTimezone: true }).notNull(),
    latestDeliveryAt: timestamp({ withTimezone: true }).notNull(),
    carrier: text(),
    trackingNumber: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('print_orders_order').on(t.orderId),
    check(
      'print_orders_status',
      sql`${t.status} in ('queued', 'printing', 'shipped', 'delivered')`,
    ),
  ],
);
