import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { offerings } from '#db/schema/catalog.ts';
import { createUser } from '#domain/accounts/service.ts';
import {
  cartLines,
  mergeAnonymousCart,
  putInCart,
  removeFromCart,
  subtotalCents,
} from '#domain/commerce/cart.ts';
import { Invalid, NotFound } from '#domain/shared/errors.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { action as cartAction } from '#web/commerce/cart.tsx';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function userId() {
  return createUser(database.db, {
    email: `${unique('cart')}@example.test`,
    password: 'pw-123456',
    firstName: 'C',
    lastName: 'C',
  });
}

async function offeringsOf(productId: number) {
  return database.db
    .select({ id: offerings.id })
    .from(offerings)
    .where(eq(offerings.productId, productId));
}

// Issue 4, Cart (spec 1 §4 Cart button, §3 Cart item).
describe('cart', () => {
  it('adds an offering, and Update Cart replaces it with another of the same product', async () => {
    const ctx = testContext(database.db);
    const owner = { userId: await userId() };
    const productId = await insertProduct(ctx.db, {}, { priceCents: 1500 });
    const [combo] = await ctx.db
      .insert(offerings)
      .values({ productId, type: 'combo', bookType: 'combo', priceCents: 4000 })
      .returning({ id: offerings.id });
    const [digital] = await offeringsOf(productId);
    await putInCart(ctx, owner, { offeringId: digital!.id });
    await putInCart(ctx, owner, { offeringId: combo!.id, courseSectionId: null });
    const lines = await cartLines(ctx.db, owner);
    expect(lines.map((l) => [l.offeringId, l.isDigital, l.isPrint])).toEqual([
      [combo!.id, true, true],
    ]);
    expect(subtotalCents(lines)).toBe(4000);
  });

  it('refuses an unknown offering and a withdrawn product, leaving the cart as it was', async () => {
    const ctx = testContext(database.db);
    const owner = { userId: await userId() };
    const kept = await insertProduct(ctx.db, {}, { priceCents: 900 });
    const [keptOffer] = await offeringsOf(kept);
    await putInCart(ctx, owner, { offeringId: keptOffer!.id });
    await expect(putInCart(ctx, owner, { offeringId: 2_000_000_000 })).rejects.toBeInstanceOf(
      NotFound,
    );
    const withdrawn = await insertProduct(ctx.db, { status: 'withdrawn' }, { priceCents: 900 });
    const [withdrawnOffer] = await offeringsOf(withdrawn);
    await expect(putInCart(ctx, owner, { offeringId: withdrawnOffer!.id })).rejects.toBeInstanceOf(
      Invalid,
    );
    expect((await cartLines(ctx.db, owner)).map((l) => l.productId)).toEqual([kept]);
  });

  it("removing another shopper's item is not found and changes nothing", async () => {
    const ctx = testContext(database.db);
    const alice = { userId: await userId() };
    const bob = { userId: await userId() };
    const productId = await insertProduct(ctx.db, {}, { priceCents: 700 });
    const [offer] = await offeringsOf(productId);
    await putInCart(ctx, alice, { offeringId: offer!.id });
    const [line] = await cartLines(ctx.db, alice);
    await expect(removeFromCart(ctx.db, bob, line!.id)).rejects.toBeInstanceOf(NotFound);
    expect(await cartLines(ctx.db, alice)).toHaveLength(1);
    await removeFromCart(ctx.db, alice, line!.id);
    expect(await cartLines(ctx.db, alice)).toHaveLength(0);
  });

  it("an anonymous shopper's cart joins the account's on login", async () => {
    const ctx = testContext(database.db);
    const anonymousKey = unique('anon-key-0123456789');
    const user = await userId();
    const a = await insertProduct(ctx.db, {}, { priceCents: 1000 });
    const b = await insertProduct(ctx.db, {}, { priceCents: 2000 });
    const [offerA] = await offeringsOf(a);
    const [offerB] = await offeringsOf(b);
    await putInCart(ctx, { userId: user }, { offeringId: offerA!.id });
    await putInCart(ctx, { anonymousKey }, { offeringId: offerB!.id });
    await mergeAnonymousCart(ctx, anonymousKey, user);
    const lines = await cartLines(ctx.db, { userId: user });
    expect(lines.map((l) => l.productId).sort()).toEqual([a, b].sort());
    expect(await cartLines(ctx.db, { anonymousKey })).toEqual([]);
  });
});

// Issue 18: an id in the cart form is decimal digits; '0x10' is not offering 16.
describe('the cart form (POST /cart)', () => {
  async function post(anonymousKey: string, fields: Record<string, string>) {
    try {
      const answer = await cartAction({
        request: new Request('http://localhost/cart', {
          method: 'POST',
          body: new URLSearchParams(fields),
        }),
        context: { ...testWebContext(database), anonymousKey },
        params: {},
      } as unknown as Parameters<typeof cartAction>[0]);
      return answer instanceof Response ? answer.status : 200;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown.status;
      return (thrown as { init?: { status?: number } }).init?.status ?? -1;
    }
  }

  it.each([
    ['hexadecimal', (id: number) => `0x${id.toString(16)}`],
    ['an exponent', (id: number) => `${id}e0`],
    ['a fraction', (id: number) => `${id}.0`],
    ['a sign', (id: number) => `+${id}`],
    ['a leading zero', (id: number) => `0${id}`],
  ])('an offering id in %s is a 400 and the cart stays empty', async (_name, spell) => {
    const anonymousKey = unique('anon-cart-form-0123456789');
    const [offering] = await offeringsOf(await insertProduct(database.db));
    const id = offering!.id;
    // Number() (and zod's coerce) read each spelling as this very offering.
    expect(Number(spell(id))).toBe(id);
    expect(await post(anonymousKey, { intent: 'add', offeringId: spell(id) })).toBe(400);
    expect(await cartLines(database.db, { anonymousKey })).toEqual([]);
    expect(await post(anonymousKey, { intent: 'add', offeringId: String(id) })).toBe(302);
    expect((await cartLines(database.db, { anonymousKey })).map((l) => l.offeringId)).toEqual([id]);
  });

  it('a cart item id in hexadecimal is a 400, and the item stays', async () => {
    const anonymousKey = unique('anon-cart-form-0123456789');
    const productId = await insertProduct(database.db);
    const [offering] = await offeringsOf(productId);
    await putInCart(testContext(database.db), { anonymousKey }, { offeringId: offering!.id });
    const [line] = await cartLines(database.db, { anonymousKey });
    const hex = `0x${line!.id.toString(16)}`;
    expect(await post(anonymousKey, { intent: 'remove', cartItemId: hex })).toBe(400);
    expect(await cartLines(database.db, { anonymousKey })).toHaveLength(1);
  });
});
