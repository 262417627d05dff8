import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import {
  cartItems,
  carts,
  orderItems,
  orders,
  orderTransitions,
  payments,
  printOrders,
  shipments,
} from '#db/schema/commerce.ts';
import { courseSections, sectionMembers } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { assignAccessCode } from '#domain/access/codes.ts';
import { requireVerifiedEmail } from '#domain/accounts/email-verification.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import { enqueue } from '#domain/notifications/outbox.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Forbidden, Invalid } from '#domain/shared/errors.ts';
import { cartLines, offeringLine, subtotalCents } from './cart.ts';
import { knownSection } from './course-materials.ts';
import { ABANDONED_AFTER_MS, linesKey } from './duplicate-charge.ts';
import {
  accessEndsAt,
  fulfilmentsOf,
  needsShipping,
  platformFeeCents,
  printDeliveryWindow,
  rentalDueAt,
  shippingCents,
} from './fulfilment-rules.ts';
import { canMove, type OrderStatus } from './order-status.ts';
import { purchaseRefusals } from './purchase-check.ts';
import { salesDelta } from './sales-counter.ts';
import type { ShippingAddress } from './shipping-address.ts';
import { returnStock, takeOrderStock } from './stock.ts';

const IDEMPOTENCY_KEY = /^[\w-]{8,100}$/;

/**
 * A pending order for the logged-in user's cart, or for one offering bought with the wallet
 * button (issue 4). The browser makes one idempotency key per checkout: a double click, a
 * refresh or a retried request with the same key gets the same order back — the unique index
 * (user, key) decides, not a read before the write. Counted stock is taken in the same
 * transaction: when a unit is gone the order is not placed and the shopper is told which.
 */
export async function placeOrder(
  ctx: RequestContext,
  input: {
    idempotencyKey: string;
    courseSectionId?: number | null;
    /** Buy this offering alone (the wallet button) rather than the cart. */
    offeringId?: number;
    shippingAddress?: ShippingAddress | null;
  },
): Promise<{ orderId: string; created: boolean }> {
  const user = ctx.user;
  if (!user) throw new Forbidden();
  requireVerifiedEmail(user);
  if (!IDEMPOTENCY_KEY.test(input.idempotencyKey)) throw new Invalid('checkout.error.key');
  return ctx.db.transaction(async (tx) => {
    const existing = await orderFor(tx, user.id, input.idempotencyKey);
    if (existing) return { orderId: existing, created: false };
    const lines =
      input.offeringId === undefined
        ? await cartLines(tx, { userId: user.id })
        : [await offeringLine(ctx, tx, input.offeringId)];
    if (lines.length === 0) throw new Invalid('checkout.error.emptyCart');
    // Nothing reaches payment that the shopper already has or cannot receive (issue 19): the
    // checkout page took such lines out and said why; one that became theirs since is refused.
    const refusal = (await purchaseRefusals({ ...ctx, db: tx }, user.id, lines)).find(Boolean);
    if (refusal) throw new Conflict(refusal.reason, refusal.params);
    if (needsShipping(lines.map((line) => line.offeringType)) && !input.shippingAddress) {
      throw new Invalid('checkout.error.address');
    }
    const subtotal = subtotalCents(lines);
    const fee = platformFeeCents(ctx.site.org?.platformFee ?? null, subtotal);
    const types = lines.map((line) => line.offeringType);
    const address = needsShipping(types) ? input.shippingAddress : null;
    // Posting costs the configured rate, once per order (issue 38); nothing posted, nothing.
    const shipping = shippingCents(types, ctx.shippingRateCents) ?? 0;
    const total = subtotal + fee + shipping;
    // A buyer whose page never came back pays again from the cart, perhaps with a new key (the
    // cart emptied and filled again): the order placed then for the same lines and amount, still
    // waiting for its payment, is this checkout's order, and the payment step finds its charge
    // if one went through. Never a second order of the same lines (issue 37).
    const earlier = await pendingOrderOfLines(tx, {
      userId: user.id,
      lines: linesKey(lines.map((line) => line.offeringId)),
      totalCents: total,
      since: new Date(ctx.now.getTime() - ABANDONED_AFTER_MS),
    });
    if (earlier) {
      if (address) {
        await tx
          .update(orders)
          .set({ shippingAddress: address })
          .where(and(eq(orders.id, earlier), eq(orders.status, 'pending')));
      }
      return { orderId: earlier, created: false };
    }
    const [order] = await tx
      .insert(orders)
      .values({
        userId: user.id,
        idempotencyKey: input.idempotencyKey,
        // A course id from a query (ecommerce_course_id) counts only if the section exists.
        courseSectionId: await knownSection(
          tx,
          input.courseSectionId ?? lines[0]?.courseSectionId ?? null,
        ),
        subtotalCents: subtotal,
        feeCents: fee,
        shippingCents: shipping,
        totalCents: total,
        shippingAddress: address,
        createdAt: ctx.now,
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
    const soldOut = await takeOrderStock(tx, order.id);
    // Throwing rolls the order back with every unit it took so far.
    if (soldOut) throw new Conflict('checkout.error.soldOut', { title: soldOut });
    await tx
      .insert(orderTransitions)
      .values({ orderId: order.id, toStatus: 'pending', at: ctx.now });
    return { orderId: order.id, created: true };
  });
}

/** The buyer's newest pending order placed since `since` for exactly these lines and total. */
async function pendingOrderOfLines(
  db: Queryable,
  input: { userId: number; lines: string; totalCents: number; since: Date },
): Promise<string | null> {
  const pending = await db
    .select({ id: orders.id, offeringIds: sql<number[]>`array_agg(${orderItems.offeringId})` })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(
      and(
        eq(orders.userId, input.userId),
        eq(orders.status, 'pending'),
        eq(orders.totalCents, input.totalCents),
        gte(orders.createdAt, input.since),
      ),
    )
    .groupBy(orders.id)
    .orderBy(desc(orders.createdAt))
    .limit(20);
  return (
    pending.find((order) => linesKey(order.offeringIds.map(Number)) === input.lines)?.id ?? null
  );
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
  // Best Sellers stay true on pay, cancel and refund, in the move's own transaction.
  const delta = salesDelta(input.from, input.to);
  if (delta !== 0) {
    await db.execute(sql`
      update products p set sales_count = greatest(p.sales_count + ${delta} * s.n, 0)
      from (select product_id, count(*)::int as n from order_items
            where order_id = ${input.orderId} group by product_id) s
      where p.id = s.product_id`);
  }
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
 * Every row it writes (payment, order, moves, ownerships, codes, shipments, prints, mail)
 * carries `now`, the one instant the payment settled (decision 041): no database default,
 * no other reading of a clock.
 */
export async function recordSuccessfulPayment(
  db: Queryable,
  input: {
    orderId: string;
    gateway: 'test' | 'stripe';
    gatewayRef: string;
    amountCents: number;
    /** When the payment settled: the clock read as the gateway's word came (decision 041). */
    now: Date;
    /** Recorded on the move to paid (INTERRUPTED_PAYMENT for a charge found after a crash). */
    reason?: string;
  },
): Promise<'paid' | 'already recorded'> {
  let buyer: number | null = null;
  const outcome = await db.transaction(async (tx) => {
    // The order row is locked first: two confirmations of one order (the shopper's return and
    // the provider's webhook) take turns, and the second finds the payment recorded.
    const [order] = await tx
      .select({
        userId: orders.userId,
        totalCents: orders.totalCents,
        status: orders.status,
        courseSectionId: orders.courseSectionId,
      })
      .from(orders)
      .where(eq(orders.id, input.orderId))
      .for('update')
      .limit(1);
    if (!order) throw new Invalid('checkout.error.order');
    buyer = order.userId;
    const [succeeded] = await tx
      .select({ gateway: payments.gateway, ref: payments.gatewayRef })
      .from(payments)
      .where(and(eq(payments.orderId, input.orderId), eq(payments.status, 'succeeded')))
      .limit(1);
    if (succeeded) {
      if (succeeded.gateway === input.gateway && succeeded.ref === input.gatewayRef) {
        return 'already recorded';
      }
      // A second charge for a paid order: the caller must refund it, never sell twice.
      throw new Conflict('checkout.error.notPending');
    }
    await tx
      .insert(payments)
      .values({
        orderId: input.orderId,
        gateway: input.gateway,
        gatewayRef: input.gatewayRef,
        status: 'succeeded',
        amountCents: input.amountCents,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .onConflictDoUpdate({
        target: [payments.gateway, payments.gatewayRef],
        set: { status: 'succeeded', failure: null, updatedAt: input.now },
      });
    if (input.amountCents !== order.totalCents) throw new Conflict('checkout.error.amount');
    if (
      !(await moveOrder(tx, {
        orderId: input.orderId,
        from: 'pending',
        to: 'paid',
        reason: input.reason,
        now: input.now,
      }))
    ) {
      throw new Conflict('checkout.error.notPending');
    }
    const items = await tx
      .select({
        id: orderItems.id,
        productId: orderItems.productId,
        durationDays: offerings.durationDays,
        offeringType: offerings.type,
        isRental: offerings.isRental,
        productType: products.productType,
      })
      .from(orderItems)
      .innerJoin(offerings, eq(offerings.id, orderItems.offeringId))
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(eq(orderItems.orderId, input.orderId));
    const owned = items.filter((item) => fulfilmentsOf(item.offeringType).includes('own'));
    if (owned.length > 0) {
      await tx
        .insert(ownerships)
        .values(
          owned.map((item) => ({
            userId: order.userId,
            productId: item.productId,
            source: 'purchase',
            orderId: input.orderId,
            startsAt: input.now,
            expiresAt: accessEndsAt(input.now, item.durationDays),
            createdAt: input.now,
          })),
        )
        // What the buyer held already (a rental, course access, an ended rental not revoked)
        // is extended, never left as it was: a lifetime copy of a rented title is bought for
        // life (issue 19). The longer end wins; none is the longest.
        .onConflictDoUpdate({
          target: [ownerships.userId, ownerships.productId],
          targetWhere: sql`${ownerships.revokedAt} is null`,
          set: {
            source: sql`case when excluded.expires_at is null or (${ownerships.expiresAt} is not null and excluded.expires_at > ${ownerships.expiresAt}) then 'purchase' else ${ownerships.source} end`,
            orderId: sql`case when excluded.expires_at is null or (${ownerships.expiresAt} is not null and excluded.expires_at > ${ownerships.expiresAt}) then excluded.order_id else ${ownerships.orderId} end`,
            startsAt: sql`least(${ownerships.startsAt}, excluded.starts_at)`,
            expiresAt: sql`case when excluded.expires_at is null or ${ownerships.expiresAt} is null then null else greatest(${ownerships.expiresAt}, excluded.expires_at) end`,
          },
        });
      // Courseware comes with an access code from its pool.
      for (const item of owned.filter((i) => i.productType === 'courseware')) {
        await assignAccessCode(tx, {
          productId: item.productId,
          userId: order.userId,
          orderId: input.orderId,
          now: input.now,
        });
      }
    }
    const shipped = items.filter((item) => fulfilmentsOf(item.offeringType).includes('ship'));
    if (shipped.length > 0) {
      const addDrop = shipped.some((item) => item.isRental)
        ? await addDropDateOf(tx, order.userId, order.courseSectionId)
        : null;
      await tx
        .insert(shipments)
        .values(
          shipped.map((item) => ({
            orderId: input.orderId,
            orderItemId: item.id,
            rentalDueAt: item.isRental && addDrop ? rentalDueAt(addDrop) : null,
            createdAt: input.now,
          })),
        )
        .onConflictDoNothing();
    }
    const printed = items.filter((item) => fulfilmentsOf(item.offeringType).includes('print'));
    if (printed.length > 0) {
      const window = printDeliveryWindow(input.now);
      await tx
        .insert(printOrders)
        .values(
          printed.map((item) => ({
            orderId: input.orderId,
            orderItemId: item.id,
            earliestDeliveryAt: window.earliest,
            latestDeliveryAt: window.latest,
            createdAt: input.now,
          })),
        )
        .onConflictDoNothing();
    }
    // What was bought leaves the buyer's cart (one statement: the cart found inside it).
    await tx.delete(cartItems).where(
      and(
        inArray(
          cartItems.cartId,
          tx.select({ id: carts.id }).from(carts).where(eq(carts.userId, order.userId)),
        ),
        inArray(
          cartItems.productId,
          items.map((item) => item.productId),
        ),
      ),
    );
    // The confirmation e-mail leaves with this transaction or not at all (outbox).
    await enqueue(tx, {
      kind: 'order-confirmation',
      dedupeKey: `order-confirmation:${input.orderId}`,
      payload: { orderId: input.orderId },
      to: { userId: order.userId },
      at: input.now,
    });
    if (shipped.length === 0 && printed.length === 0) {
      await moveOrder(tx, {
        orderId: input.orderId,
        from: 'paid',
        to: 'fulfilled',
        now: input.now,
      });
    }
    return 'paid' as const;
  });
  // What the buyer owns and has in the cart changed: this process forgets it now, the others
  // on the ownerships' and cart's notifications (migrations 0007, 0050).
  if (outcome === 'paid' && buyer !== null) forgetAccounts([buyer]);
  return outcome;
}

/** The add/drop date that dates a rental's return: the member's own, else the section's. */
async function addDropDateOf(
  db: Queryable,
  userId: number,
  sectionId: number | null,
): Promise<Date | null> {
  if (sectionId === null) return null;
  const [row] = await db
    .select({ member: sectionMembers.addDropDate, section: courseSections.addDropAt })
    .from(courseSections)
    .leftJoin(
      sectionMembers,
      and(eq(sectionMembers.sectionId, courseSections.id), eq(sectionMembers.userId, userId)),
    )
    .where(eq(courseSections.id, sectionId))
    .limit(1);
  return row ? (row.member ?? row.section) : null;
}

/**
 * Cancels a pending order (the shopper gave up the payment) and puts back the stock it held,
 * in one transaction; false when the order was no longer pending.
 */
export async function cancelOrder(
  db: Queryable,
  input: { orderId: string; reason: string; now: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const moved = await moveOrder(tx, {
      orderId: input.orderId,
      from: 'pending',
      to: 'canceled',
      reason: input.reason,
      now: input.now,
    });
    if (!moved) return false;
    await returnStock(tx, input.orderId);
    return true;
  });
}
