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
import { offerings, products } from './catalog.ts';
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
    totalCents: integer().notNull(),
    currencyCode: text().notNull().default('USD'),
    shippingAddress: jsonb().$type<Record<string, string>>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('orders_user_idempotency').on(t.userId, t.idempotencyKey),
    index('orders_user').on(t.userId, t.createdAt),
    check(
      'orders_status',
      sql`${t.status} in ('pending', 'paid', 'fulfilled', 'canceled', 'refunded')`,
    ),
    check(
      'orders_totals',
      sql`${t.subtotalCents} >= 0 and ${t.feeCents} >= 0 and ${t.totalCents} = ${t.subtotalCents} + ${t.feeCents}`,
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
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_gateway_ref').on(t.gateway, t.gatewayRef),
    // At most one successful charge per order.
    uniqueIndex('payments_one_success')
      .on(t.orderId)
      .where(sql`${t.status} = 'succeeded'`),
    check('payments_gateway', sql`${t.gateway} in ('test', 'stripe')`),
    check(
      'payments_status',
      sql`${t.status} in ('requires_confirmation', 'succeeded', 'failed', 'canceled', 'refunded')`,
    ),
    check('payments_amount', sql`${t.amountCents} >= 0`),
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
