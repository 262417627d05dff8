import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import type { DatabaseHandle } from '#db/client.ts';
import { offerings } from '#db/schema/catalog.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import type { WebContext } from '#server/load-context.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testWebContext, unique } from '#tests/database.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function newUser(): Promise<SessionUser> {
  const userId = await createUser(database.db, {
    email: `${unique('cart-api')}@example.test`,
    password: 'pw-123456',
    firstName: 'C',
    lastName: 'A',
  });
  return (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
}

function asUser(user: SessionUser, locale: 'en' | 'fr-CA' = 'en'): WebContext {
  return testWebContext(database, { user, locale });
}

function asVisitor(anonymousKey: string | null): WebContext {
  return { ...testWebContext(database), anonymousKey };
}

async function firstOffering(productId: number): Promise<number> {
  const [row] = await database.db
    .select({ id: offerings.id })
    .from(offerings)
    .where(eq(offerings.productId, productId));
  return row!.id;
}

const addBody = (attributes: Record<string, unknown>) =>
  JSON.stringify({ data: { type: 'cart-item', attributes } });

const add = (context: WebContext, body: string) =>
  handleApiRequest(
    new Request('http://localhost/api/cart/items', {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/vnd.api+json' },
    }),
    context,
  );

const remove = (context: WebContext, id: string | number) =>
  handleApiRequest(
    new Request(`http://localhost/api/cart/items/${id}`, { method: 'DELETE' }),
    context,
  );

type CartDocument = {
  data: { id: string; attributes: { productId: number; offeringId: number } }[];
  meta: { subtotal: number };
};

async function cartOf(context: WebContext): Promise<CartDocument> {
  const response = await handleApiRequest(new Request('http://localhost/api/cart'), context);
  expect(response.status).toBe(200);
  return response.json();
}

const contents = async (context: WebContext) =>
  (await cartOf(context)).data.map((item) => [
    item.attributes.productId,
    item.attributes.offeringId,
  ]);

describe('POST /api/cart/items (spec 2 §7 Cart: create)', () => {
  it('puts the offering in the cart and answers 201 with the new item', async () => {
    const context = asUser(await newUser());
    const productId = await insertProduct(
      database.db,
      { title: 'Cart API Book' },
      { priceCents: 1234 },
    );
    const offeringId = await firstOffering(productId);
    const response = await add(context, addBody({ offeringId }));
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/vnd.api+json');
    const body = await response.json();
    // Issue 13: a 201 names what it created.
    expect(response.headers.get('location')).toBe(`/api/cart/items/${body.data.id}`);
    expect(body.data).toMatchObject({
      type: 'cart-item',
      attributes: {
        productId,
        offeringId,
        // An unknown course id is dropped rather than stored (knownSection).
        courseId: null,
        isDigital: true,
        isPrint: false,
        title: 'Cart API Book',
        price: 1234,
        currencyCode: 'USD',
      },
    });
    const cart = await cartOf(context);
    expect(cart.data.map((item) => item.id)).toEqual([body.data.id]);
    expect(cart.meta.subtotal).toBe(1234);
  });

  it('spec 1 §4 Update Cart: another offering of the same product replaces the item', async () => {
    const context = asUser(await newUser());
    const productId = await insertProduct(database.db, {}, { priceCents: 1000 });
    const first = await firstOffering(productId);
    const [combo] = await database.db
      .insert(offerings)
      .values({ productId, type: 'combo', bookType: 'combo', priceCents: 3000 })
      .returning({ id: offerings.id });
    expect((await add(context, addBody({ offeringId: first }))).status).toBe(201);
    const response = await add(context, addBody({ offeringId: combo!.id, courseId: 2_000_000 }));
    expect(response.status).toBe(201);
    expect((await response.json()).data.attributes).toMatchObject({
      isDigital: true,
      isPrint: true,
    });
    expect(await contents(context)).toEqual([[productId, combo!.id]]);
  });

  it("an anonymous shopper adds to their browser's cart; without a cart the write is refused", async () => {
    const productId = await insertProduct(database.db);
    const offeringId = await firstOffering(productId);
    const visitor = asVisitor(unique('anon-cart-api-0123456789'));
    expect((await add(visitor, addBody({ offeringId }))).status).toBe(201);
    expect(await contents(visitor)).toEqual([[productId, offeringId]]);

    const nobody = asVisitor(null);
    const refused = await add(nobody, addBody({ offeringId }));
    expect(refused.status).toBe(403);
    expect((await refused.json()).errors[0]).toMatchObject({
      code: 'error.csrf',
      detail: 'Your session has expired. Please reload the page and try again.',
    });
  });

  it.each([
    ['not JSON', '{data'],
    ['no data', '{}'],
    ['another type', JSON.stringify({ data: { type: 'payment', attributes: { offeringId: 1 } } })],
    ['no offering', addBody({})],
    ['an offering id as text', addBody({ offeringId: '12' })],
    ['a negative offering id', addBody({ offeringId: -3 })],
    ['a fractional offering id', addBody({ offeringId: 1.5 })],
    ['an offering id past the integer range', addBody({ offeringId: 2 ** 31 })],
    ['a course id as text', addBody({ offeringId: 1, courseId: 'bio' })],
    ['flags the server decides', addBody({ offeringId: 1, isDigital: true, isPrint: true })],
    ['a huge body', addBody({ offeringId: 1, note: 'x'.repeat(200_000) })],
  ])('with %s is a 400 in the user language and changes nothing', async (_name, body) => {
    const context = asUser(await newUser(), 'fr-CA');
    const response = await add(context, body);
    expect(response.status).toBe(400);
    const json = await response.json();
    expect(json.errors[0].code).toBe('error.invalid');
    expect(json.errors[0].detail).toMatch(/pas valide/);
    expect(await contents(context)).toEqual([]);
  });

  it('spec 2 §7: a refused add changes nothing and answers the translated reason', async () => {
    const context = asUser(await newUser());
    const kept = await insertProduct(database.db, {}, { priceCents: 800 });
    const keptOffering = await firstOffering(kept);
    expect((await add(context, addBody({ offeringId: keptOffering }))).status).toBe(201);
    const before = await contents(context);

    const unknown = await add(context, addBody({ offeringId: 2_000_000_000 }));
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).errors[0]).toMatchObject({
      code: 'cart.error.offering',
      detail: 'This offering is no longer available. Please choose another one.',
    });

    const withdrawn = await insertProduct(database.db, { status: 'withdrawn' });
    const refused = await add(context, addBody({ offeringId: await firstOffering(withdrawn) }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).errors[0].detail).toBe(
      'Sorry, this product is unavailable for purchase.',
    );

    // Update Cart to an offering that is no longer sold keeps the item that was there.
    const [inactive] = await database.db
      .insert(offerings)
      .values({
        productId: kept,
        type: 'digital',
        bookType: 'digital',
        priceCents: 1,
        isActive: false,
      })
      .returning({ id: offerings.id });
    expect((await add(context, addBody({ offeringId: inactive!.id }))).status).toBe(404);

    expect(await contents(context)).toEqual(before);
  });
});

describe('DELETE /api/cart/items/{id} (spec 2 §7 Cart: delete)', () => {
  it('removes the item: 204, and the cart no longer lists it; a second delete is a 404', async () => {
    const context = asUser(await newUser());
    const productId = await insertProduct(database.db);
    const created = await (
      await add(context, addBody({ offeringId: await firstOffering(productId) }))
    ).json();
    const response = await remove(context, created.data.id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(await contents(context)).toEqual([]);
    expect((await remove(context, created.data.id)).status).toBe(404);
  });

  it("another shopper's item is not found and stays in their cart", async () => {
    const alice = asUser(await newUser());
    const bob = asUser(await newUser(), 'fr-CA');
    // Bob has a cart of his own, so the item is looked for there and not found.
    const own = await insertProduct(database.db);
    await add(bob, addBody({ offeringId: await firstOffering(own) }));
    const productId = await insertProduct(database.db);
    const created = await (
      await add(alice, addBody({ offeringId: await firstOffering(productId) }))
    ).json();

    const response = await remove(bob, created.data.id);
    expect(response.status).toBe(404);
    expect((await response.json()).errors[0].detail).toBe('Rien n’a été trouvé à cette adresse.');
    expect(await contents(alice)).toHaveLength(1);
    // An anonymous browser cannot reach it either.
    expect(
      (await remove(asVisitor(unique('anon-cart-api-0123456789')), created.data.id)).status,
    ).toBe(404);
    expect(await contents(alice)).toHaveLength(1);
  });

  it.each([
    ['text', 'abc'],
    ['zero', '0'],
    ['a negative id', '-1'],
    ['a leading zero', '01'],
    ['a fraction', '1.5'],
    ['an exponent', '1e3'],
    ['hexadecimal', '0x10'],
    ['past the integer range', '2147483648'],
    ['eleven digits', '99999999999'],
    ['an encoded space', '%201'],
  ])('a malformed id (%s) is a translated 404, never a 500', async (_name, id) => {
    const context = asUser(await newUser(), 'fr-CA');
    const response = await remove(context, id);
    expect(response.status).toBe(404);
    const json = await response.json();
    expect(json.errors[0]).toMatchObject({ code: 'error.api.notFound' });
    expect(json.errors[0].detail).toBe('Rien n’a été trouvé à cette adresse.');
  });

  it('only POST on the collection and DELETE on an item are allowed', async () => {
    const context = asUser(await newUser());
    const get = await handleApiRequest(new Request('http://localhost/api/cart/items'), context);
    expect(get.status).toBe(405);
    const put = await handleApiRequest(
      new Request('http://localhost/api/cart/items/1', { method: 'PUT', body: '{}' }),
      context,
    );
    expect(put.status).toBe(405);
  });
});
