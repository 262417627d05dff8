import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { courseSections, courses, sectionProducts } from '#db/schema/courses.ts';
import { organizations } from '#db/schema/sites.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import {
  cancelOrder,
  moveOrder,
  placeOrder,
  recordSuccessfulPayment,
} from '#domain/commerce/orders.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 13: Best Sellers and Campus Favorites never changed: the counters the schema says are
// maintained on order paid and on course adoption were never updated.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function counters(productId: number) {
  const [row] = await database.db
    .select({ sales: products.salesCount, adoptions: products.adoptionCount })
    .from(products)
    .where(eq(products.id, productId));
  return row!;
}

async function pendingOrderFor(productIds: number[]) {
  const userId = await createUser(database.db, {
    email: `${unique('sales')}@example.test`,
    password: 'pw-123456',
    firstName: 'S',
    lastName: 'S',
  });
  const user = (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
  const ctx = testContext(database.db, { user });
  for (const productId of productIds) {
    const [offer] = await ctx.db
      .select({ id: offerings.id })
      .from(offerings)
      .where(eq(offerings.productId, productId));
    await putInCart(ctx, { userId }, { offeringId: offer!.id });
  }
  const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('checkout') });
  return { ctx, orderId };
}

describe('Best Sellers: sales counted on pay, not on cancel, taken back on refund', () => {
  it('a paid order counts one sale for each of its products, once', async () => {
    const first = await insertProduct(database.db, {}, { priceCents: 1000 });
    const second = await insertProduct(database.db, {}, { priceCents: 500 });
    const { orderId } = await pendingOrderFor([first, second]);
    expect((await counters(first)).sales).toBe(0);
    const pay = () =>
      recordSuccessfulPayment(database.db, {
        orderId,
        gateway: 'test',
        gatewayRef: `pi_${orderId}`,
        amountCents: 1500,
        now: new Date(),
      });
    await pay();
    await pay();
    expect((await counters(first)).sales).toBe(1);
    expect((await counters(second)).sales).toBe(1);
    // Fulfilled (digital items) still counts once; a refund takes it back.
    expect(
      await moveOrder(database.db, {
        orderId,
        from: 'fulfilled',
        to: 'refunded',
        now: new Date(),
      }),
    ).toBe(true);
    expect((await counters(first)).sales).toBe(0);
    expect((await counters(second)).sales).toBe(0);
  });

  it('a canceled order never counted', async () => {
    const productId = await insertProduct(database.db, {}, { priceCents: 700 });
    const { orderId } = await pendingOrderFor([productId]);
    expect(await cancelOrder(database.db, { orderId, reason: 'test', now: new Date() })).toBe(true);
    expect((await counters(productId)).sales).toBe(0);
  });
});

describe('Campus Favorites: adoptions counted by the database (migration 0011)', () => {
  it('adding a material to sections counts each section; removing it takes it back', async () => {
    const productId = await insertProduct(database.db);
    const [org] = await database.db
      .insert(organizations)
      .values({ title: unique('Org') })
      .returning({ id: organizations.id });
    const [course] = await database.db
      .insert(courses)
      .values({ orgId: org!.id, name: 'Counting', department: 'CNT', number: '101' })
      .returning({ id: courses.id });
    const sectionIds: number[] = [];
    for (const n of [1, 2, 3]) {
      const [section] = await database.db
        .insert(courseSections)
        .values({
          courseId: course!.id,
          name: `Counting 101 - 00${n}`,
          rsCourseId: unique('RS'),
          startDate: '2026-08-25',
          endDate: '2026-12-15',
          addDropAt: new Date('2026-09-10T04:00:00Z'),
        })
        .returning({ id: courseSections.id });
      sectionIds.push(section!.id);
    }
    await database.db
      .insert(sectionProducts)
      .values(sectionIds.map((sectionId) => ({ sectionId, productId })));
    expect((await counters(productId)).adoptions).toBe(3);
    await database.db.delete(sectionProducts).where(eq(sectionProducts.sectionId, sectionIds[0]!));
    expect((await counters(productId)).adoptions).toBe(2);
    // Deleting a section drops its materials (cascade) and their adoptions.
    await database.db.delete(courseSections).where(eq(courseSections.id, sectionIds[1]!));
    expect((await counters(productId)).adoptions).toBe(1);
  });
});
