import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { collectionItems, offerings } from '#db/schema/catalog.ts';
import { cartItems, carts } from '#db/schema/commerce.ts';
import { courseSections, courses, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { classroomAccessFor } from '#domain/access/classroom.ts';
import { entitlementOf, type FactsFrom } from '#domain/access/entitlement-facts.ts';
import { forgetAccounts, loadSessionUser } from '#domain/accounts/service.ts';
import { cartLineCount, putInCart, removeFromCart } from '#domain/commerce/cart.ts';
import { payOrder } from '#domain/commerce/checkout.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import { buyableOfferings } from '#domain/commerce/purchase-check.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import { optOut } from '#domain/courses/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { clearTimedCaches, forgetProducts } from '#domain/shared/timed-cache.ts';
import { readNotification } from '#server/page-cache.ts';
import { insertProduct } from '#tests/builders.ts';
import { contextAt, openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 40, "Buying never slows browsing": a logged-in product page reads what the visitor
// holds and their cart's count from per-process caches (domain/access/holdings.ts,
// entitlement-facts.ts productAccessFacts, commerce/cart.ts). Every fact stays exact:
// - in the process that wrote it, the very next read shows the change;
// - in another process, the change's notification (migrations 0007, 0050) forgets it, and the
//   next read there shows it. Such a process is played here by writing with SQL alone (no
//   service forgets anything) and handing the notifications to what server/app.ts does with
//   them; until then the read is the cached one, which shows the cache is what answers;
// - what depends on time (a rental's end) is asked of the cached rows at each request's `now`.
// Every cached answer is also checked against the same rule reading the database.
let database: DatabaseHandle;
let gateway: TestGateway;
let stopListening: () => Promise<void>;
const received: string[] = [];
beforeAll(async () => {
  database = await openTestDatabase();
  gateway = new TestGateway(database.db);
  stopListening = await database.listen('shelfmark_cache', (payload) => {
    if (payload) received.push(payload);
  });
});
afterAll(async () => {
  await stopListening?.();
  await database?.close();
});

/** What server/app.ts does with each notification, in another process. */
function handle(payload: string): void {
  const notice = readNotification(payload);
  if (notice.kind === 'accounts') forgetAccounts(notice.userIds);
  else if (notice.kind === 'products') forgetProducts(notice.ids);
  else clearTimedCaches();
}

/** Waits for a notification naming this user (or product), then handles all received so far. */
async function heard(prefix: 'u' | 'p', id: number): Promise<void> {
  const names = (p: string) =>
    p.startsWith(`${prefix}:`) && p.slice(2).split(',').includes(`${id}`);
  for (let i = 0; i < 200 && !received.some(names); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(received.some(names), `no ${prefix}:${id} among ${JSON.stringify(received)}`).toBe(true);
  for (const payload of received.splice(0)) handle(payload);
}

const now = new Date();
const HOUR = 3_600_000;

async function shopper(): Promise<RequestContext> {
  const [row] = await database.db
    .insert(users)
    .values({ email: `${unique('personal')}@example.test`, firstName: 'P' })
    .returning({ id: users.id });
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  return testContext(database.db, { user, now });
}

async function book(): Promise<{ productId: number; offeringId: number }> {
  const productId = await insertProduct(database.db, { title: unique('Personal') });
  const [offer] = await database.db
    .select({ id: offerings.id })
    .from(offerings)
    .where(eq(offerings.productId, productId));
  return { productId, offeringId: offer!.id };
}

/** What the product page shows of the visitor, from the caches and from the database. */
async function shown(ctx: RequestContext, productId: number) {
  const offers = await database.db
    .select({ id: offerings.id, type: offerings.type, durationDays: offerings.durationDays })
    .from(offerings)
    .where(eq(offerings.productId, productId));
  const product = { id: productId, productType: 'book', status: 'active', offerings: offers };
  const read = async (from: FactsFrom) => {
    const [{ decision }, buying] = await Promise.all([
      entitlementOf(ctx, productId, {}, from),
      buyableOfferings(ctx, product, from),
    ]);
    return {
      opens: decision.ok ? decision.via : decision.reason,
      buyable: buying.offerings.map((offer) => offer.id),
    };
  };
  const cached = await read('cache');
  return { cached, database: await read('database') };
}

async function opens(ctx: RequestContext, productId: number) {
  const { cached, database: fromDatabase } = await shown(ctx, productId);
  expect(cached).toEqual(fromDatabase);
  return cached.opens;
}

async function lineCountInDatabase(userId: number): Promise<number> {
  const rows = await database.db
    .select({ id: cartItems.id })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .where(eq(carts.userId, userId));
  return rows.length;
}

describe('the cart count each process keeps', () => {
  it('add to cart and remove: the next read in this process shows the change', async () => {
    const ctx = await shopper();
    const owner = { userId: ctx.user!.id };
    const { offeringId } = await book();
    expect(await cartLineCount(database.db, owner)).toBe(0);
    const itemId = await putInCart(ctx, owner, { offeringId });
    expect(await cartLineCount(database.db, owner)).toBe(1);
    await removeFromCart(database.db, owner, itemId);
    expect(await cartLineCount(database.db, owner)).toBe(0);
  });

  it('another process: a line written elsewhere shows once its notification is heard (0050)', async () => {
    const ctx = await shopper();
    const userId = ctx.user!.id;
    const owner = { userId };
    const { offeringId } = await book();
    await putInCart(ctx, owner, { offeringId });
    expect(await cartLineCount(database.db, owner)).toBe(1);
    const second = await book();
    await heard('u', userId);
    expect(await cartLineCount(database.db, owner)).toBe(1);
    const [cart] = await database.db.select().from(carts).where(eq(carts.userId, userId));
    await database.db.insert(cartItems).values({
      cartId: cart!.id,
      productId: second.productId,
      offeringId: second.offeringId,
      isDigital: true,
      isPrint: false,
    });
    // Not heard yet: the kept count answers.
    expect(await cartLineCount(database.db, owner)).toBe(1);
    await heard('u', userId);
    expect(await cartLineCount(database.db, owner)).toBe(2);
    await database.db.delete(cartItems).where(eq(cartItems.cartId, cart!.id));
    await heard('u', userId);
    expect(await cartLineCount(database.db, owner)).toBe(0);
    expect(await lineCountInDatabase(userId)).toBe(0);
  });
});

describe('what the visitor holds, kept per process', () => {
  it('a purchase in this process: the next read opens it, offers nothing more, empties the cart', async () => {
    const ctx = await shopper();
    const owner = { userId: ctx.user!.id };
    const { productId, offeringId } = await book();
    expect(await opens(ctx, productId)).toBe('access.reason.notEntitled');
    expect((await shown(ctx, productId)).cached.buyable).toEqual([offeringId]);
    await putInCart(ctx, owner, { offeringId });
    expect(await cartLineCount(database.db, owner)).toBe(1);
    const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('personal') });
    const card = { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };
    expect(await payOrder(ctx, gateway, { orderId, method: { kind: 'card', card } })).toEqual({
      ok: true,
    });
    expect(await opens(ctx, productId)).toBe('ownership');
    expect((await shown(ctx, productId)).cached.buyable).toEqual([]);
    expect(await cartLineCount(database.db, owner)).toBe(0);
  });

  it('another process: a revocation (a refund) shows once its notification is heard (0007)', async () => {
    const ctx = await shopper();
    const userId = ctx.user!.id;
    const { productId } = await book();
    await database.db.insert(ownerships).values({
      userId,
      productId,
      source: 'purchase',
      startsAt: new Date(now.getTime() - HOUR),
    });
    await heard('u', userId);
    expect(await opens(ctx, productId)).toBe('ownership');
    await database.db
      .update(ownerships)
      .set({ revokedAt: new Date(now.getTime() - 1), revokedReason: 'refund' })
      .where(and(eq(ownerships.userId, userId), eq(ownerships.productId, productId)));
    expect((await shown(ctx, productId)).cached.opens).toBe('ownership');
    await heard('u', userId);
    expect(await opens(ctx, productId)).toBe('access.reason.revoked');
  });

  it("a rental's end is asked at each request's time, not when the rows were kept", async () => {
    const ctx = await shopper();
    const { productId } = await book();
    await database.db.insert(ownerships).values({
      userId: ctx.user!.id,
      productId,
      source: 'purchase',
      startsAt: new Date(now.getTime() - HOUR),
      expiresAt: new Date(now.getTime() + HOUR),
    });
    await heard('u', ctx.user!.id);
    expect(await opens(ctx, productId)).toBe('ownership');
    // No write, no notification: two hours later the same kept rows say it ended.
    expect(await opens(contextAt(ctx, new Date(now.getTime() + 2 * HOUR)), productId)).toBe(
      'reading.error.expired',
    );
  });

  it("another process: a collection's new item shows once its product notification is heard", async () => {
    const ctx = await shopper();
    const collectionId = await insertProduct(database.db, { productType: 'collection' });
    const { productId } = await book();
    await database.db.insert(ownerships).values({
      userId: ctx.user!.id,
      productId: collectionId,
      source: 'purchase',
      startsAt: new Date(now.getTime() - HOUR),
    });
    await heard('u', ctx.user!.id);
    expect(await opens(ctx, productId)).toBe('access.reason.notEntitled');
    await database.db.insert(collectionItems).values({ collectionId, itemId: productId });
    await heard('p', collectionId);
    expect(await opens(ctx, productId)).toBe('collection');
  });
});

describe('sections: joining, leaving, dates, materials and opting', () => {
  async function courseSection(userId: number, productId: number) {
    const [org] = await database.db
      .insert(organizations)
      .values({ title: unique('Org') })
      .returning({ id: organizations.id });
    const [course] = await database.db
      .insert(courses)
      .values({
        orgId: org!.id,
        name: 'Chemistry',
        department: 'CHEM',
        number: '101',
        courseType: 'inclusive_access',
      })
      .returning({ id: courses.id });
    const [section] = await database.db
      .insert(courseSections)
      .values({
        courseId: course!.id,
        name: 'CHEM 101 - 001',
        rsCourseId: unique('RSC'),
        startDate: '2020-01-01',
        endDate: '2099-12-31',
        addDropAt: new Date(now.getTime() + 240 * HOUR),
        timeZone: 'UTC',
      })
      .returning({ id: courseSections.id });
    await database.db.insert(sectionProducts).values({ sectionId: section!.id, productId });
    const [member] = await database.db
      .insert(sectionMembers)
      .values({
        sectionId: section!.id,
        userId,
        role: 'student',
        isCourseFee: true,
        addDropDate: new Date(now.getTime() + 240 * HOUR),
        rsCoursememberId: unique('RSM'),
      })
      .returning({ id: sectionMembers.id });
    return { sectionId: section!.id, memberId: member!.id };
  }

  it('another process: joining, the dates, the materials and leaving each show once heard', async () => {
    const ctx = await shopper();
    const userId = ctx.user!.id;
    const { productId } = await book();
    expect(await opens(ctx, productId)).toBe('access.reason.notEntitled');
    const { sectionId, memberId } = await courseSection(userId, productId);
    expect((await shown(ctx, productId)).cached.opens).toBe('access.reason.notEntitled');
    await heard('u', userId);
    expect(await opens(ctx, productId)).toBe('courseFee');

    // The section ended (0050: a section's row names its members).
    await database.db
      .update(courseSections)
      .set({ startDate: '2020-01-01', endDate: '2020-06-30' })
      .where(eq(courseSections.id, sectionId));
    await heard('u', userId);
    expect(await opens(ctx, productId)).toBe('access.reason.termEnded');
    await database.db
      .update(courseSections)
      .set({ endDate: '2099-12-31' })
      .where(eq(courseSections.id, sectionId));
    await heard('u', userId);
    expect(await opens(ctx, productId)).toBe('courseFee');

    // The material taken off the section (0050: section_products names the members).
    await database.db.delete(sectionProducts).where(eq(sectionProducts.sectionId, sectionId));
    await heard('u', userId);
    expect(await opens(ctx, productId)).toBe('access.reason.notEntitled');
    await database.db.insert(sectionProducts).values({ sectionId, productId });
    await heard('u', userId);
    expect(await opens(ctx, productId)).toBe('courseFee');

    // Leaving (0007: section_members names the member).
    await database.db.delete(sectionMembers).where(eq(sectionMembers.id, memberId));
    await heard('u', userId);
    expect(await opens(ctx, productId)).toBe('access.reason.notEntitled');
  });

  it('opting out in this process: the next read says so', async () => {
    const ctx = await shopper();
    const userId = ctx.user!.id;
    const { productId } = await book();
    const { memberId } = await courseSection(userId, productId);
    await heard('u', userId);
    expect(await opens(ctx, productId)).toBe('courseFee');
    const outcome = await optOut(ctx, memberId, { reason: 1, message: '' });
    expect(outcome.ok).toBe(true);
    expect(await opens(ctx, productId)).toBe('access.reason.optedOut');
  });

  it('a classroom: the cached answer is the database one, for its instructor and an owner', async () => {
    const teacher = await shopper();
    const student = await shopper();
    const classroom = await insertProduct(database.db, { productType: 'classroom' });
    const { sectionId } = await courseSection(student.user!.id, classroom);
    await database.db.insert(sectionMembers).values({
      sectionId,
      userId: teacher.user!.id,
      role: 'professor',
      addDropDate: now,
      rsCoursememberId: unique('RSM'),
    });
    await database.db.insert(ownerships).values({
      userId: student.user!.id,
      productId: classroom,
      source: 'purchase',
      startsAt: new Date(now.getTime() - HOUR),
      isSectionCodeConfirmed: true,
      classroomSectionId: sectionId,
    });
    await heard('u', student.user!.id);
    for (const ctx of [teacher, student]) {
      const cached = await classroomAccessFor(ctx, classroom, 'cache');
      expect(cached).toEqual(await classroomAccessFor(ctx, classroom, 'database'));
      expect(cached).toMatchObject({ canEnter: true, sectionId });
    }
    expect((await classroomAccessFor(teacher, classroom, 'cache')).asInstructor).toBe(true);
  });
});
