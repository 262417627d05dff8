import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { users } from '#db/schema/accounts.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { orderItems, orders } from '#db/schema/commerce.ts';
import { organizations } from '#db/schema/sites.ts';
import { pageWindow } from '#domain/catalog/pagination.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import { shippingCents } from './fulfilment-rules.ts';
import { orderDisplayFacts } from './order-display-facts.ts';
import { displayStatus, refundsOf } from './order-display-status.ts';
import { orderNumber } from './order-number.ts';
import type { OrderStatus } from './order-status.ts';
import { receiptAmounts } from './receipt-amounts.ts';
import { shippingAddressLines } from './shipping-address.ts';

// My Account → Orders and each order's receipt (issue 20, "Orders and receipts"): the signed-in
// user's own orders only; another user's order reads as not found, like one that does not exist.

export const ORDERS_PAGE_SIZE = 10;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function signedIn(ctx: RequestContext) {
  if (!ctx.user) throw new Forbidden();
  return ctx.user;
}

type OrderRow = {
  id: string;
  status: string;
  feeCents: number;
  shippingCents: number;
  totalCents: number;
  currencyCode: string;
  createdAt: Date;
  paidAt: Date | null;
};

/** Lines, payments, amounts and state of the given orders, in their order. */
async function describeOrders(ctx: RequestContext, rows: readonly OrderRow[]) {
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const [lines, facts] = await Promise.all([
    ctx.db
      .select({
        orderId: orderItems.orderId,
        productId: orderItems.productId,
        title: products.title,
        priceCents: orderItems.priceCents,
        term: {
          productType: products.productType,
          type: offerings.type,
          durationDays: offerings.durationDays,
          isRental: offerings.isRental,
        },
      })
      .from(orderItems)
      .innerJoin(products, eq(products.id, orderItems.productId))
      .innerJoin(offerings, eq(offerings.id, orderItems.offeringId))
      .where(inArray(orderItems.orderId, ids))
      .orderBy(orderItems.id),
    orderDisplayFacts(ctx.db, ids),
  ]);
  return rows.map((row) => {
    const items = lines.filter((line) => line.orderId === row.id);
    const { payments: attempts, lineRefunds: linesBack } = facts.get(row.id)!;
    // The card that paid, or the one that was refunded (it paid first).
    const card = attempts.find(
      (payment) =>
        (payment.status === 'succeeded' || payment.status === 'refunded') &&
        payment.cardBrand &&
        payment.cardLast4,
    );
    const allRefunds = [...refundsOf(attempts), ...linesBack].sort(
      (a, b) => a.at.getTime() - b.at.getTime(),
    );
    return {
      id: row.id,
      number: orderNumber(row.id),
      placedAt: row.paidAt ?? row.createdAt,
      status: displayStatus(
        { status: row.status as OrderStatus, totalCents: row.totalCents },
        attempts,
        linesBack,
      ),
      currencyCode: row.currencyCode,
      items: items.map(({ orderId: _order, ...item }) => item),
      amounts: receiptAmounts({
        lineCents: items.map((item) => item.priceCents),
        feeCents: row.feeCents,
        // The rate it was charged at, when it posts something (issue 38).
        shippingCents: shippingCents(
          items.map((item) => item.term.type),
          row.shippingCents,
        ),
        refundedCents: linesBack.reduce((sum, refund) => sum + refund.amountCents, 0),
      }),
      card: card ? { brand: card.cardBrand!, last4: card.cardLast4! } : null,
      refunds: allRefunds,
    };
  });
}

const orderColumns = {
  id: orders.id,
  status: orders.status,
  feeCents: orders.feeCents,
  shippingCents: orders.shippingCents,
  totalCents: orders.totalCents,
  currencyCode: orders.currencyCode,
  createdAt: orders.createdAt,
  paidAt: orders.paidAt,
};

/** The signed-in user's orders, newest first, a page at a time. */
export async function myOrders(ctx: RequestContext, askedPage: number) {
  const user = signedIn(ctx);
  const [total] = await ctx.db
    .select({ n: count() })
    .from(orders)
    .where(eq(orders.userId, user.id));
  const { page, pages } = pageWindow(askedPage, total?.n ?? 0, ORDERS_PAGE_SIZE);
  const rows = await ctx.db
    .select(orderColumns)
    .from(orders)
    .where(eq(orders.userId, user.id))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(ORDERS_PAGE_SIZE)
    .offset((page - 1) * ORDERS_PAGE_SIZE);
  return { page, pages, count: total?.n ?? 0, orders: await describeOrders(ctx, rows) };
}

/**
 * One of the signed-in user's orders as its receipt: the order, the store (the site it is
 * read on) and the organisation (the buyer's, else the site's), and the buyer.
 */
/** The seller's postal address and contact address (STORE_ADDRESS, STORE_EMAIL), if set. */
export type Seller = { addressLines: string[]; email: string | null };

export async function myOrderReceipt(
  ctx: RequestContext,
  orderId: string,
  seller: Seller = { addressLines: [], email: null },
) {
  const user = signedIn(ctx);
  if (!UUID.test(orderId)) throw new NotFound();
  const [row] = await ctx.db
    .select(orderColumns)
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, user.id)))
    .limit(1);
  if (!row) throw new NotFound();
  const [order] = await describeOrders(ctx, [row]);
  const [posted] = await ctx.db
    .select({ address: orders.shippingAddress })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  const orgId = user.orgId ?? ctx.site.org?.id ?? null;
  const [org] = orgId
    ? await ctx.db
        .select({
          title: organizations.title,
          contactName: organizations.contactName,
          phoneNumber: organizations.phoneNumber,
          emailAddress: organizations.emailAddress,
          postalAddress: organizations.postalAddress,
        })
        .from(organizations)
        .where(eq(organizations.id, orgId))
        .limit(1)
    : [];
  const [buyer] = await ctx.db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, user.id))
    .limit(1);
  return {
    ...order!,
    store: { name: ctx.site.title, host: ctx.site.host, ...seller },
    organization: org ?? null,
    // Where it was posted, when something was (issue 38).
    shipTo: shippingAddressLines(posted?.address ?? null),
    buyer: {
      name: `${buyer?.firstName ?? ''} ${buyer?.lastName ?? ''}`.trim(),
      email: buyer?.email ?? user.email,
    },
  };
}

export type OrderSummary = Awaited<ReturnType<typeof myOrders>>['orders'][number];
export type OrderReceipt = Awaited<ReturnType<typeof myOrderReceipt>>;
