import { and, eq, gte, inArray, isNull, lte, ne, notInArray, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { accessCodes } from '#db/schema/access.ts';
import { orderItems, orders, payments, printOrders, shipments } from '#db/schema/commerce.ts';
import { refunds } from '#db/schema/refunds.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import { enqueue } from '#domain/notifications/outbox.ts';
import type { Clock } from '#domain/shared/clock.ts';
import { Conflict } from '#domain/shared/errors.ts';
import { endLineAccess } from './access-after-refund.ts';
import { settlePayment } from './checkout.ts';
import {
  DUPLICATE_WINDOW_MS,
  INTERRUPTED_PAYMENT,
  laterOf,
  linesKey,
  RECONCILE_FIRST_MS,
  reconcileDelayMs,
  repeatsOrder,
} from './duplicate-charge.ts';
import { orderNumber } from './order-number.ts';
import { cancelOrder, moveOrder } from './orders.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { returnStock } from './stock.ts';

// Exactly-once money across crashes (issue 37). A process killed between the gateway's charge
// and the order's update leaves an order pending whose payment went through. The store asks
// the gateway about such payments at start and then every few seconds (reconcilePayments): a
// charge that succeeded settles its order, a canceled one releases it and its stock, and a
// charge that succeeded for an order that no longer wants it (canceled, or paid by another
// charge) is refunded. A second paid order of the same lines within minutes, which the
// checkout's own guard (placeOrder reuses the pending order) should never let happen, is
// refunded too (refundDuplicateOrders). Every refund is mailed to the buyer and recorded on the
// order's history for staff.

/** The payment states in which the gateway may still change its mind. */
const OPEN_STATUSES = ['requires_payment_method', 'requires_action', 'processing'] as const;

export type RecoveryReport = {
  /** Orders paid by a charge nobody had recorded yet. */
  settled: string[];
  /** Pending orders whose payment the gateway canceled: released with their stock. */
  released: string[];
  /** Charges given back: a duplicate order, or money for an order that no longer wanted it. */
  refunded: { orderId: string; ref: string; reason: RefundReason }[];
  /** Payments the gateway could not be asked about this time (asked again next round). */
  unreachable: number;
};

export type RefundReason = 'duplicate' | 'not-pending';

/**
 * Asks the gateway about payments still open on our side and records what it says. `userId`
 * limits it to one buyer (their cart or checkout page, asked at once); `everything` asks about
 * every open payment regardless of when it was last heard of (at start, after a crash).
 * Otherwise a payment is asked about once reconcileDelayMs has passed since its last news.
 * Which payments are due is decided as of the clock's first reading; what each answer settles
 * is stamped with a reading taken as that answer came (decision 041).
 */
export async function reconcilePayments(
  db: Queryable,
  gateway: PaymentGateway,
  clock: Clock,
  options: { userId?: number; everything?: boolean; limit?: number } = {},
): Promise<RecoveryReport> {
  const now = clock();
  const report: RecoveryReport = { settled: [], released: [], refunded: [], unreachable: 0 };
  const candidates = await db
    .select({
      orderId: orders.id,
      orderStatus: orders.status,
      orderCreatedAt: orders.createdAt,
      ref: payments.gatewayRef,
      updatedAt: payments.updatedAt,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(
      and(
        eq(payments.gateway, gateway.name),
        inArray(payments.status, [...OPEN_STATUSES]),
        options.userId === undefined ? undefined : eq(orders.userId, options.userId),
        options.everything || options.userId !== undefined
          ? undefined
          : lte(payments.updatedAt, new Date(now.getTime() - RECONCILE_FIRST_MS)),
      ),
    )
    .orderBy(payments.updatedAt)
    .limit(options.limit ?? 200);
  for (const candidate of candidates) {
    const age = now.getTime() - candidate.orderCreatedAt.getTime();
    const quiet = now.getTime() - candidate.updatedAt.getTime();
    if (!options.everything && options.userId === undefined && quiet < reconcileDelayMs(age)) {
      continue;
    }
    // One payment the gateway cannot answer about (or refund) now is asked again next round;
    // it never stops the others, nor the buyer's cart page that asked.
    try {
      await reconcileOne(db, gateway, candidate, clock, report);
    } catch {
      report.unreachable += 1;
    }
  }
  return report;
}

/** What the gateway says of one open payment, recorded (reconcilePayments). */
async function reconcileOne(
  db: Queryable,
  gateway: PaymentGateway,
  candidate: { orderId: string; orderStatus: string; ref: string },
  clock: Clock,
  report: RecoveryReport,
): Promise<void> {
  const payment = await gateway.retrievePayment(candidate.ref);
  // The gateway's answer is in hand: what it settles happened by now (decision 041).
  const now = clock();
  // A charge the order does not want (canceled, paid by another charge, a wrong amount) is
  // given back, never kept.
  const giveBack = async () => {
    await refundCharge(db, gateway, {
      orderId: candidate.orderId,
      ref: candidate.ref,
      reason: 'not-pending',
      duplicateOf: null,
      now,
    });
    report.refunded.push({ orderId: candidate.orderId, ref: candidate.ref, reason: 'not-pending' });
  };
  if (candidate.orderStatus !== 'pending') {
    if (payment.status === 'succeeded') return giveBack();
    const canceled =
      payment.status === 'canceled' ? payment : await gateway.cancelPayment(candidate.ref);
    await settlePayment(db, gateway.name, canceled, payment === canceled ? now : clock());
    return;
  }
  try {
    await settlePayment(db, gateway.name, payment, now, INTERRUPTED_PAYMENT);
  } catch (error) {
    if (!(error instanceof Conflict) || payment.status !== 'succeeded') throw error;
    return giveBack();
  }
  if (payment.status === 'succeeded') {
    report.settled.push(candidate.orderId);
  } else if (payment.status === 'canceled') {
    if (await releaseOrderWithoutLivePayment(db, candidate.orderId, now)) {
      report.released.push(candidate.orderId);
    }
  } else {
    // Heard of now: the next question waits its delay again.
    await db
      .update(payments)
      .set({ updatedAt: now })
      .where(and(eq(payments.gateway, gateway.name), eq(payments.gatewayRef, candidate.ref)));
  }
}

/**
 * The gateway canceled the order's payment: the order is canceled too (its stock put back)
 * while it is still pending and no other payment of it succeeded or is still open (the
 * shopper may have started a new attempt). True when it was.
 */
export async function releaseOrderWithoutLivePayment(
  db: Queryable,
  orderId: string,
  now: Date,
): Promise<boolean> {
  const [live] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(eq(payments.orderId, orderId), notInArray(payments.status, ['canceled', 'refunded'])),
    )
    .limit(1);
  if (live) return false;
  return cancelOrder(db, { orderId, reason: 'payment canceled', now });
}

/**
 * Refunds the later of two paid orders of the same lines by the same buyer within
 * DUPLICATE_WINDOW_MS, for orders paid through this gateway since `now` minus twice the window.
 */
export async function refundDuplicateOrders(
  db: Queryable,
  gateway: PaymentGateway,
  now: Date,
  options: { userId?: number } = {},
): Promise<RecoveryReport['refunded']> {
  const since = new Date(now.getTime() - 2 * DUPLICATE_WINDOW_MS);
  // Buyers with two orders paid in the span: the only ones who can have a duplicate.
  const paid = await db
    .select({
      id: orders.id,
      userId: orders.userId,
      paidAt: orders.paidAt,
      createdAt: orders.createdAt,
      offeringIds: sql<number[]>`array_agg(${orderItems.offeringId})`,
      // Lines refunded or on their way back (issue 39): the order is no longer what was paid.
      givenBack: sql<number>`count(${refunds.id})::int`,
    })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .leftJoin(
      refunds,
      and(
        eq(refunds.orderItemId, orderItems.id),
        inArray(refunds.status, ['approved', 'refunded']),
      ),
    )
    .where(
      and(
        inArray(orders.status, ['paid', 'fulfilled']),
        gte(orders.paidAt, since),
        options.userId === undefined ? undefined : eq(orders.userId, options.userId),
        sql`${orders.userId} in (select user_id from orders where status in ('paid', 'fulfilled') and paid_at >= ${since} group by user_id having count(*) > 1)`,
      ),
    )
    .groupBy(orders.id);
  const facts = paid.flatMap((order) =>
    order.paidAt
      ? [
          {
            id: order.id,
            userId: order.userId,
            paidAt: order.paidAt,
            createdAt: order.createdAt,
            lines: linesKey(order.offeringIds.map(Number)),
            kept: Number(order.givenBack) === 0,
          },
        ]
      : [],
  );
  const refunded: RecoveryReport['refunded'] = [];
  const done = new Set<string>();
  for (const first of facts) {
    for (const second of facts) {
      if (!repeatsOrder(first, second)) continue;
      const later = laterOf(first, second);
      const earlier = later === first ? second : first;
      if (done.has(later.id) || done.has(earlier.id)) continue;
      const [charge] = await db
        .select({ ref: payments.gatewayRef })
        .from(payments)
        .where(
          and(
            eq(payments.orderId, later.id),
            eq(payments.gateway, gateway.name),
            eq(payments.status, 'succeeded'),
          ),
        )
        .limit(1);
      if (!charge) continue;
      await refundCharge(db, gateway, {
        orderId: later.id,
        ref: charge.ref,
        reason: 'duplicate',
        duplicateOf: earlier.id,
        now,
      });
      done.add(later.id);
      refunded.push({ orderId: later.id, ref: charge.ref, reason: 'duplicate' });
    }
  }
  return refunded;
}

/**
 * Gives a charge back at the gateway, then records it in one transaction: the payment
 * refunded, the order (if this charge paid it) refunded with what it gave moved to the order
 * it repeats or taken back (stock, shipments and prints not yet sent), and a mail to the
 * buyer. The gateway's refund is idempotent: a crash between the two refunds nothing twice,
 * and the next round records it.
 */
async function refundCharge(
  db: Queryable,
  gateway: PaymentGateway,
  input: {
    orderId: string;
    ref: string;
    reason: RefundReason;
    duplicateOf: string | null;
    now: Date;
  },
): Promise<void> {
  await gateway.refundPayment(input.ref);
  let buyer: number | null = null;
  await db.transaction(async (tx) => {
    const [order] = await tx
      .select({ status: orders.status, userId: orders.userId })
      .from(orders)
      .where(eq(orders.id, input.orderId))
      .for('update')
      .limit(1);
    if (!order) return;
    const [payment] = await tx
      .update(payments)
      .set({ status: 'refunded', failure: null, updatedAt: input.now })
      .where(
        and(
          eq(payments.gateway, gateway.name),
          eq(payments.gatewayRef, input.ref),
          ne(payments.status, 'refunded'),
        ),
      )
      .returning({ id: payments.id });
    if (!payment) return;
    if (input.duplicateOf && (order.status === 'paid' || order.status === 'fulfilled')) {
      await moveOrder(tx, {
        orderId: input.orderId,
        from: order.status,
        to: 'refunded',
        reason: `duplicate of order ${orderNumber(input.duplicateOf)}`,
        now: input.now,
      });
      // What the duplicate gave is the first order's, the same books on the same shelf — while
      // the buyer keeps that order (one rule with a line's refund, access-after-refund.ts).
      const held = await tx
        .select({ userId: ownerships.userId, productId: ownerships.productId })
        .from(ownerships)
        .where(and(eq(ownerships.orderId, input.orderId), isNull(ownerships.revokedAt)));
      for (const ownership of held) {
        await endLineAccess(tx, { ...ownership, orderId: input.orderId, now: input.now });
      }
      buyer = order.userId;
      await tx
        .update(accessCodes)
        .set({ orderId: input.duplicateOf })
        .where(eq(accessCodes.orderId, input.orderId));
      await tx
        .delete(shipments)
        .where(and(eq(shipments.orderId, input.orderId), isNull(shipments.shippedAt)));
      await tx
        .delete(printOrders)
        .where(and(eq(printOrders.orderId, input.orderId), eq(printOrders.status, 'queued')));
      await returnStock(tx, input.orderId);
    }
    await enqueue(tx, {
      kind: 'payment-refund',
      dedupeKey: `payment-refund:${gateway.name}:${input.ref}`,
      payload: {
        orderId: input.orderId,
        ref: input.ref,
        gateway: gateway.name,
        reason: input.reason,
        duplicateOf: input.duplicateOf,
      },
      to: { userId: order.userId },
    });
  });
  // The duplicate's access went back to the first order or ended: this process forgets what
  // the buyer holds now, the others on the ownerships' notification (migration 0007).
  if (buyer !== null) forgetAccounts([buyer]);
}
