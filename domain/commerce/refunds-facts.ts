import { and, asc, eq, gte, inArray, isNotNull } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { accessCodes } from '#db/schema/access.ts';
import { users } from '#db/schema/accounts.ts';
import { bookFiles, offerings, products } from '#db/schema/catalog.ts';
import { orderItems, orders, payments } from '#db/schema/commerce.ts';
import { ltiLaunches } from '#db/schema/launch.ts';
import { bookFileMetrics, readingEvents } from '#db/schema/reading.ts';
import { refunds } from '#db/schema/refunds.ts';
import type { OrderStatus } from './order-status.ts';
import { type RefundLineFacts, readShare } from './refund-policy.ts';

// What the Refund Policy (refund-policy.ts) looks at for each line of one order, loaded in the
// caller's transaction: the order and its paying charge, each line's offering and refund, and
// what the buyer did with it since paying (pages turned, a code delivered, courseware launched).

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type RefundOrder = {
  id: string;
  userId: number;
  buyerOrgId: number | null;
  status: OrderStatus;
  paidAt: Date | null;
  currencyCode: string;
  /** The charge that paid it (gateway and its payment id), if one succeeded. */
  payment: { gateway: string; ref: string } | null;
};

export type RefundLine = {
  orderItemId: number;
  productId: number;
  title: string;
  priceCents: number;
  offeringType: string;
  facts: RefundLineFacts;
  refund: {
    id: string;
    status: NonNullable<RefundLineFacts['refundStatus']>;
    rule: string | null;
    reason: string | null;
    amountCents: number;
    createdAt: Date;
    refundedAt: Date | null;
  } | null /**
   * The access code this order handed out for the line (courseware), by its last four
   * characters; revoked once the line was refunded (refunds-settle.ts).
   */;
  accessCode: { last4: string; revoked: boolean } | null;
};

/** The order (null when it does not exist), locked for the caller's transaction when asked. */
export async function refundOrder(
  db: Queryable,
  orderId: string,
  options: { lock?: boolean } = {},
): Promise<RefundOrder | null> {
  if (!UUID.test(orderId)) return null;
  const query = db
    .select({
      id: orders.id,
      userId: orders.userId,
      buyerOrgId: users.orgId,
      status: orders.status,
      paidAt: orders.paidAt,
      currencyCode: orders.currencyCode,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId))
    .limit(1);
  const [row] = options.lock ? await query.for('update', { of: orders }) : await query;
  if (!row) return null;
  const [paid] = await db
    .select({ gateway: payments.gateway, ref: payments.gatewayRef })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'succeeded')))
    .limit(1);
  return { ...row, status: row.status as OrderStatus, payment: paid ?? null };
}

/** Each line of the order with the policy's facts, in the order's own order. */
export async function refundLines(db: Queryable, order: RefundOrder): Promise<RefundLine[]> {
  const lines = await db
    .select({
      orderItemId: orderItems.id,
      productId: orderItems.productId,
      title: products.title,
      priceCents: orderItems.priceCents,
      offeringType: offerings.type,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .innerJoin(offerings, eq(offerings.id, orderItems.offeringId))
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.id));
  if (lines.length === 0) return [];
  const productIds = [...new Set(lines.map((line) => line.productId))];
  const since = order.paidAt ?? new Date(0);
  const [made, pages, metrics, codes, launches] = await Promise.all([
    db
      .select({
        id: refunds.id,
        orderItemId: refunds.orderItemId,
        status: refunds.status,
        rule: refunds.rule,
        reason: refunds.reason,
        amountCents: refunds.amountCents,
        createdAt: refunds.createdAt,
        refundedAt: refunds.refundedAt,
      })
      .from(refunds)
      .where(eq(refunds.orderId, order.id)),
    // Pages turned since the purchase (reading before it, a sample, is not this purchase's).
    db
      .select({ productId: readingEvents.productId, part: readingEvents.part })
      .from(readingEvents)
      .where(
        and(
          eq(readingEvents.userId, order.userId),
          inArray(readingEvents.productId, productIds),
          eq(readingEvents.kind, 'page'),
          isNotNull(readingEvents.part),
          gte(readingEvents.occurredAt, since),
        ),
      ),
    db
      .select({ productId: bookFiles.productId, partLengths: bookFileMetrics.partLengths })
      .from(bookFiles)
      .innerJoin(bookFileMetrics, eq(bookFileMetrics.bookFileId, bookFiles.id))
      .where(and(inArray(bookFiles.productId, productIds), eq(bookFiles.type, 'READER'))),
    db
      .select({
        productId: accessCodes.productId,
        code: accessCodes.code,
        revokedAt: accessCodes.revokedAt,
      })
      .from(accessCodes)
      .where(and(eq(accessCodes.orderId, order.id), isNotNull(accessCodes.assignedUserId))),
    db
      .select({ productId: ltiLaunches.productId })
      .from(ltiLaunches)
      .where(
        and(
          eq(ltiLaunches.userId, order.userId),
          inArray(ltiLaunches.productId, productIds),
          eq(ltiLaunches.outcome, 'launched'),
          gte(ltiLaunches.createdAt, since),
        ),
      ),
  ]);
  return lines.map((line) => {
    const refund = made.find((row) => row.orderItemId === line.orderItemId) ?? null;
    const status = (refund?.status ?? null) as RefundLineFacts['refundStatus'];
    const code = codes.find((c) => c.productId === line.productId) ?? null;
    return {
      ...line,
      refund: refund ? { ...refund, status: status! } : null,
      accessCode: code ? { last4: code.code.slice(-4), revoked: code.revokedAt !== null } : null,
      facts: {
        orderStatus: order.status,
        // Paid means a charge that succeeded: nothing else can be given back.
        paidAt: order.payment ? order.paidAt : null,
        priceCents: line.priceCents,
        offeringType: line.offeringType,
        refundStatus: status,
        readShare: readShare({
          partLengths: metrics.find((m) => m.productId === line.productId)?.partLengths ?? null,
          partsOpened: pages
            .filter((page) => page.productId === line.productId)
            .map((page) => page.part!),
        }),
        codeDelivered: codes.some((code) => code.productId === line.productId),
        launched: launches.some((launch) => launch.productId === line.productId),
      },
    };
  });
}
