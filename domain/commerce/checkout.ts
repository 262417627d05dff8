import { createHash, randomUUID } from 'node:crypto';
import { and, count, desc, eq, gte, inArray, isNull, lt, notInArray, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import {
  orderItems,
  orders,
  orderTransitions,
  payments,
  printOrders,
  shipments,
} from '#db/schema/commerce.ts';
import type { Entitlement } from '#domain/access/entitlement.ts';
import { openingsOf } from '#domain/access/entitlement-facts.ts';
import type { Clock } from '#domain/shared/clock.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '#domain/shared/errors.ts';
import type { CartLine } from './cart.ts';
import { ABANDONED_AFTER_MS, INTERRUPTED_PAYMENT } from './duplicate-charge.ts';
import { orderNumber } from './order-number.ts';
import { orderNextSteps } from './order-receipt.ts';
import { cancelOrder, placeOrder, recordSuccessfulPayment } from './orders.ts';
import type { PaymentFailure } from './payment-failure.ts';
import type {
  GatewayName,
  GatewayPayment,
  PaymentGateway,
  PaymentMethodInput,
} from './payment-gateway.ts';
import type { ShippingAddress } from './shipping-address.ts';
import { TestGateway } from './test-gateway.ts';

/** Below this a card payment costs more than it brings (spec 1 §5: wallet minimum 0.50 USD). */
export const MINIMUM_CHARGE_CENTS = 50;

/**
 * The checkout's idempotency key: the same account and the same cart give the same key, so
 * a refresh of the payment step or a double click finds the order already placed.
 */
export function checkoutKey(userId: number, lines: readonly CartLine[]): string {
  const content = lines.map((line) => `${line.id}:${line.offeringId}`).join(',');
  return createHash('sha256').update(`${userId}|${content}`).digest('base64url').slice(0, 40);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function ownOrder(ctx: RequestContext, orderId: string) {
  const user = ctx.user;
  if (!user) throw new Forbidden();
  if (!UUID.test(orderId)) throw new NotFound();
  const [order] = await ctx.db
    .select({
      id: orders.id,
      status: orders.status,
      subtotalCents: orders.subtotalCents,
      feeCents: orders.feeCents,
      shippingCents: orders.shippingCents,
      totalCents: orders.totalCents,
    })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, user.id)))
    .limit(1);
  // Another shopper's order reads as not found, like one that does not exist.
  if (!order) throw new NotFound();
  return order;
}

export type PaymentOutcome = { ok: true } | { ok: false; reason: PaymentFailure };

/** The order's open payment at the gateway, created on first use (one per attempt). */
async function openPayment(
  ctx: RequestContext,
  gateway: PaymentGateway,
  order: { id: string; totalCents: number },
  wallet: boolean,
): Promise<GatewayPayment> {
  // The open attempt, and how many there were (the next one's key), in one statement.
  const [{ openRef, attempts } = { openRef: null, attempts: 0 }] = await ctx.db
    .select({
      openRef: sql<string | null>`(${ctx.db
        .select({ ref: payments.gatewayRef })
        .from(payments)
        .where(
          and(
            eq(payments.orderId, order.id),
            eq(payments.gateway, gateway.name),
            notInArray(payments.status, ['canceled', 'refunded']),
          ),
        )
        .orderBy(desc(payments.createdAt))
        .limit(1)})`,
      attempts: count(),
    })
    .from(payments)
    .where(eq(payments.orderId, order.id));
  if (openRef) return gateway.retrievePayment(openRef);
  const payment = await gateway.createPayment({
    amountCents: order.totalCents,
    currencyCode: 'USD',
    orderId: order.id,
    // A retried request makes the same attempt; one after a cancel makes a new one.
    idempotencyKey: `${order.id}:${attempts}`,
  });
  await ctx.db
    .insert(payments)
    .values({
      orderId: order.id,
      gateway: gateway.name,
      gatewayRef: payment.ref,
      status: payment.status,
      amountCents: payment.amountCents,
      isWallet: wallet,
    })
    .onConflictDoNothing();
  return payment;
}

/**
 * Records what the gateway says of a payment, whoever tells it (the shopper's confirmation or
 * a webhook): a success pays and fulfils the order once; anything else updates the record.
 * `settledAt` is the clock read when the gateway's word was in hand, not when the request
 * began: every row the settlement writes carries it (decision 041).
 */
export async function settlePayment(
  db: Queryable,
  gateway: GatewayName,
  payment: GatewayPayment,
  settledAt: Date,
  /** Why the order moves to paid, when not the buyer's own press (INTERRUPTED_PAYMENT). */
  reason?: string,
): Promise<void> {
  if (payment.status === 'succeeded' && payment.orderId) {
    // The card first, on the attempt's row, so that the order mail queued with the success
    // finds it; again after, when there was no such row and the success itself created it.
    const recorded = await recordPaymentCard(db, gateway, payment);
    await recordSuccessfulPayment(db, {
      orderId: payment.orderId,
      gateway,
      gatewayRef: payment.ref,
      amountCents: payment.amountCents,
      now: settledAt,
      reason,
    });
    if (!recorded) await recordPaymentCard(db, gateway, payment);
    return;
  }
  // A settled payment stays settled: news of an earlier state arriving late (a webhook for
  // a failed attempt delivered after the success or the cancelation) changes nothing.
  await db
    .update(payments)
    .set({ status: payment.status, failure: payment.failure, updatedAt: settledAt })
    .where(
      and(
        eq(payments.gateway, gateway),
        eq(payments.gatewayRef, payment.ref),
        notInArray(payments.status, ['succeeded', 'canceled', 'refunded']),
      ),
    );
}

/**
 * The card the gateway names for a payment, kept for the order page and mail (issue 19).
 * True when there is nothing more to record: no card named, or a row of the payment has it.
 */
async function recordPaymentCard(
  db: Queryable,
  gateway: GatewayName,
  payment: GatewayPayment,
): Promise<boolean> {
  if (!payment.card) return true;
  const rows = await db
    .update(payments)
    .set({ cardBrand: payment.card.brand, cardLast4: payment.card.last4 })
    .where(and(eq(payments.gateway, gateway), eq(payments.gatewayRef, payment.ref)))
    .returning({ id: payments.id });
  return rows.length > 0;
}

function outcomeOf(payment: GatewayPayment): PaymentOutcome {
  switch (payment.status) {
    case 'succeeded':
      return { ok: true };
    case 'requires_action':
      return { ok: false, reason: 'requires_action' };
    case 'canceled':
      return { ok: false, reason: 'canceled' };
    default:
      return { ok: false, reason: payment.failure ?? 'processing_error' };
  }
}

/** Where a payment stands for its order's owner: pending, or why it cannot be paid. */
async function payableOrder(ctx: RequestContext, orderId: string) {
  const order = await ownOrder(ctx, orderId);
  if (order.status === 'paid' || order.status === 'fulfilled') return { order, paid: true };
  if (order.status !== 'pending') throw new Invalid('checkout.error.notPending');
  if (order.totalCents < MINIMUM_CHARGE_CENTS) throw new Invalid('checkout.error.minimum');
  return { order, paid: false };
}

/**
 * Pays the user's pending order with a card or a wallet token. A paid order (a refresh, a
 * double click) is simply paid; the same card confirmed twice is one confirmation.
 */
export async function payOrder(
  ctx: RequestContext,
  gateway: PaymentGateway,
  input: { orderId: string; method: PaymentMethodInput; wallet?: boolean },
): Promise<PaymentOutcome> {
  const { order, paid } = await payableOrder(ctx, input.orderId);
  if (paid) return { ok: true };
  const open = await openPayment(ctx, gateway, order, input.wallet ?? false);
  if (open.status === 'succeeded' || open.status === 'requires_action') {
    // Paid before this press: an earlier one went through and its answer was lost (issue 37).
    await settlePayment(
      ctx.db,
      gateway.name,
      open,
      ctx.clock(),
      open.status === 'succeeded' ? INTERRUPTED_PAYMENT : undefined,
    );
    return outcomeOf(open);
  }
  const confirmed = await gateway.confirmPayment({
    ref: open.ref,
    method: input.method,
    // Each press of Pay is its own confirmation: a payment intent succeeds at most once, so
    // a double click cannot charge twice, and a retry after a decline is really tried again.
    idempotencyKey: `${open.ref}:${randomUUID()}`,
    now: ctx.now,
  });
  // The gateway has answered: that is when the payment settled, however long this request
  // waited before (a pool full of a rush's buyers) or waits after for its transaction.
  await settlePayment(ctx.db, gateway.name, confirmed, ctx.clock());
  return outcomeOf(confirmed);
}

/** After the provider's extra step: reads the payment's state and settles it. */
export async function resumePayment(
  ctx: RequestContext,
  gateway: PaymentGateway,
  orderId: string,
): Promise<PaymentOutcome & { ref: string | null }> {
  const { order, paid } = await payableOrder(ctx, orderId);
  if (paid) return { ok: true, ref: null };
  const open = await openPayment(ctx, gateway, order, false);
  await settlePayment(ctx.db, gateway.name, open, ctx.clock());
  return { ...outcomeOf(open), ref: open.ref };
}

/**
 * The shopper closed the wallet sheet: the payment is canceled and so is its order. An order
 * canceled already stays so (a retried call); one that is paid cannot be canceled, and is said
 * so (409), changing nothing (issue 37).
 */
export async function cancelPayment(
  ctx: RequestContext,
  gateway: PaymentGateway,
  orderId: string,
): Promise<void> {
  const order = await ownOrder(ctx, orderId);
  if (order.status === 'canceled') return;
  if (order.status !== 'pending') throw new Conflict('checkout.error.notCancelable');
  const [open] = await ctx.db
    .select({ ref: payments.gatewayRef })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.gateway, gateway.name)))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  if (open) {
    const canceled = await gateway.cancelPayment(open.ref);
    await settlePayment(ctx.db, gateway.name, canceled, ctx.clock());
    // It went through meanwhile: the order is paid now, not canceled.
    if (canceled.status === 'succeeded') throw new Conflict('checkout.error.notCancelable');
  }
  await cancelOrder(ctx.db, { orderId: order.id, reason: 'payment canceled', now: ctx.clock() });
}

/**
 * The wallet button (spec 1 §4 Wallet payment), step 1: an order for the one offering and its
 * payment at the gateway. The browser's key makes a retried create the same order.
 */
export async function startWalletPayment(
  ctx: RequestContext,
  gateway: PaymentGateway,
  input: { offeringId: number; idempotencyKey: string; courseSectionId: number | null },
): Promise<{ orderId: string; amountCents: number; clientSecret: string }> {
  const { orderId } = await placeOrder(ctx, {
    idempotencyKey: input.idempotencyKey,
    offeringId: input.offeringId,
    courseSectionId: input.courseSectionId,
  });
  const { order, paid } = await payableOrder(ctx, orderId);
  if (paid) throw new Invalid('checkout.error.notPending');
  const payment = await openPayment(ctx, gateway, order, true);
  return { orderId, amountCents: payment.amountCents, clientSecret: payment.clientSecret };
}

/**
 * The checkout's payment step when the provider's script takes the card (Stripe's Payment
 * Element): the cart's order, placed once for the checkout key, and its open payment, whose
 * client secret the script confirms in the browser. The same key gives the same order and the
 * same payment back (a refresh, a second click); an order that is paid already (the payment
 * went through in another tab) says so instead.
 */
export async function startCheckoutPayment(
  ctx: RequestContext,
  gateway: PaymentGateway,
  input: {
    idempotencyKey: string;
    courseSectionId: number | null;
    shippingAddress: ShippingAddress | null;
  },
): Promise<
  | { orderId: string; paid: true }
  | { orderId: string; paid: false; amountCents: number; clientSecret: string }
> {
  const { orderId } = await placeOrder(ctx, input);
  const { order, paid } = await payableOrder(ctx, orderId);
  if (paid) return { orderId, paid: true };
  const payment = await openPayment(ctx, gateway, order, false);
  if (payment.status === 'succeeded') {
    // Paid in an earlier visit whose return never reached us (issue 37).
    await settlePayment(ctx.db, gateway.name, payment, ctx.clock(), INTERRUPTED_PAYMENT);
    return { orderId, paid: true };
  }
  return {
    orderId,
    paid: false,
    amountCents: payment.amountCents,
    clientSecret: payment.clientSecret,
  };
}

/**
 * The test bank's extra step for a card that asks the shopper to confirm (4000 0025 0000
 * 3155): the shopper approves or refuses it, then the payment is read back and settled.
 */
export async function authenticateTestPayment(
  ctx: RequestContext,
  gateway: PaymentGateway,
  input: { orderId: string; approved: boolean },
): Promise<PaymentOutcome> {
  if (!(gateway instanceof TestGateway)) throw new Invalid('checkout.error.requires_action');
  const { order, paid } = await payableOrder(ctx, input.orderId);
  if (paid) return { ok: true };
  const open = await openPayment(ctx, gateway, order, false);
  await gateway.authenticate(open.ref, input.approved);
  return resumePayment(ctx, gateway, order.id);
}

/**
 * Cancels orders left pending for an hour (the shopper went away mid-payment) and puts their
 * stock back. The payment is canceled at the gateway first: one that succeeded meanwhile is
 * settled instead, so no shopper pays for an order that was then canceled. Each settlement is
 * stamped when its gateway answered (decision 041), not when the sweep began.
 */
export async function expireAbandonedOrders(
  db: Queryable,
  gateway: PaymentGateway,
  clock: Clock,
): Promise<number> {
  const now = clock();
  const stale = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'pending'),
        lt(orders.createdAt, new Date(now.getTime() - ABANDONED_AFTER_MS)),
      ),
    )
    .orderBy(orders.createdAt)
    .limit(100);
  let canceled = 0;
  for (const { id } of stale) {
    const open = await db
      .select({ ref: payments.gatewayRef })
      .from(payments)
      .where(
        and(
          eq(payments.orderId, id),
          eq(payments.gateway, gateway.name),
          notInArray(payments.status, ['canceled', 'refunded']),
        ),
      );
    let paid = false;
    for (const { ref } of open) {
      const payment = await gateway.cancelPayment(ref);
      await settlePayment(db, gateway.name, payment, clock());
      paid ||= payment.status === 'succeeded';
    }
    if (!paid && (await cancelOrder(db, { orderId: id, reason: 'abandoned', now: clock() }))) {
      canceled += 1;
    }
  }
  return canceled;
}

/**
 * What an order's page and mail say of it besides its items (issue 19): its number, when it
 * was placed (paid, once it is), and the card that paid (brand and last four), if known.
 */
export async function orderReceiptFacts(db: Queryable, orderId: string) {
  const [order] = await db
    .select({
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      brand: payments.cardBrand,
      last4: payments.cardLast4,
    })
    .from(orders)
    .leftJoin(payments, and(eq(payments.orderId, orders.id), eq(payments.status, 'succeeded')))
    .where(eq(orders.id, orderId))
    .limit(1);
  return {
    number: orderNumber(orderId),
    placedAt: order?.paidAt ?? order?.createdAt ?? null,
    card: order?.brand && order.last4 ? { brand: order.brand, last4: order.last4 } : null,
  };
}

/** The order-complete page: only its owner sees it (spec 1 §2 Checkout complete). */
export async function completedOrder(ctx: RequestContext, orderId: string) {
  const order = await ownOrder(ctx, orderId);
  if (order.status === 'paid' || order.status === 'fulfilled') {
    await markCompletionSeen(ctx, order.id);
  }
  const items = await ctx.db
    .select({
      productId: orderItems.productId,
      title: products.title,
      productType: products.productType,
      status: products.status,
      priceCents: orderItems.priceCents,
      isDigital: orderItems.isDigital,
      // Which offering it was, in plain words on the page (issue 19, offering-terms.ts).
      term: {
        productType: products.productType,
        type: offerings.type,
        durationDays: offerings.durationDays,
        isRental: offerings.isRental,
      },
      shipment: {
        status: shipments.status,
        carrier: shipments.carrier,
        trackingNumber: shipments.trackingNumber,
        rentalDueAt: shipments.rentalDueAt,
      },
      printOrder: {
        status: printOrders.status,
        earliestDeliveryAt: printOrders.earliestDeliveryAt,
        latestDeliveryAt: printOrders.latestDeliveryAt,
      },
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .innerJoin(offerings, eq(offerings.id, orderItems.offeringId))
    .leftJoin(shipments, eq(shipments.orderItemId, orderItems.id))
    .leftJoin(printOrders, eq(printOrders.orderItemId, orderItems.id))
    .where(eq(orderItems.orderId, order.id))
    .orderBy(orderItems.id);
  // Read Now only where the one rule opens it and there is a file (issue 14).
  const openings = await openingsOf(ctx, items);
  return {
    ...order,
    ...(await orderReceiptFacts(ctx.db, order.id)),
    // Paid by a press whose answer was lost: the page says the payment went through (issue 37).
    recovered: (await interruptedPayments(ctx.db, { orderId: order.id })).length > 0,
    next: orderNextSteps(items.map((item) => item.term.type)),
    items: items.map((item) => ({
      ...item,
      readable: openings.get(item.productId)?.readable ?? false,
      noFile: openings.get(item.productId)?.noFile ?? false,
      // Courseware, a classroom, a collection: opened from My Shelf (its launch, section code
      // or items), where the order-complete page sends the buyer (issue 19 walk).
      fromShelf: opensFromShelf(openings.get(item.productId)?.decision),
    })),
  };
}

/** Whether the rule opens it, other than by reading (launch, enter, open): from My Shelf. */
function opensFromShelf(decision: Entitlement | undefined): boolean {
  return decision?.ok === true && decision.entry !== 'read';
}

/**
 * Paid orders whose buyer was never shown them (issue 37): the cart tells the buyer "Your
 * payment of $37.99 went through" for one paid since `since` whose order-complete page they
 * never saw (the answer lost to a crash, a closed tab, a page that never came back), however it
 * came to be paid; the order-complete page says it for one paid by a charge found after its
 * answer was lost (INTERRUPTED_PAYMENT).
 */
export async function interruptedPayments(
  db: Queryable,
  input: { userId: number; since: Date } | { orderId: string },
): Promise<{ orderId: string; totalCents: number }[]> {
  if ('orderId' in input) {
    return db
      .select({ orderId: orders.id, totalCents: orders.totalCents })
      .from(orderTransitions)
      .innerJoin(orders, eq(orders.id, orderTransitions.orderId))
      .where(
        and(
          eq(orderTransitions.toStatus, 'paid'),
          eq(orderTransitions.reason, INTERRUPTED_PAYMENT),
          inArray(orders.status, ['paid', 'fulfilled']),
          eq(orders.id, input.orderId),
        ),
      )
      .limit(1);
  }
  return db
    .select({ orderId: orders.id, totalCents: orders.totalCents })
    .from(orders)
    .where(
      and(
        eq(orders.userId, input.userId),
        inArray(orders.status, ['paid', 'fulfilled']),
        gte(orders.paidAt, input.since),
        isNull(orders.completionSeenAt),
      ),
    )
    .orderBy(desc(orders.paidAt))
    .limit(5);
}

/** The buyer was shown the order-complete page: the cart no longer names the order. */
export async function markCompletionSeen(ctx: RequestContext, orderId: string): Promise<void> {
  await ctx.db
    .update(orders)
    .set({ completionSeenAt: ctx.now })
    .where(and(eq(orders.id, orderId), isNull(orders.completionSeenAt)));
}
