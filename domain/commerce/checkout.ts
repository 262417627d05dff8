import { createHash } from 'node:crypto';
import { and, count, desc, eq, notInArray } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { products } from '#db/schema/catalog.ts';
import { orderItems, orders, payments } from '#db/schema/commerce.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid, NotFound } from '#domain/shared/errors.ts';
import type { CartLine } from './cart.ts';
import { cancelOrder, recordSuccessfulPayment } from './orders.ts';
import type {
  FailureReason,
  GatewayName,
  GatewayPayment,
  PaymentGateway,
  PaymentMethodInput,
} from './payment-gateway.ts';
import { cardDigits } from './test-card.ts';

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
    .select({ id: orders.id, status: orders.status, totalCents: orders.totalCents })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, user.id)))
    .limit(1);
  // Another shopper's order reads as not found, like one that does not exist.
  if (!order) throw new NotFound();
  return order;
}

export type PaymentOutcome =
  | { ok: true }
  | { ok: false; reason: FailureReason | 'requires_action' | 'canceled' };

/** The order's open payment at the gateway, created on first use (one per attempt). */
async function openPayment(
  ctx: RequestContext,
  gateway: PaymentGateway,
  order: { id: string; totalCents: number },
  wallet: boolean,
): Promise<GatewayPayment> {
  const [open] = await ctx.db
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
    .limit(1);
  if (open) return gateway.retrievePayment(open.ref);
  const [{ attempts } = { attempts: 0 }] = await ctx.db
    .select({ attempts: count() })
    .from(payments)
    .where(eq(payments.orderId, order.id));
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
 */
export async function settlePayment(
  db: Queryable,
  gateway: GatewayName,
  payment: GatewayPayment,
  now: Date,
): Promise<void> {
  if (payment.status === 'succeeded' && payment.orderId) {
    await recordSuccessfulPayment(db, {
      orderId: payment.orderId,
      gateway,
      gatewayRef: payment.ref,
      amountCents: payment.amountCents,
      now,
    });
    return;
  }
  // A settled payment stays settled: news of an earlier state arriving late (a webhook for
  // a failed attempt delivered after the success or the cancelation) changes nothing.
  await db
    .update(payments)
    .set({ status: payment.status, failure: payment.failure, updatedAt: now })
    .where(
      and(
        eq(payments.gateway, gateway),
        eq(payments.gatewayRef, payment.ref),
        notInArray(payments.status, ['succeeded', 'canceled', 'refunded']),
      ),
    );
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
    await settlePayment(ctx.db, gateway.name, open, ctx.now);
    return outcomeOf(open);
  }
  const confirmed = await gateway.confirmPayment({
    ref: open.ref,
    method: input.method,
    idempotencyKey: `${open.ref}:${methodDigest(input.method)}`,
    now: ctx.now,
  });
  await settlePayment(ctx.db, gateway.name, confirmed, ctx.now);
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
  await settlePayment(ctx.db, gateway.name, open, ctx.now);
  return { ...outcomeOf(open), ref: open.ref };
}

/** The shopper closed the wallet sheet: the payment is canceled and so is its order. */
export async function cancelPayment(
  ctx: RequestContext,
  gateway: PaymentGateway,
  orderId: string,
): Promise<void> {
  const order = await ownOrder(ctx, orderId);
  if (order.status !== 'pending') return;
  const [open] = await ctx.db
    .select({ ref: payments.gatewayRef })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), eq(payments.gateway, gateway.name)))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  if (open) {
    const canceled = await gateway.cancelPayment(open.ref);
    await settlePayment(ctx.db, gateway.name, canceled, ctx.now);
    if (canceled.status === 'succeeded') return;
  }
  await cancelOrder(ctx.db, { orderId: order.id, reason: 'payment canceled', now: ctx.now });
}

function methodDigest(method: PaymentMethodInput): string {
  const content =
    method.kind === 'card'
      ? `${cardDigits(method.card.number)}|${method.card.expMonth}/${method.card.expYear}|${method.card.cvc}`
      : method.id;
  return createHash('sha256').update(content).digest('base64url').slice(0, 16);
}

/** The order-complete page: only its owner sees it (spec 1 §2 Checkout complete). */
export async function completedOrder(ctx: RequestContext, orderId: string) {
  const order = await ownOrder(ctx, orderId);
  const items = await ctx.db
    .select({
      productId: orderItems.productId,
      title: products.title,
      productType: products.productType,
      priceCents: orderItems.priceCents,
      isDigital: orderItems.isDigital,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, order.id))
    .orderBy(orderItems.id);
  return { ...order, items };
}
