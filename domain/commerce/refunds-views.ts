import { and, asc, desc, eq, gte, inArray, notExists, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { products } from '#db/schema/catalog.ts';
import { orderItems, orders, payments } from '#db/schema/commerce.ts';
import { refunds } from '#db/schema/refunds.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { type AuditLine, auditTrail } from '#domain/operations/audit.ts';
import type { OrgScope } from '#domain/operations/staff-scope.ts';
import { inOrgScope } from '#domain/operations/staff-scope.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import { activeOwnership } from '#domain/shelf/ownership.ts';
import { orderDisplayFacts } from './order-display-facts.ts';
import { displayStatus, paymentState } from './order-display-status.ts';
import { orderNumber } from './order-number.ts';
import { type BuyerRefundOption, buyerRefundOption, refundPolicy } from './refund-policy.ts';
import { type RefundLine, refundLines, refundOrder } from './refunds-facts.ts';

// What the refund pages read (issue 39): the buyer's lines with what they may ask, the staff
// order page (lines, payments, refunds, audit) and the help desk's queue of requests. Staff
// reads are scoped like every campus tool: an order outside the scope is not found.

/** Products refunded to the user since `since` and not theirs again: what left the shelf. */
export async function refundedAccess(
  db: Queryable,
  userId: number,
  window: { since: Date; now: Date },
): Promise<{ productId: number; title: string; orderId: string; refundedAt: Date }[]> {
  const rows = await db
    .select({
      productId: orderItems.productId,
      title: products.title,
      orderId: refunds.orderId,
      refundedAt: sql<Date>`${refunds.refundedAt}`.mapWith(refunds.refundedAt),
    })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .innerJoin(orderItems, eq(orderItems.id, refunds.orderItemId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(
      and(
        eq(orders.userId, userId),
        eq(refunds.status, 'refunded'),
        gte(refunds.refundedAt, window.since),
        notExists(
          db
            .select({ id: ownerships.id })
            .from(ownerships)
            .where(
              and(
                eq(ownerships.userId, userId),
                eq(ownerships.productId, orderItems.productId),
                activeOwnership(window.now),
              ),
            ),
        ),
      ),
    )
    .orderBy(desc(refunds.refundedAt))
    .limit(20);
  return rows;
}

export type BuyerRefundLine = {
  orderItemId: number;
  title: string;
  priceCents: number;
  option: BuyerRefundOption;
  refund: RefundLine['refund'];
  accessCode: RefundLine['accessCode'];
};

/** The signed-in buyer's lines of their own order, each with what they may ask. */
export async function myOrderRefunds(
  ctx: RequestContext,
  orderId: string,
): Promise<BuyerRefundLine[]> {
  if (!ctx.user) throw new Forbidden();
  const order = await refundOrder(ctx.db, orderId);
  if (!order || order.userId !== ctx.user.id) throw new NotFound();
  return (await refundLines(ctx.db, order)).map((line) => ({
    orderItemId: line.orderItemId,
    title: line.title,
    priceCents: line.priceCents,
    option: buyerRefundOption(line.facts, ctx.now),
    refund: line.refund,
    accessCode: line.accessCode,
  }));
}

/** An order on the help desk: its buyer, lines (with the policy's word), payments and audit. */
export async function staffOrder(ctx: RequestContext, scope: OrgScope, orderId: string) {
  const order = await refundOrder(ctx.db, orderId);
  if (!order || !inOrgScope(scope, order.buyerOrgId)) throw new NotFound();
  const [[row], lines, paid, audit, facts] = await Promise.all([
    ctx.db
      .select({
        createdAt: orders.createdAt,
        subtotalCents: orders.subtotalCents,
        feeCents: orders.feeCents,
        shippingCents: orders.shippingCents,
        totalCents: orders.totalCents,
        buyerEmail: users.email,
        buyerFirstName: users.firstName,
        buyerLastName: users.lastName,
        orgTitle: organizations.title,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .leftJoin(organizations, eq(organizations.id, users.orgId))
      .where(eq(orders.id, order.id))
      .limit(1),
    refundLines(ctx.db, order),
    ctx.db
      .select({
        gateway: payments.gateway,
        status: payments.status,
        amountCents: payments.amountCents,
        cardBrand: payments.cardBrand,
        cardLast4: payments.cardLast4,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .where(eq(payments.orderId, order.id))
      .orderBy(asc(payments.createdAt)),
    auditTrail(ctx.db, 'order', order.id),
    orderDisplayFacts(ctx.db, [order.id]),
  ]);
  const { payments: paymentFacts, lineRefunds } = facts.get(order.id)!;
  const refundedCents = lines.reduce(
    (sum, line) => sum + (line.refund?.status === 'refunded' ? line.refund.amountCents : 0),
    0,
  );
  return {
    id: order.id,
    number: orderNumber(order.id),
    // The buyer's own pages' word for the order's state (refunds counted), one rule.
    status: displayStatus(
      { status: order.status, totalCents: row!.totalCents },
      paymentFacts,
      lineRefunds,
    ),
    placedAt: order.paidAt ?? row!.createdAt,
    buyer: {
      id: order.userId,
      name: `${row!.buyerFirstName} ${row!.buyerLastName}`.trim(),
      email: row!.buyerEmail,
      organization: row!.orgTitle ?? null,
    },
    amounts: {
      subtotalCents: row!.subtotalCents,
      feeCents: row!.feeCents,
      shippingCents: row!.shippingCents,
      totalCents: row!.totalCents,
      refundedCents,
    },
    lines: lines.map((line) => ({
      orderItemId: line.orderItemId,
      productId: line.productId,
      title: line.title,
      priceCents: line.priceCents,
      policy: refundPolicy(line.facts, ctx.now),
      refund: line.refund,
      accessCode: line.accessCode,
    })),
    payments: paid.map(({ cardBrand, cardLast4, ...payment }) => ({
      ...payment,
      card: cardBrand && cardLast4 ? { brand: cardBrand, last4: cardLast4 } : null,
      state: paymentState(payment, refundedCents),
    })),
    audit,
    actingAsNames: await actingAsNames(ctx.db, audit),
  };
}

async function actingAsNames(
  db: Queryable,
  audit: readonly AuditLine[],
): Promise<Record<number, string>> {
  const ids = [...new Set(audit.map((line) => line.actingAsUserId).filter((id) => id !== null))];
  if (ids.length === 0) return {};
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.id, ids as number[]));
  return Object.fromEntries(rows.map((row) => [row.id, row.email]));
}

export const QUEUE_SIZE = 100;

/** Buyers' requests waiting for support, oldest first, inside the staff member's scope. */
export async function refundRequestQueue(ctx: RequestContext, scope: OrgScope) {
  if (scope.kind === 'orgs' && scope.orgIds.length === 0) return [];
  const rows = await ctx.db
    .select({
      orderId: refunds.orderId,
      orderItemId: refunds.orderItemId,
      amountCents: refunds.amountCents,
      rule: refunds.rule,
      createdAt: refunds.createdAt,
      title: products.title,
      buyerEmail: users.email,
      orgId: users.orgId,
    })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(orderItems, eq(orderItems.id, refunds.orderItemId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(
      and(
        eq(refunds.status, 'requested'),
        scope.kind === 'orgs' ? inArray(users.orgId, [...scope.orgIds]) : undefined,
      ),
    )
    .orderBy(asc(refunds.createdAt), asc(refunds.orderItemId))
    .limit(QUEUE_SIZE);
  return rows.map(({ orgId: _org, ...row }) => ({ ...row, number: orderNumber(row.orderId) }));
}

export type StaffOrder = Awaited<ReturnType<typeof staffOrder>>;
export type RefundRequest = Awaited<ReturnType<typeof refundRequestQueue>>[number];
