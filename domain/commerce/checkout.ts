import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { products } from '#db/schema/catalog.ts';
import { orderItems, orders, payments } from '#db/schema/commerce.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid, NotFound } from '#domain/shared/errors.ts';
import type { CartLine } from './cart.ts';
import { recordSuccessfulPayment } from './orders.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { type CardInput, cardDigits } from './test-card.ts';

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

export type PaymentOutcome = { ok: true } | { ok: false; reason: string };

/** Pays the user's pending order by card; a paid order (a refresh) is simply paid. */
export async function payOrder(
  ctx: RequestContext,
  gateway: PaymentGateway,
  input: { orderId: string; card: CardInput },
): Promise<PaymentOutcome> {
  const order = await ownOrder(ctx, input.orderId);
  if (order.status === 'paid' || order.status === 'fulfilled') return { ok: true };
  if (order.status !== 'pending') throw new Invalid('checkout.error.notPending');
  if (order.totalCents < MINIMUM_CHARGE_CENTS) throw new Invalid('checkout.error.minimum');
  const digits = cardDigits(input.card.number);
  const result = await gateway.charge({
    amountCents: order.totalCents,
    currencyCode: 'USD',
    card: input.card,
    idempotencyKey: `${order.id}:${digits.slice(-4)}:${input.card.expMonth}/${input.card.expYear}`,
    now: ctx.now,
  });
  if (result.status === 'succeeded') {
    await recordSuccessfulPayment(ctx.db, {
      orderId: order.id,
      gateway: gateway.name,
      gatewayRef: result.ref,
      amountCents: order.totalCents,
      now: ctx.now,
    });
    return { ok: true };
  }
  await ctx.db
    .insert(payments)
    .values({
      orderId: order.id,
      gateway: gateway.name,
      gatewayRef: result.ref,
      status: result.status === 'failed' ? 'failed' : 'requires_confirmation',
      amountCents: order.totalCents,
    })
    .onConflictDoNothing();
  return { ok: false, reason: result.status === 'failed' ? result.reason : 'requires_action' };
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
