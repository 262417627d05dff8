import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { accessCodes } from '#db/schema/access.ts';
import { offerings } from '#db/schema/catalog.ts';
import { orderItems, orders } from '#db/schema/commerce.ts';
import { refunds } from '#db/schema/refunds.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { keptAccess } from './kept-access.ts';

/**
 * A line of `orderId` was given back (its refund recorded, or the order's whole payment
 * refunded as a duplicate, in the caller's transaction): the access it gave the buyer to the
 * title ends, unless another line of theirs for it is paid and kept (keptAccess) — then the
 * ownership stays, now that order's, for as long as that order gives.
 */
export async function endLineAccess(
  tx: Queryable,
  input: { userId: number; productId: number; orderId: string; now: Date },
): Promise<void> {
  const others = await tx
    .select({
      orderId: orders.id,
      orderStatus: orders.status,
      paidAt: orders.paidAt,
      offeringType: offerings.type,
      durationDays: offerings.durationDays,
      refundStatus: refunds.status,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(offerings, eq(offerings.id, orderItems.offeringId))
    .leftJoin(refunds, eq(refunds.orderItemId, orderItems.id))
    .where(
      and(
        eq(orders.userId, input.userId),
        eq(orderItems.productId, input.productId),
        ne(orders.id, input.orderId),
      ),
    );
  const kept = keptAccess(others, input.now);
  const held = and(
    eq(ownerships.orderId, input.orderId),
    eq(ownerships.userId, input.userId),
    eq(ownerships.productId, input.productId),
    isNull(ownerships.revokedAt),
  );
  // The courseware's access code this order handed out (orders.ts, assignAccessCode) follows
  // the access: to the order that keeps it, or revoked with it — never shown or given again,
  // nor back in the pool for someone else (it was seen).
  const code = and(
    eq(accessCodes.orderId, input.orderId),
    eq(accessCodes.productId, input.productId),
    eq(accessCodes.assignedUserId, input.userId),
    isNull(accessCodes.revokedAt),
  );
  if (kept) {
    await tx
      .update(ownerships)
      .set({ orderId: kept.orderId, source: 'purchase', expiresAt: kept.expiresAt })
      .where(held);
    await tx.update(accessCodes).set({ orderId: kept.orderId }).where(code);
  } else {
    await tx.update(ownerships).set({ revokedAt: input.now, revokedReason: 'refund' }).where(held);
    await tx.update(accessCodes).set({ revokedAt: input.now }).where(code);
  }
}
