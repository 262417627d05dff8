import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import { orders, orderTransitions, payments, printOrders, shipments } from '#db/schema/commerce.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { analyticsEvents } from '#db/schema/events.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import {
  authenticateTestPayment,
  cancelPayment,
  expireAbandonedOrders,
  payOrder,
  startWalletPayment,
} from '#domain/commerce/checkout.ts';
import { myOrders } from '#domain/commerce/my-orders.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import { TEST_WALLET_DECLINED_TOKEN, TEST_WALLET_TOKEN } from '#domain/commerce/wallet-tokens.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Invalid } from '#domain/shared/errors.ts';
import { defaultSite } from '#domain/sites/service.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';

// Issue 4, Checkout and payment: stock races between carts, the platform fee, fulfilment by
// kind, the wallet button's calls and the test bank's extra step, on real PostgreSQL in CI.
let database: DatabaseHandle;
let gateway: TestGateway;
beforeAll(async () => {
  database = process.env.DATABASE_URL
    ? await openDatabase({ url: process.env.DATABASE_URL, poolSize: 20 })
    : await openTestDatabase();
  gateway = new TestGateway(database.db);
});
afterAll(async () => {
  await database?.close();
});

const ADDRESS = {
  name: 'Sam Reader',
  line1: '1 Campus Way',
  line2: '',
  city: 'Northfield',
  region: 'MN',
  postalCode: '55057',
  country: 'US' as const,
};
const card = (number: string) => ({
  kind: 'card' as const,
  card: { number, expMonth: 12, expYear: 2030, cvc: '123' },
});

/** Shoppers made straight in the table: 200 password hashes would only slow the race down. */
async function shoppers(count: number, site = defaultSite('localhost')): Promise<RequestContext[]> {
  const rows = await database.db
    .insert(users)
    .values(
      Array.from({ length: count }, () => ({
        email: `${unique('buyer')}@example.test`,
        firstName: 'B',
      })),
    )
    .returning({ id: users.id });
  return Promise.all(
    rows.map(async (row) => {
      const user = (await loadSessionUser(database.db, { userId: row.id, impersonatorId: null }))!;
      return testContext(database.db, { user, site });
    }),
  );
}

async function offering(
  values: Partial<typeof offerings.$inferInsert> & { type: string; bookType: string },
): Promise<{ productId: number; offeringId: number; title: string }> {
  const title = unique('Title');
  const productId = await insertProduct(database.db, { title }, { priceCents: null });
  const [row] = await database.db
    .insert(offerings)
    .values({ productId, priceCents: 2500, ...values })
    .returning({ id: offerings.id });
  return { productId, offeringId: row!.id, title };
}

async function stockOf(offeringId: number): Promise<number | null> {
  const [row] = await database.db
    .select({ stock: offerings.stock })
    .from(offerings)
    .where(eq(offerings.id, offeringId));
  return row?.stock ?? null;
}

describe('shoppers with their own carts racing for the last units', () => {
  it.each([
    1, 5,
  ])('200 checkouts for %i units: exactly that many orders, stock never below zero', async (units) => {
    const { offeringId, title } = await offering({
      type: 'physical',
      bookType: 'print',
      stock: units,
    });
    const racers = await shoppers(200);
    for (const ctx of racers) await putInCart(ctx, { userId: ctx.user!.id }, { offeringId });
    const results = await Promise.allSettled(
      racers.map((ctx) =>
        placeOrder(ctx, { idempotencyKey: unique('race'), shippingAddress: ADDRESS }),
      ),
    );
    const placed = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(placed).toHaveLength(units);
    expect(refused).toHaveLength(200 - units);
    for (const result of refused) {
      // Each loser is told which title sold out, in a message of its own.
      expect(result.reason).toBeInstanceOf(Conflict);
      expect(result.reason).toMatchObject({
        messageKey: 'checkout.error.soldOut',
        params: { title },
      });
    }
    expect(await stockOf(offeringId)).toBe(0);
    // The winners pay; each gets one shipment.
    for (const [i, result] of results.entries()) {
      if (result.status !== 'fulfilled') continue;
      const ctx = racers[i]!;
      expect(
        await payOrder(ctx, gateway, {
          orderId: result.value.orderId,
          method: card('4242424242424242'),
        }),
      ).toEqual({ ok: true });
    }
    const paid = placed.map(
      (r) => (r as PromiseFulfilledResult<{ orderId: string }>).value.orderId,
    );
    for (const orderId of paid) {
      expect(
        await database.db.select().from(shipments).where(eq(shipments.orderId, orderId)),
      ).toHaveLength(1);
    }
  });

  it('a canceled order puts its unit back', async () => {
    const { offeringId } = await offering({ type: 'physical', bookType: 'print', stock: 1 });
    const [ctx] = await shoppers(1);
    await putInCart(ctx!, { userId: ctx!.user!.id }, { offeringId });
    const { orderId } = await placeOrder(ctx!, {
      idempotencyKey: unique('cancel'),
      shippingAddress: ADDRESS,
    });
    expect(await stockOf(offeringId)).toBe(0);
    await cancelPayment(ctx!, gateway, orderId);
    expect(await stockOf(offeringId)).toBe(1);
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('canceled');
    const moves = await database.db
      .select({ from: orderTransitions.fromStatus, to: orderTransitions.toStatus })
      .from(orderTransitions)
      .where(eq(orderTransitions.orderId, orderId));
    expect(moves).toEqual([
      { from: null, to: 'pending' },
      { from: 'pending', to: 'canceled' },
    ]);
  });

  it('something to post needs an address', async () => {
    const { offeringId } = await offering({ type: 'print', bookType: 'print' });
    const [ctx] = await shoppers(1);
    await putInCart(ctx!, { userId: ctx!.user!.id }, { offeringId });
    await expect(placeOrder(ctx!, { idempotencyKey: unique('addr') })).rejects.toMatchObject({
      messageKey: 'checkout.error.address',
    });
  });
});

describe('the platform fee (spec 1 §3 platformFeeFeatures; spec 2 §9)', () => {
  it('is charged once per transaction when the subtotal reaches the threshold', async () => {
    const site = defaultSite('localhost');
    const feeSite = {
      ...site,
      org: {
        id: 1,
        title: 'Fee Org',
        isCdsEnabled: false,
        isRetailer: true,
        isBookstorePartner: false,
        isFollettOrg: false,
        purchaseModalEnabled: false,
        buysOnPartnerSite: false,
        helpUrl: null,
        platformFee: { enabled: true, feeCents: 199, thresholdCents: 4000 },
      },
    };
    const [ctx] = await shoppers(1, feeSite);
    const a = await offering({ type: 'digital', bookType: 'digital', priceCents: 2500 });
    const b = await offering({ type: 'digital', bookType: 'digital', priceCents: 2000 });
    await putInCart(ctx!, { userId: ctx!.user!.id }, { offeringId: a.offeringId });
    await putInCart(ctx!, { userId: ctx!.user!.id }, { offeringId: b.offeringId });
    const { orderId } = await placeOrder(ctx!, { idempotencyKey: unique('fee') });
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ subtotalCents: 4500, feeCents: 199, totalCents: 4699 });
    expect(await payOrder(ctx!, gateway, { orderId, method: card('4242424242424242') })).toEqual({
      ok: true,
    });
    const [payment] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, orderId));
    expect(payment?.amountCents).toBe(4699);
  });
});

describe('shipping (issue 38: the rate from configuration, once per order that posts something)', () => {
  it('a print copy and a digital book pay the rate once, charged and shown on the receipt', async () => {
    const [shopper] = await shoppers(1);
    const ctx = { ...shopper!, shippingRateCents: 599 };
    const print = await offering({ type: 'physical', bookType: 'print', priceCents: 3599 });
    const ebook = await offering({ type: 'digital', bookType: 'digital', priceCents: 2000 });
    await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: print.offeringId });
    await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: ebook.offeringId });
    const { orderId } = await placeOrder(ctx, {
      idempotencyKey: unique('ship'),
      shippingAddress: ADDRESS,
    });
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ subtotalCents: 5599, shippingCents: 599, totalCents: 6198 });
    expect(await payOrder(ctx, gateway, { orderId, method: card('4242424242424242') })).toEqual({
      ok: true,
    });
    const [payment] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, orderId));
    expect(payment?.amountCents).toBe(6198);
    const [summary] = (await myOrders(ctx, 1)).orders;
    expect(summary?.amounts).toEqual([
      { key: 'subtotal', cents: 5599 },
      { key: 'shipping', cents: 599 },
      { key: 'noTax', cents: 0 },
      { key: 'total', cents: 6198 },
    ]);
  });

  it('nothing posted pays no shipping, whatever the rate', async () => {
    const [shopper] = await shoppers(1);
    const ctx = { ...shopper!, shippingRateCents: 599 };
    const ebook = await offering({ type: 'digital', bookType: 'digital', priceCents: 2000 });
    await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: ebook.offeringId });
    const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('noship') });
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ shippingCents: 0, totalCents: 2000 });
  });
});

describe('fulfilment in the payment transaction', () => {
  it('a rental is due 7 days after add/drop; print on demand gets a print order; a combo is owned and ships', async () => {
    const [ctx] = await shoppers(1);
    const userId = ctx!.user!.id;
    const [org] = await database.db
      .insert(organizations)
      .values({ title: unique('Org') })
      .returning({ id: organizations.id });
    const [course] = await database.db
      .insert(courses)
      .values({ orgId: org!.id, name: 'Rentals', department: 'REN', number: '101' })
      .returning({ id: courses.id });
    const addDropAt = new Date('2026-09-10T04:00:00Z');
    const [section] = await database.db
      .insert(courseSections)
      .values({
        courseId: course!.id,
        name: 'Rentals 101 - 001',
        rsCourseId: unique('RS'),
        startDate: '2026-08-25',
        endDate: '2026-12-15',
        addDropAt,
      })
      .returning({ id: courseSections.id });
    const sectionId = section!.id;
    await database.db.insert(sectionMembers).values({
      sectionId,
      userId,
      role: 'student',
      addDropDate: addDropAt,
      rsCoursememberId: unique('RSM'),
    });
    const rental = await offering({
      type: 'physical',
      bookType: 'print',
      isRental: true,
      stock: 3,
    });
    const printed = await offering({ type: 'print', bookType: 'print' });
    const combo = await offering({ type: 'combo', bookType: 'combo', comboPriceCents: 4000 });
    for (const o of [rental, printed, combo]) {
      await putInCart(ctx!, { userId }, { offeringId: o.offeringId, courseSectionId: sectionId });
    }
    const { orderId } = await placeOrder(ctx!, {
      idempotencyKey: unique('kinds'),
      shippingAddress: ADDRESS,
      courseSectionId: sectionId,
    });
    const [placed] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    // A combo costs its combo price (ebook and print copy).
    expect(placed?.subtotalCents).toBe(2500 + 2500 + 4000);
    expect(await payOrder(ctx!, gateway, { orderId, method: card('4242424242424242') })).toEqual({
      ok: true,
    });
    const shipped = await database.db
      .select()
      .from(shipments)
      .where(eq(shipments.orderId, orderId));
    expect(shipped).toHaveLength(2);
    expect(shipped.map((s) => s.rentalDueAt?.toISOString() ?? null).sort()).toEqual([
      '2026-09-17T04:00:00.000Z',
      null,
    ]);
    const prints = await database.db
      .select()
      .from(printOrders)
      .where(eq(printOrders.orderId, orderId));
    expect(prints).toHaveLength(1);
    const days =
      (prints[0]!.latestDeliveryAt.getTime() - prints[0]!.earliestDeliveryAt.getTime()) /
      86_400_000;
    expect(days).toBeGreaterThanOrEqual(3);
    const owned = await database.db
      .select({ productId: ownerships.productId })
      .from(ownerships)
      .where(eq(ownerships.orderId, orderId));
    expect(owned.map((o) => o.productId)).toEqual([combo.productId]);
    // Something is still to be posted: paid, not fulfilled.
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('paid');
  });
});

describe('the wallet button (spec 1 §4 Wallet payment)', () => {
  it('create twice with one key is one order; a declined token says why; the good one pays', async () => {
    const [ctx] = await shoppers(1);
    const { offeringId, productId } = await offering({ type: 'digital', bookType: 'digital' });
    const key = unique('wallet');
    const first = await startWalletPayment(ctx!, gateway, {
      offeringId,
      idempotencyKey: key,
      courseSectionId: null,
    });
    const again = await startWalletPayment(ctx!, gateway, {
      offeringId,
      idempotencyKey: key,
      courseSectionId: null,
    });
    expect(again.orderId).toBe(first.orderId);
    expect(first.amountCents).toBe(2500);
    expect(
      await payOrder(ctx!, gateway, {
        orderId: first.orderId,
        method: { kind: 'method', id: TEST_WALLET_DECLINED_TOKEN },
        wallet: true,
      }),
    ).toEqual({ ok: false, reason: 'card_declined' });
    expect(
      await payOrder(ctx!, gateway, {
        orderId: first.orderId,
        method: { kind: 'method', id: TEST_WALLET_TOKEN },
        wallet: true,
      }),
    ).toEqual({ ok: true });
    const rows = await database.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, first.orderId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded', isWallet: true });
    const owned = await database.db
      .select()
      .from(ownerships)
      .where(and(eq(ownerships.userId, ctx!.user!.id), eq(ownerships.productId, productId)));
    expect(owned).toHaveLength(1);
  });

  it('a course id naming no section is ignored, not a server error', async () => {
    const [ctx] = await shoppers(1);
    const { offeringId } = await offering({ type: 'digital', bookType: 'digital' });
    const { orderId } = await startWalletPayment(ctx!, gateway, {
      offeringId,
      idempotencyKey: unique('nosection'),
      courseSectionId: 2_000_000_000,
    });
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.courseSectionId).toBeNull();
  });

  it('below 0.50 USD there is no wallet payment', async () => {
    const [ctx] = await shoppers(1);
    const { offeringId } = await offering({ type: 'digital', bookType: 'digital', priceCents: 49 });
    await expect(
      startWalletPayment(ctx!, gateway, {
        offeringId,
        idempotencyKey: unique('min'),
        courseSectionId: null,
      }),
    ).rejects.toMatchObject({ messageKey: 'checkout.error.minimum' });
  });

  it('through the API: a failed confirmation records the failure event; cancel cancels the order', async () => {
    const [ctx] = await shoppers(1);
    const { offeringId } = await offering({ type: 'digital', bookType: 'digital' });
    const web = testWebContext(database, { user: ctx!.user });
    const call = (path: string, body?: unknown) =>
      handleApiRequest(
        new Request(`http://127.0.0.1${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/vnd.api+json' },
          body: body === undefined ? null : JSON.stringify(body),
        }),
        web,
      );
    const created = await call('/api/payments', {
      data: { type: 'payment', attributes: { offeringId, idempotencyKey: unique('api') } },
    });
    expect(created.status).toBe(201);
    const orderId = ((await created.json()) as { data: { id: string } }).data.id;
    expect(created.headers.get('location')).toBe(`/api/payments/${orderId}`);
    const declined = await call(`/api/payments/${orderId}/confirm`, {
      data: { type: 'payment', attributes: { token: TEST_WALLET_DECLINED_TOKEN } },
    });
    expect(declined.status).toBe(402);
    expect(((await declined.json()) as { errors: { detail: string }[] }).errors[0]?.detail).toBe(
      'Your card was declined.',
    );
    const events = await database.db
      .select()
      .from(analyticsEvents)
      .where(
        and(eq(analyticsEvents.name, 'payment_failed'), eq(analyticsEvents.userId, ctx!.user!.id)),
      );
    expect(events).toHaveLength(1);
    expect((await call(`/api/payments/${orderId}/cancel`)).status).toBe(204);
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.status).toBe('canceled');
    // Closing the sheet twice (a retried call) changes nothing and says nothing more.
    expect((await call(`/api/payments/${orderId}/cancel`)).status).toBe(204);

    // Issue 37: a paid order cannot be canceled, and the shopper is told so; it stays paid.
    const second = await offering({ type: 'digital', bookType: 'digital' });
    const bought = await call('/api/payments', {
      data: {
        type: 'payment',
        attributes: { offeringId: second.offeringId, idempotencyKey: unique('api') },
      },
    });
    const paidId = ((await bought.json()) as { data: { id: string } }).data.id;
    expect(
      (
        await call(`/api/payments/${paidId}/confirm`, {
          data: { type: 'payment', attributes: { token: TEST_WALLET_TOKEN } },
        })
      ).status,
    ).toBe(200);
    const refused = await call(`/api/payments/${paidId}/cancel`);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { errors: { detail: string }[] }).errors[0]?.detail).toBe(
      'This order is paid and can no longer be canceled.',
    );
    const [stillPaid] = await database.db.select().from(orders).where(eq(orders.id, paidId));
    expect(stillPaid?.status).toBe('fulfilled');
    // Bad input is a 4xx in words, never a 500: another shopper's order, a malformed id, junk.
    const [stranger] = await shoppers(1);
    const strangerWeb = testWebContext(database, { user: stranger!.user });
    const foreign = await handleApiRequest(
      new Request(`http://127.0.0.1/api/payments/${orderId}/cancel`, { method: 'POST' }),
      strangerWeb,
    );
    expect(foreign.status).toBe(404);
    expect(
      (
        await call('/api/payments/not-a-uuid/confirm', {
          data: { type: 'payment', attributes: { token: 'x' } },
        })
      ).status,
    ).toBe(404);
    expect(
      (await call('/api/payments', { data: { type: 'payment', attributes: { offeringId: 'x' } } }))
        .status,
    ).toBe(400);
    const anonymous = await handleApiRequest(
      new Request('http://127.0.0.1/api/payments', {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.api+json' },
        body: '{}',
      }),
      testWebContext(database),
    );
    expect(anonymous.status).toBe(403);
  });
});

describe("the test bank's extra step (4000 0025 0000 3155)", () => {
  it('failing it declines; completing it pays once', async () => {
    const [ctx] = await shoppers(1);
    const { offeringId } = await offering({ type: 'digital', bookType: 'digital' });
    await putInCart(ctx!, { userId: ctx!.user!.id }, { offeringId });
    const { orderId } = await placeOrder(ctx!, { idempotencyKey: unique('3ds') });
    expect(await payOrder(ctx!, gateway, { orderId, method: card('4000002500003155') })).toEqual({
      ok: false,
      reason: 'requires_action',
    });
    expect(
      await authenticateTestPayment(ctx!, gateway, { orderId, approved: false }),
    ).toMatchObject({
      ok: false,
      reason: 'card_declined',
    });
    expect(await payOrder(ctx!, gateway, { orderId, method: card('4000002500003155') })).toEqual({
      ok: false,
      reason: 'requires_action',
    });
    expect(await authenticateTestPayment(ctx!, gateway, { orderId, approved: true })).toMatchObject(
      {
        ok: true,
      },
    );
    expect(await authenticateTestPayment(ctx!, gateway, { orderId, approved: true })).toMatchObject(
      {
        ok: true,
      },
    );
    const rows = await database.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(rows.map((p) => p.status)).toEqual(['succeeded']);
  });

  it('an order of nothing payable is refused in words', async () => {
    const [ctx] = await shoppers(1);
    await expect(placeOrder(ctx!, { idempotencyKey: unique('empty') })).rejects.toBeInstanceOf(
      Invalid,
    );
  });
});

describe('orders abandoned mid-payment', () => {
  it('after an hour they are canceled and their stock goes back; a paid one is left alone', async () => {
    const { offeringId } = await offering({ type: 'physical', bookType: 'print', stock: 2 });
    const placedAt = new Date(Date.now() - 2 * 60 * 60_000);
    const [gone, buyer] = await shoppers(2);
    const at = (ctx: RequestContext) => ({ ...ctx, now: placedAt });
    for (const ctx of [gone!, buyer!]) {
      await putInCart(ctx, { userId: ctx.user!.id }, { offeringId });
    }
    const left = await placeOrder(at(gone!), {
      idempotencyKey: unique('gone'),
      shippingAddress: ADDRESS,
    });
    const paid = await placeOrder(at(buyer!), {
      idempotencyKey: unique('paid'),
      shippingAddress: ADDRESS,
    });
    // The first started paying (a card that asks to confirm) and walked away.
    await payOrder(gone!, gateway, { orderId: left.orderId, method: card('4000002500003155') });
    await payOrder(buyer!, gateway, { orderId: paid.orderId, method: card('4242424242424242') });
    expect(await stockOf(offeringId)).toBe(0);
    expect(
      await expireAbandonedOrders(database.db, gateway, () => new Date()),
    ).toBeGreaterThanOrEqual(1);
    const statuses = await database.db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(eq(orders.id, left.orderId));
    expect(statuses[0]?.status).toBe('canceled');
    const [kept] = await database.db.select().from(orders).where(eq(orders.id, paid.orderId));
    expect(kept?.status).toBe('paid');
    expect(await stockOf(offeringId)).toBe(1);
    const [payment] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, left.orderId));
    expect(payment?.status).toBe('canceled');
  });
});
