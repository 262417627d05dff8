import { and, asc, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { orderItems, orders, payments, shipments } from '#db/schema/commerce.ts';
import { refunds } from '#db/schema/refunds.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import { enqueue } from '#domain/notifications/outbox.ts';
import { endLineAccess } from './access-after-refund.ts';
import type { PaymentGateway } from './payment-gateway.ts';

// Money out exactly once (decision 033, applied to a line's refund in decision 038): the refund
// row is the intent, written ('approved') before the gateway is asked; the gateway is asked with
// the row's own idempotency key; what the refund changes is written in one transaction after
// the gateway said yes, by a conditional update that only one caller can win. A crash between
// the gateway and that transaction leaves the row 'approved': the order sweeper asks again
// (recoverRefunds) with the same key, and the gateway answers with the same refund.

export const LINE_REFUND_MAIL = 'line-refund';

/** An approved refund is left to its own request for this long before the sweeper takes it. */
export const RECOVER_AFTER_MS = 30_000;

export type SettleOutcome =
  | { kind: 'refunded'; amountCents: number }
  /** The gateway did not answer (or refused): the refund stays approved, asked again later. */
  | { kind: 'processing' };

/**
 * Asks the gateway for an approved refund and records it: the line's access ends on the shelf
 * (its ownership revoked; the shelf says why from the refund), the access code the line
 * delivered works no more, stock and the sales figure move back, unsent parcels of the line are
 * dropped, and the buyer is mailed in their language.
 */
export async function settleRefund(
  db: Queryable,
  gateway: PaymentGateway,
  refundId: string,
  now: Date,
): Promise<SettleOutcome> {
  const [row] = await db
    .select({
      status: refunds.status,
      amountCents: refunds.amountCents,
      idempotencyKey: refunds.idempotencyKey,
      orderId: refunds.orderId,
      orderItemId: refunds.orderItemId,
      userId: orders.userId,
      productId: orderItems.productId,
    })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .innerJoin(orderItems, eq(orderItems.id, refunds.orderItemId))
    .where(eq(refunds.id, refundId))
    .limit(1);
  if (!row) return { kind: 'processing' };
  if (row.status === 'refunded') return { kind: 'refunded', amountCents: row.amountCents };
  if (row.status !== 'approved') return { kind: 'processing' };
  const [payment] = await db
    .select({ gateway: payments.gateway, ref: payments.gatewayRef })
    .from(payments)
    .where(and(eq(payments.orderId, row.orderId), eq(payments.status, 'succeeded')))
    .limit(1);
  // A charge taken by another gateway than this process's is left to a process that has it.
  if (!payment || payment.gateway !== gateway.name) return { kind: 'processing' };
  let refundRef: string;
  try {
    ({ refundRef } = await gateway.refundAmount({
      ref: payment.ref,
      amountCents: row.amountCents,
      idempotencyKey: row.idempotencyKey,
    }));
  } catch {
    return { kind: 'processing' };
  }
  await db.transaction(async (tx) => {
    const [settled] = await tx
      .update(refunds)
      .set({
        status: 'refunded',
        gateway: gateway.name,
        gatewayRefundRef: refundRef,
        refundedAt: now,
      })
      .where(and(eq(refunds.id, refundId), eq(refunds.status, 'approved')))
      .returning({ id: refunds.id });
    // Another caller recorded it first: the same refund, recorded once.
    if (!settled) return;
    await endLineAccess(tx, {
      userId: row.userId,
      productId: row.productId,
      orderId: row.orderId,
      now,
    });
    const [stocked] = await tx
      .update(orderItems)
      .set({ tookStock: false })
      .where(and(eq(orderItems.id, row.orderItemId), eq(orderItems.tookStock, true)))
      .returning({ offeringId: orderItems.offeringId });
    if (stocked) {
      await tx
        .update(offerings)
        .set({ stock: sql`${offerings.stock} + 1` })
        .where(and(eq(offerings.id, stocked.offeringId), isNotNull(offerings.stock)));
    }
    await tx
      .delete(shipments)
      .where(and(eq(shipments.orderItemId, row.orderItemId), isNull(shipments.shippedAt)));
    // Best Sellers count units sold: this one no longer is (sales-counter.ts).
    await tx
      .update(products)
      .set({ salesCount: sql`greatest(${products.salesCount} - 1, 0)` })
      .where(eq(products.id, row.productId));
    await enqueue(tx, {
      kind: LINE_REFUND_MAIL,
      dedupeKey: `${LINE_REFUND_MAIL}:${refundId}`,
      payload: { refundId },
      to: { userId: row.userId },
    });
  });
  // What the buyer holds changed: this process forgets it now, the others on the ownerships'
  // notification (migration 0007).
  forgetAccounts([row.userId]);
  return { kind: 'refunded', amountCents: row.amountCents };
}

/** Refunds a crash (or an unanswering gateway) left approved: asked again with the same key. */
export async function recoverRefunds(
  db: Queryable,
  gateway: PaymentGateway,
  now: Date,
  limit = 20,
): Promise<string[]> {
  const due = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(
      and(
        eq(refunds.status, 'approved'),
        lt(refunds.decidedAt, new Date(now.getTime() - RECOVER_AFTER_MS)),
      ),
    )
    .orderBy(asc(refunds.decidedAt))
    .limit(limit);
  const settled: string[] = [];
  for (const { id } of due) {
    if ((await settleRefund(db, gateway, id, now)).kind === 'refunded') settled.push(id);
  }
  return settled;
}
