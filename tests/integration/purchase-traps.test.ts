import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { orders } from '#db/schema/commerce.ts';
import { courseSections, courses, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { cartLines, mergeAnonymousCart, putInCart, reconcileCart } from '#domain/commerce/cart.ts';
import { payOrder } from '#domain/commerce/checkout.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import { buyableOfferings, purchaseRefusals } from '#domain/commerce/purchase-check.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';

// Issue 19, money traps: nobody pays for what they already have or cannot receive. The cart,
// the merge of a guest cart on login, checkout (placeOrder), the wallet order and the cart API
// ask one rule (domain/commerce/purchase-value.ts); what still adds something stays buyable.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const now = new Date('2026-10-01T15:00:00Z');
const testCard = {
  kind: 'card' as const,
  card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
};
const DAY = 86_400_000;

async function student(): Promise<RequestContext> {
  const [row] = await database.db
    .insert(users)
    .values({ email: `${unique('trap')}@example.test`, firstName: 'T' })
    .returning({ id: users.id });
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  return testContext(database.db, { user, now });
}

/** A book with a lifetime e-book, a 180-day rental and a print copy. */
async function bookWithThreeOfferings() {
  const productId = await insertProduct(
    database.db,
    { title: unique('Understanding Biochemistry') },
    { priceCents: null },
  );
  const rows = await database.db
    .insert(offerings)
    .values([
      { productId, type: 'digital', bookType: 'digital', priceCents: 8999, durationDays: null },
      {
        productId,
        type: 'digital',
        bookType: 'digital',
        priceCents: 4399,
        durationDays: 180,
        isRental: true,
      },
      { productId, type: 'print', bookType: 'print', priceCents: 5999 },
    ])
    .returning({ id: offerings.id });
  return { productId, lifetime: rows[0]!.id, rental: rows[1]!.id, print: rows[2]!.id };
}

async function own(ctx: RequestContext, productId: number, expiresAt: Date | null) {
  await database.db.insert(ownerships).values({
    userId: ctx.user!.id,
    productId,
    source: 'purchase',
    startsAt: new Date(now.getTime() - 30 * DAY),
    expiresAt,
  });
}

describe('issue 19: a title already owned never reaches payment', () => {
  // Issue 37 (surviving mutants of purchase-check.ts): the product page (and the catalog API,
  // which asks the same question) offered an owner for life the rental and lifetime copies.
  it('a product’s offerings: an owner for life is offered only the print copy, and told why', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await own(ctx, book.productId, null);
    const [row] = await database.db
      .select({ status: products.status, productType: products.productType })
      .from(products)
      .where(eq(products.id, book.productId));
    const product = {
      id: book.productId,
      productType: row!.productType,
      status: row!.status,
      offerings: [
        { id: book.lifetime, type: 'digital', durationDays: null },
        { id: book.rental, type: 'digital', durationDays: 180 },
        { id: book.print, type: 'print', durationDays: null },
      ],
    };
    const forOwner = await buyableOfferings(ctx, product);
    expect(forOwner.offerings.map((o) => o.id)).toEqual([book.print]);
    expect(forOwner.withheld).toEqual({ reason: 'purchase.refused.ownedForLife', params: {} });
    // Someone who holds nothing is offered all three; a visitor too.
    const other = await student();
    expect((await buyableOfferings(other, product)).offerings.map((o) => o.id)).toEqual([
      book.lifetime,
      book.rental,
      book.print,
    ]);
    expect((await buyableOfferings(other, product)).withheld).toBeNull();
    const visitor = testContext(database.db, { now });
    expect((await buyableOfferings(visitor, product)).offerings).toHaveLength(3);
  });

  it('a renter is offered the lifetime copy and told why the same rental is not offered', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await own(ctx, book.productId, new Date(now.getTime() + 200 * DAY));
    const product = {
      id: book.productId,
      productType: 'book',
      status: 'active',
      // The lifetime copy first: it adds something; the rental after it does not.
      offerings: [
        { id: book.lifetime, type: 'digital', durationDays: null },
        { id: book.rental, type: 'digital', durationDays: 180 },
      ],
    };
    const forRenter = await buyableOfferings(ctx, product);
    expect(forRenter.offerings.map((o) => o.id)).toEqual([book.lifetime]);
    expect(forRenter.withheld).toMatchObject({ reason: 'purchase.refused.ownedUntil' });
    // Nothing asked, nothing refused.
    expect(await purchaseRefusals(ctx, ctx.user!.id, [])).toEqual([]);
  });

  it('the guest cart merged on login loses the rental of a title owned for life, and says why', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await own(ctx, book.productId, null);
    const anonymousKey = unique('guest-key-0123456789');
    // Browsing logged out, the rule knows nothing of the owner: the rental goes in.
    await putInCart({ ...ctx, user: null }, { anonymousKey }, { offeringId: book.rental });
    await mergeAnonymousCart(ctx, anonymousKey, ctx.user!.id);
    // Checkout (and the cart page, the cart sheet) reads the cart through reconcileCart.
    const { lines, removed } = await reconcileCart(ctx, { userId: ctx.user!.id });
    expect(lines).toEqual([]);
    expect(removed).toEqual([
      {
        title: expect.stringContaining('Understanding Biochemistry'),
        languageCode: 'en',
        refusal: { reason: 'purchase.refused.ownedForLife', params: {} },
      },
    ]);
    expect(await cartLines(ctx.db, { userId: ctx.user!.id })).toEqual([]);
  });

  it('a guest line the rule refuses never displaces the account’s own choice for that title', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await own(ctx, book.productId, null);
    await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: book.print });
    const anonymousKey = unique('guest-key-0123456789');
    await putInCart({ ...ctx, user: null }, { anonymousKey }, { offeringId: book.lifetime });
    await mergeAnonymousCart(ctx, anonymousKey, ctx.user!.id);
    const lines = await cartLines(ctx.db, { userId: ctx.user!.id });
    expect(lines.map((line) => line.offeringId)).toEqual([book.print]);
  });

  it('Add To Cart, the wallet order and checkout refuse it for the owner, and no order is made', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await own(ctx, book.productId, null);
    await expect(
      putInCart(ctx, { userId: ctx.user!.id }, { offeringId: book.rental }),
    ).rejects.toMatchObject({ status: 409, messageKey: 'purchase.refused.ownedForLife' });
    await expect(
      placeOrder(ctx, { idempotencyKey: unique('wallet'), offeringId: book.lifetime }),
    ).rejects.toMatchObject({ messageKey: 'purchase.refused.ownedForLife' });
    expect(await ctx.db.select().from(orders).where(eq(orders.userId, ctx.user!.id))).toEqual([]);
  });

  it('a title that became theirs after it went in the cart is refused at checkout', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: book.rental });
    await own(ctx, book.productId, null);
    await expect(placeOrder(ctx, { idempotencyKey: unique('checkout') })).rejects.toMatchObject({
      status: 409,
      messageKey: 'purchase.refused.ownedForLife',
    });
  });

  it('the print copy of an owned e-book stays in the cart and is paid for', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await own(ctx, book.productId, null);
    await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: book.print });
    const { lines, removed } = await reconcileCart(ctx, { userId: ctx.user!.id });
    expect(removed).toEqual([]);
    expect(lines.map((line) => line.offeringId)).toEqual([book.print]);
  });
});

describe('issue 19: a rented title', () => {
  it('a shorter or equal rental is refused with the day the rental held ends', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await own(ctx, book.productId, new Date(now.getTime() + 200 * DAY));
    await expect(
      putInCart(ctx, { userId: ctx.user!.id }, { offeringId: book.rental }),
    ).rejects.toMatchObject({
      messageKey: 'purchase.refused.ownedUntil',
      params: { date: '2027-04-19' },
    });
  });

  it('a lifetime copy is bought, and the ownership is then for life (not silently left a rental)', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await own(ctx, book.productId, new Date(now.getTime() + 20 * DAY));
    await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: book.lifetime });
    const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('checkout') });
    const paid = await payOrder(ctx, new TestGateway(database.db), {
      orderId,
      method: testCard,
    });
    expect(paid).toEqual({ ok: true });
    const held = await ctx.db
      .select({
        expiresAt: ownerships.expiresAt,
        source: ownerships.source,
        orderId: ownerships.orderId,
      })
      .from(ownerships)
      .where(
        and(
          eq(ownerships.userId, ctx.user!.id),
          eq(ownerships.productId, book.productId),
          isNull(ownerships.revokedAt),
        ),
      );
    expect(held).toEqual([{ expiresAt: null, source: 'purchase', orderId }]);
  });

  it('a rental bought again after the first one ended gives access again', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await own(ctx, book.productId, new Date(now.getTime() - DAY));
    await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: book.rental });
    const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('checkout') });
    await payOrder(ctx, new TestGateway(database.db), {
      orderId,
      method: testCard,
    });
    const [held] = await ctx.db
      .select({ expiresAt: ownerships.expiresAt })
      .from(ownerships)
      .where(and(eq(ownerships.userId, ctx.user!.id), eq(ownerships.productId, book.productId)));
    expect(held!.expiresAt!.getTime()).toBeGreaterThan(now.getTime() + 179 * DAY);
  });
});

describe('issue 19: a title the course opens', () => {
  async function courtesySection(ctx: RequestContext, productId: number) {
    const [org] = await database.db
      .insert(organizations)
      .values({ title: unique('Org') })
      .returning({ id: organizations.id });
    const [course] = await database.db
      .insert(courses)
      .values({ orgId: org!.id, name: 'Biochemistry', department: 'BIO', number: '310' })
      .returning({ id: courses.id });
    const [section] = await database.db
      .insert(courseSections)
      .values({
        courseId: course!.id,
        name: 'BIO 310 - 001',
        number: '001',
        rsCourseId: unique('RS'),
        startDate: '2026-09-01',
        endDate: '2027-05-15',
        addDropAt: new Date('2026-09-15T04:00:00Z'),
      })
      .returning({ id: courseSections.id });
    await database.db.insert(sectionProducts).values({ sectionId: section!.id, productId });
    await database.db.insert(sectionMembers).values({
      sectionId: section!.id,
      userId: ctx.user!.id,
      role: 'student',
      addDropDate: new Date('2026-09-15T04:00:00Z'),
      rsCoursememberId: unique('RSM'),
    });
  }

  it('a rental ending within the course is refused, naming the course’s last day; a lifetime copy is not', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await courtesySection(ctx, book.productId);
    await expect(
      putInCart(ctx, { userId: ctx.user!.id }, { offeringId: book.rental }),
    ).rejects.toMatchObject({
      messageKey: 'purchase.refused.throughCourse',
      params: { date: '2027-05-15' },
    });
    await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: book.lifetime });
    await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: book.print });
    expect((await reconcileCart(ctx, { userId: ctx.user!.id })).removed).toEqual([]);
  });
});

describe('issue 19: the cart API asks the same rule', () => {
  it('GET /api/cart takes out a line the shopper owns and names it in meta.removed', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: book.rental });
    await own(ctx, book.productId, null);
    const web = testWebContext(database, { user: ctx.user, now });
    const response = await handleApiRequest(new Request('http://localhost/api/cart'), web);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      data: unknown[];
      meta: { subtotal: number; removed: { refusal: { reason: string } }[] };
    };
    expect(body.data).toEqual([]);
    expect(body.meta.subtotal).toBe(0);
    expect(body.meta.removed.map((r) => r.refusal.reason)).toEqual([
      'purchase.refused.ownedForLife',
    ]);
  });

  it('POST /api/cart/items answers 409 with the reason in the shopper’s language', async () => {
    const ctx = await student();
    const book = await bookWithThreeOfferings();
    await own(ctx, book.productId, null);
    const web = testWebContext(database, { user: ctx.user, now, locale: 'fr-CA' });
    web.anonymousKey = null;
    const response = await handleApiRequest(
      new Request('http://localhost/api/cart/items', {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify({
          data: { type: 'cart-item', attributes: { offeringId: book.rental } },
        }),
      }),
      web,
    );
    expect(response.status).toBe(409);
    expect(JSON.stringify(await response.json())).toContain('Vous possédez déjà ce titre à vie.');
  });
});
