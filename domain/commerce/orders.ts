import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import {
  cartItems,
  carts,
  orderItems,
  orders,
  orderTransitions,
  payments,
} from '#db/schema/commerce.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { assignAccessCode } from '#domain/access/codes.ts';
import { enqueue } from '#domain/notifications/outbox.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Forbidden, Invalid } from '#domain/shared/errors.ts';
import { cartLines, subtotalCents } from './cart.ts';
import { canMove, type OrderStatus } from './order-status.ts';

const IDEMPOTENCY_KEY = /^[\w-]{8,100}$/;
const DAY_MS = 86_400_000;

/**
 * A pending order for the logged-in user's cart (issue 4). The browser makes one idempotency
 * key per checkout: a double click, a refresh or a retried request with the same key gets
 * the same order back — the unique index (user, key) decides, not a read before the write.
 */
export async function placeOrder(
  ctx: RequestContext,
  input: { idempotencyKey: string; courseSectionId?: number | null },
): Promise<{ orderId: string; created: boolean }> {
  const user = ctx.user;
  if (!user) throw new Forbidden();
  if (!IDEMPOTENCY_KEY.test(input.idempotencyKey)) throw new Invalid('checkout.error.key');
  return ctx.db.transaction(async (tx) => {
    const existing = await orderFor(tx, user.id, input.idempotencyKey);
    if (existing) return { orderId: existing, created: false };
    const lines = await cartLines(tx, { userId: user.id });
    if (lines.length === 0) throw new Invalid('checkout.error.emptyCart');
    const subtotal = subtotalCents(lines);
    const [order] = await tx
      .insert(orders)
      .values({
        userId: user.id,
        idempotencyKey: input.idempotencyKey,
        courseSectionId: input.courseSectionId ?? null,
        subtotalCents: subtotal,
        feeCents: 0,
        totalCents: subtotal,
      })
      .onConflictDoNothing()
      .returning({ id: orders.id });
    if (!order) {
      // Another request with the same key won the race: its order is the one.
      const winner = await orderFor(tx, user.id, input.idempotencyKey);
      if (!winner) throw new Conflict('checkout.error.retry');
      return { orderId: winner, created: false };
    }
    await tx.insert(orderItems).values(
      lines.map((line) => ({
        orderId: order.id,
        productId: line.productId,
        offeringId: line.offeringId,
        priceCents: line.priceCents,
        isDigital: line.isDigital,
        isPrint: line.isPrint,
      })),
    );
    await tx.insert(orderTransitions).values({ orderId: order.id, toStatus: 'pending' });
    return { orderId: order.id, created: true };
  });
}

async function orderFor(db: Queryable, userId: number, key: string): Promise<string | null> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)))
    .limit(1);
  return row?.id ?? null;
}

/** Moves an order if it is still where the caller thinks, recording the move; else false. */
export async function moveOrder(
  db: Queryable,
  input: { orderId: string; from: OrderStatus; to: OrderStatus; reason?: string; now: Date },
): Promise<boolean> {
  if (!canMove(input.from, input.to)) return false;
  const moved = await db
    .update(orders)
    .set({ status: input.to, ...(input.to === 'paid' ? { paidAt: input.now } : {}) })
    .where(and(eq(orders.id, input.orderId), eq(orders.status, input.from)))
    .returning({ id: orders.id });
  if (moved.length === 0) return false;
  await db.insert(orderTransitions).values({
    orderId: input.orderId,
    fromStatus: input.from,
    toStatus: input.to,
    reason: input.reason ?? null,
    at: input.now,
  });
  return true;
}

/**
 * A gateway says the order's payment succeeded. Once per payment reference: the same
 * confirmation delivered again (a webhook retry, a refresh) finds the payment recorded and
 * changes nothing. In one transaction: the payment, pending → paid, the digital items owned
 * for their duration, their cart lines gone, and → fulfilled when nothing is left to ship.
 */
export async function recordSuccessfulPayment(
  db: Queryable,
  input: {
    orderId: string;
    gateway: 'test' | 'stripe';
    gatewayRef: string;
    amountCents: number;
    now: Date;
  },
): Promise<'paid' | 'already recorded'> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ userId: orders.userId, totalCents: orders.totalCents, status: orders.status })
      .from(orders)
      .where(eq(orders.id, input.orderId))
      .limit(1);
    if (!order) throw new Invalid('checkout.error.order');
    const [payment] = await tx
      .insert(payments)
      .values({
        orderId: input.orderId,
        gateway: input.gateway,
        gatewayRef: input.gatewayRef,
        status: 'succeeded',
        amountCents: input.amountCents,
      })
      .onConflictDoNothing()
      .returning({ id: payments.id });
    if (!payment) {
      // Either this very payment was recorded before (a retry), or the order already has
      // another successful one: a second charge the caller must refund, never a second sale.
      const [same] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.gateway, input.gateway), eq(payments.gatewayRef, input.gatewayRef)))
        .limit(1);
      if (same) return 'already recorded';
      throw new Conflict('checkout.error.notPending');
    }
    if (input.amountCents !== order.totalCents) throw new Conflict('checkout.error.amount');
    if (
      !(await moveOrder(tx, {
        orderId: input.orderId,
        from: 'pending',
        to: 'paid',
        now: input.now,
      }))
    ) {
      throw new Conflict('checkout.error.notPending');
    }
    const items = await tx
      .select({
        productId: orderItems.productId,
        isDigital: orderItems.isDigital,
        isPrint: orderItems.isPrint,
        durationDays: offerings.durationDays,
        productType: products.productType,
      })
      .from(orderItems)
      .innerJoin(offerings, eq(offerings.id, orderItems.offeringId))
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(eq(orderItems.orderId, input.orderId));
    const digital = items.filter((item) => item.isDigital);
    if (digital.length > 0) {
      await tx
        .insert(ownerships)
        .values(
          digital.map((item) => ({
            userId: order.userId,
            productId: item.productId,
            source: 'purchase',
            orderId: input.orderId,
            startsAt: input.now,
            expiresAt: item.durationDays
              ? new Date(input.now.getTime() + item.durationDays * DAY_MS)
              : null,
          })),
        )
        .onConflictDoNothing();
      // Courseware comes with an access code from its pool.
      for (const item of digital.filter((i) => i.productType === 'courseware')) {
        await assignAccessCode(tx, {
          productId: item.productId,
          userId: order.userId,
          orderId: input.orderId,
          now: input.now,
        });
      }
    }
    const [cart] = await tx
      .select({ id: carts.id })
      .from(carts)
      .where(eq(carts.userId, order.userId))
      .limit(1);
    if (cart) {
      await tx.delete(cartItems).where(
        and(
          eq(cartItems.cartId, cart.id),
          inArray(
            cartItems.productId,
            items.map((item) => item.productId),
          ),
        ),
      );
    }
    // The confirmation e-mail leaves with this transaction or not at all (outbox).
    await enqueue(tx, {
      kind: 'order-confirmation',
      dedupeKey: `order-confirmation:${input.orderId}`,
      payload: { orderId: input.orderId },
    });
    if (items.every((item) => !item.isPrint)) {
      await moveOrder(tx, {
        orderId: input.orderId,
        from: 'paid',
        to: 'fulfilled',
        now: input.now,
      });
    }
    return 'paid';
  });
}
