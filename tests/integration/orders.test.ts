import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { bookFiles, offerings } from '#db/schema/catalog.ts';
import { orders, orderTransitions, payments } from '#db/schema/commerce.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import { cartLines, putInCart } from '#domain/commerce/cart.ts';
import { completedOrder, payOrder } from '#domain/commerce/checkout.ts';
import { placeOrder, recordSuccessfulPayment } from '#domain/commerce/orders.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Invalid, NotFound } from '#domain/shared/errors.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 4, Orders: one order and one charge per checkout, whatever the retries.
let database: DatabaseHandle;
beforeAll(async () => {
  database = process.env.DATABASE_URL
    ? await openDatabase({ url: process.env.DATABASE_URL, poolSize: 20 })
    : await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function shopperWithBook(
  priceCents = 2500,
  readerFile = true,
  productType = 'book',
): Promise<{ ctx: RequestContext; productId: number }> {
  const userId = await createUser(database.db, {
    email: `${unique('order')}@example.test`,
    password: 'pw-123456',
    firstName: 'O',
    lastName: 'O',
  });
  const user = (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
  const ctx = testContext(database.db, { user });
  const productId = await insertProduct(ctx.db, { productType }, { priceCents, readerFile });
  const [offer] = await ctx.db
    .select({ id: offerings.id })
    .from(offerings)
    .where(eq(offerings.productId, productId));
  await putInCart(ctx, { userId }, { offeringId: offer!.id });
  return { ctx, productId };
}

describe('placing an order', () => {
  it('the same checkout key, sent twenty times at once, makes one order', async () => {
    const { ctx } = await shopperWithBook();
    const key = unique('checkout');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => placeOrder(ctx, { idempotencyKey: key })),
    );
    expect(new Set(results.map((r) => r.orderId)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows = await ctx.db.select().from(orders).where(eq(orders.userId, ctx.user!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'pending', subtotalCents: 2500, totalCents: 2500 });
  });

  it('an empty cart or a malformed key is refused', async () => {
    const { ctx } = await shopperWithBook();
    await expect(placeOrder(ctx, { idempotencyKey: 'x' })).rejects.toBeInstanceOf(Invalid);
    const other = testContext(database.db, {
      user: (await loadSessionUser(database.db, {
        userId: await createUser(database.db, {
          email: `${unique('empty')}@example.test`,
          password: 'pw-123456',
          firstName: 'E',
          lastName: 'E',
        }),
        impersonatorId: null,
      }))!,
    });
    await expect(placeOrder(other, { idempotencyKey: unique('checkout') })).rejects.toBeInstanceOf(
      Invalid,
    );
  });
});

describe('a successful payment', () => {
  it('delivered three times fulfils once: one payment, one ownership, cart emptied', async () => {
    const { ctx, productId } = await shopperWithBook(1999);
    const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('checkout') });
    const confirm = () =>
      recordSuccessfulPayment(ctx.db, {
        orderId,
        gateway: 'test',
        gatewayRef: `pi_${orderId}`,
        amountCents: 1999,
        now: new Date(),
      });
    expect([await confirm(), await confirm(), await confirm()]).toEqual([
      'paid',
      'already recorded',
      'already recorded',
    ]);
    expect(await ctx.db.select().from(payments).where(eq(payments.orderId, orderId))).toHaveLength(
      1,
    );
    const owned = await ctx.db.select().from(ownerships).where(eq(ownerships.userId, ctx.user!.id));
    expect(owned.map((o) => [o.productId, o.source])).toEqual([[productId, 'purchase']]);
    // The test builder's digital offering lasts 180 days.
    expect(owned[0]!.expiresAt!.getTime() - owned[0]!.startsAt.getTime()).toBe(180 * 86_400_000);
    expect(await cartLines(ctx.db, { userId: ctx.user!.id })).toEqual([]);
    const moves = await ctx.db
      .select({ to: orderTransitions.toStatus })
      .from(orderTransitions)
      .where(eq(orderTransitions.orderId, orderId))
      .orderBy(orderTransitions.id);
    expect(moves.map((m) => m.to)).toEqual(['pending', 'paid', 'fulfilled']);
  });

  it('a wrong amount or a second charge for a paid order changes nothing', async () => {
    const { ctx } = await shopperWithBook(1000);
    const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('checkout') });
    const pay = (ref: string, amountCents: number) =>
      recordSuccessfulPayment(ctx.db, {
        orderId,
        gateway: 'test',
        gatewayRef: ref,
        amountCents,
        now: new Date(),
      });
    await expect(pay(unique('pi'), 999)).rejects.toBeInstanceOf(Conflict);
    expect(await ctx.db.select().from(payments).where(eq(payments.orderId, orderId))).toHaveLength(
      0,
    );
    expect(await pay(unique('pi'), 1000)).toBe('paid');
    await expect(pay(unique('pi'), 1000)).rejects.toBeInstanceOf(Conflict);
    expect(await ctx.db.select().from(payments).where(eq(payments.orderId, orderId))).toHaveLength(
      1,
    );
  });
});

describe('paying by card through the test gateway', () => {
  const card = (number: string) => ({
    kind: 'card' as const,
    card: { number, expMonth: 12, expYear: 2030, cvc: '123' },
  });

  it('declined leaves the order pending; the test card pays it; paying again is a no-op', async () => {
    const { ctx } = await shopperWithBook(1500);
    const gateway = new TestGateway(database.db);
    const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('checkout') });
    expect(await payOrder(ctx, gateway, { orderId, method: card('4000000000000002') })).toEqual({
      ok: false,
      reason: 'card_declined',
    });
    const [pending] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
    expect(pending?.status).toBe('pending');
    const [declined] = await ctx.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(declined).toMatchObject({ status: 'requires_payment_method', failure: 'card_declined' });
    expect(await payOrder(ctx, gateway, { orderId, method: card('4242424242424242') })).toEqual({
      ok: true,
    });
    expect(await payOrder(ctx, gateway, { orderId, method: card('4242424242424242') })).toEqual({
      ok: true,
    });
    const rows = await ctx.db.select().from(payments).where(eq(payments.orderId, orderId));
    // One payment at the gateway: declined, then confirmed again with the good card.
    expect(rows.map((p) => [p.status, p.failure])).toEqual([['succeeded', null]]);
  });

  it("another shopper's order, or a malformed id, is not found", async () => {
    const { ctx } = await shopperWithBook(1500);
    const { ctx: other } = await shopperWithBook(1500);
    const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('checkout') });
    const gateway = new TestGateway(database.db);
    await expect(
      payOrder(other, gateway, { orderId, method: card('4242424242424242') }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(completedOrder(other, orderId)).rejects.toBeInstanceOf(NotFound);
    await expect(completedOrder(ctx, 'not-a-uuid')).rejects.toBeInstanceOf(NotFound);
    expect((await completedOrder(ctx, orderId)).items).toHaveLength(1);
  });

  it('issue 14: the order-complete page offers Read Now only for what the rule opens and has a file', async () => {
    const gateway = new TestGateway(database.db);
    for (const fileStays of [true, false]) {
      const { ctx, productId } = await shopperWithBook(1500);
      const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('checkout') });
      // Before payment nothing is owned: nothing to read yet.
      expect((await completedOrder(ctx, orderId)).items[0]?.readable).toBe(false);
      await payOrder(ctx, gateway, { orderId, method: card('4242424242424242') });
      // A file withdrawn after the sale: the page says so instead of a Read Now to a 404.
      if (!fileStays) await ctx.db.delete(bookFiles).where(eq(bookFiles.productId, productId));
      const [item] = (await completedOrder(ctx, orderId)).items;
      expect(item).toMatchObject({ readable: fileStays, noFile: !fileStays });
    }
  });

  it('issue 19: a paid collection or courseware sends the buyer to My Shelf, where it opens; a book does not', async () => {
    const gateway = new TestGateway(database.db);
    for (const [productType, fromShelf] of [
      ['collection', true],
      ['courseware', true],
      ['book', false],
    ] as const) {
      const { ctx } = await shopperWithBook(1500, true, productType);
      const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('checkout') });
      expect((await completedOrder(ctx, orderId)).items[0]?.fromShelf).toBe(false);
      await payOrder(ctx, gateway, { orderId, method: card('4242424242424242') });
      expect((await completedOrder(ctx, orderId)).items[0]).toMatchObject({ fromShelf });
    }
  });

  it('issue 19: an e-book without a file for the reader cannot be put in the cart or ordered', async () => {
    const userId = await createUser(database.db, {
      email: `${unique('nofile')}@example.test`,
      password: 'pw-123456',
      firstName: 'N',
      lastName: 'F',
    });
    const user = (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
    const ctx = testContext(database.db, { user });
    const productId = await insertProduct(ctx.db, {}, { priceCents: 1200, readerFile: false });
    const [offer] = await ctx.db
      .select({ id: offerings.id })
      .from(offerings)
      .where(eq(offerings.productId, productId));
    await expect(putInCart(ctx, { userId }, { offeringId: offer!.id })).rejects.toMatchObject({
      status: 409,
      messageKey: 'purchase.refused.noFile',
    });
    // The wallet button's single-offering order is refused the same way, and makes no order.
    await expect(
      placeOrder(ctx, { idempotencyKey: unique('wallet'), offeringId: offer!.id }),
    ).rejects.toMatchObject({ messageKey: 'purchase.refused.noFile' });
    expect(await ctx.db.select().from(orders).where(eq(orders.userId, userId))).toEqual([]);
  });
});
