import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import type { DatabaseHandle } from '#db/client.ts';
import { bookFiles, collectionItems, offerings } from '#db/schema/catalog.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import { ownedProducts } from '#domain/shelf/service.ts';
import type { WebContext } from '#server/load-context.ts';
import { insertProduct, uniqueDigits } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { parseCatalogItemDocument } from '#web/utils/catalog-item-document.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

function webContext(overrides: Partial<WebContext['rc']> = {}): WebContext {
  return testWebContext(database, overrides);
}

const get = (path: string, context = webContext()) =>
  handleApiRequest(new Request(`http://localhost${path}`), context);

async function newUser(): Promise<SessionUser> {
  const userId = await createUser(database.db, {
    email: `${unique('sheet')}@example.test`,
    password: 'pw-123456',
    firstName: 'S',
    lastName: 'S',
  });
  return (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
}

type Included = { type: string; id: string; attributes: Record<string, unknown> };

describe('GET /api/catalog-items/{id} (spec 2 §7 Catalog item)', () => {
  it('returns the catalog item with product, offerings, availabilities, items and book files', async () => {
    const isbn = uniqueDigits();
    const item = await insertProduct(database.db, { title: 'Sheet Item' }, { priceCents: 1500 });
    const id = await insertProduct(
      database.db,
      { productType: 'collection', title: 'Sheet Collection', edition: '2nd', numPages: 120 },
      { priceCents: 4999, identifiers: [{ type: 'ISBN13', value: isbn }] },
    );
    await database.db.insert(collectionItems).values({ collectionId: id, itemId: item });
    await database.db.insert(bookFiles).values({
      productId: id,
      title: 'Guide',
      extension: 'pdf',
      type: 'DOC',
      mediaType: 'application/pdf',
      storagePath: 'x/guide.pdf',
      byteSize: 10,
      sha256: '0'.repeat(64),
    });

    const response = await get(`/api/catalog-items/${id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.api+json');
    const body = await response.json();
    expect(body.data).toMatchObject({
      type: 'catalog-item',
      id: String(id),
      attributes: {
        name: 'Sheet Collection',
        productType: 'collection',
        isbn,
        mediumImage: expect.stringMatching(
          new RegExp(`^/covers/${id}-600\\.webp\\?v=g\\d+[0-9a-f]{12}$`),
        ),
        thumbnailImage: expect.stringMatching(
          new RegExp(`^/covers/${id}-192\\.webp\\?v=g\\d+[0-9a-f]{12}$`),
        ),
      },
    });
    expect(body.data.attributes.canonicalUrl).toMatch(
      new RegExp(`^http://localhost/collection/${id}/`),
    );
    const included = body.included as Included[];
    const find = (type: string, rid: string | number) =>
      included.find((r) => r.type === type && r.id === String(rid))?.attributes;
    expect(find('product', id)).toMatchObject({ edition: '2nd', numPages: 120, language: 'en' });
    const [offeringRef] = body.data.relationships.offerings.data;
    expect(find('offering', offeringRef.id)).toMatchObject({ price: 4999, currencyCode: 'USD' });
    expect(find('user-availability', id)).toEqual({
      isOwned: false,
      inCart: false,
      showFree: false,
    });
    expect(find('channel-availability', id)).toEqual({
      availabilityStatus: 'active',
      unavailableReason: null,
    });
    expect(find('collection-item', item)).toMatchObject({ title: 'Sheet Item', productId: item });
    const [fileRef] = body.data.relationships.bookFiles.data;
    expect(find('book-file', fileRef.id)).toEqual({
      title: 'Guide',
      extension: 'pdf',
      type: 'DOC',
    });
    // The side sheet reads the same document back into its view.
    const sheet = parseCatalogItemDocument(body);
    expect(sheet.collectionItems.map((i) => i.id)).toEqual([item]);
    expect(sheet.offerings[0]).toMatchObject({ priceCents: 4999, currencyCode: 'USD' });
    expect(sheet.bookFiles).toEqual([
      { id: Number(fileRef.id), title: 'Guide', extension: 'pdf', type: 'DOC' },
    ]);
  });

  it('spec 1 §3 userAvailability: owned by the logged-in user while the ownership is active', async () => {
    const user = await newUser();
    const id = await insertProduct(database.db);
    const expired = await insertProduct(database.db);
    const now = new Date();
    await database.db.insert(ownerships).values([
      { userId: user.id, productId: id, source: 'purchase', startsAt: new Date(+now - 1000) },
      {
        userId: user.id,
        productId: expired,
        source: 'purchase',
        startsAt: new Date(+now - 10_000),
        expiresAt: new Date(+now - 1000),
      },
    ]);
    const availability = async (productId: number, context: WebContext) => {
      const body = await (await get(`/api/catalog-items/${productId}`, context)).json();
      return (body.included as Included[]).find((r) => r.type === 'user-availability')?.attributes;
    };
    expect(await availability(id, webContext({ user }))).toEqual({
      isOwned: true,
      inCart: false,
      showFree: false,
    });
    expect(await availability(expired, webContext({ user }))).toMatchObject({ isOwned: false });
    expect(await availability(id, webContext())).toMatchObject({ isOwned: false });
    // The library lists the same: the active ownership, not the expired one.
    const owned = await ownedProducts(testContext(database.db, { user }));
    expect(owned.map((o) => o.productId)).toEqual([id]);
  });

  it("spec 1 §3 userAvailability.inCart: in this shopper's cart, whose offering is the default (spec 1 §4)", async () => {
    const user = await newUser();
    const id = await insertProduct(database.db, {}, { priceCents: 500 });
    const [dearer] = await database.db
      .insert(offerings)
      .values({ productId: id, type: 'digital', bookType: 'digital', priceCents: 900 })
      .returning({ id: offerings.id });
    const anonymousKey = unique('anon-sheet-0123456789');
    await putInCart(
      testContext(database.db, { user }),
      { userId: user.id },
      {
        offeringId: dearer!.id,
      },
    );
    const sheetFor = async (context: WebContext) =>
      parseCatalogItemDocument(await (await get(`/api/catalog-items/${id}`, context)).json());

    const mine = await sheetFor(webContext({ user }));
    expect(mine.userAvailability).toEqual({ isOwned: false, inCart: true, showFree: false });
    // The offering already in the cart comes first, before the cheapest digital one.
    expect(mine.defaultOfferingId).toBe(dearer!.id);
    expect(mine.offeringPanel.disabled).toBe(true);

    const others = await sheetFor(webContext({ user: await newUser() }));
    expect(others.userAvailability.inCart).toBe(false);
    expect(others.defaultOfferingId).not.toBe(dearer!.id);

    // An anonymous browser's cart counts for that browser.
    await putInCart(testContext(database.db), { anonymousKey }, { offeringId: dearer!.id });
    const visitor = await sheetFor({ ...webContext(), anonymousKey });
    expect(visitor.userAvailability.inCart).toBe(true);
  });

  it('an unavailable product says why (spec 1 §4 Availability)', async () => {
    const id = await insertProduct(database.db, { status: 'withdrawn' });
    const body = await (await get(`/api/catalog-items/${id}`)).json();
    expect(
      (body.included as Included[]).find((r) => r.type === 'channel-availability')?.attributes,
    ).toEqual({ availabilityStatus: 'withdrawn', unavailableReason: 'removed' });
  });

  it('issue 13: showFree is the free-book rule of the product page, unavailability included', async () => {
    const showFree = async (id: number) =>
      ((await (await get(`/api/catalog-items/${id}`)).json()).included as Included[]).find(
        (r) => r.type === 'user-availability',
      )?.attributes?.showFree;
    expect(await showFree(await insertProduct(database.db, {}, { priceCents: 0 }))).toBe(true);
    expect(
      await showFree(await insertProduct(database.db, { status: 'withdrawn' }, { priceCents: 0 })),
    ).toBe(false);
    expect(await showFree(await insertProduct(database.db, {}, { priceCents: 1999 }))).toBe(false);
  });

  it.each([
    ['letters', 'abc'],
    ['zero', '0'],
    ['a leading zero', '012'],
    ['a negative number', '-5'],
    ['a decimal', '1.5'],
    ['an exponent', '1e3'],
    ['hexadecimal', '0x10'],
    ['above the integer range', '2147483648'],
    ['a huge number', '9'.repeat(400)],
    ['a huge string', 'x'.repeat(5000)],
    ['an encoded slash', '1%2F2'],
  ])('a malformed id (%s) is a 404 JSON:API error, never a 500', async (_name, raw) => {
    const response = await get(`/api/catalog-items/${raw}`);
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.errors[0]).toMatchObject({
      status: '404',
      code: 'error.api.notFound',
      detail: 'Nothing was found at this address.',
    });
  });

  it('an unknown or deleted id is a 404', async () => {
    expect((await get('/api/catalog-items/2147483647')).status).toBe(404);
    const deleted = await insertProduct(database.db, { status: 'deleted' });
    expect((await get(`/api/catalog-items/${deleted}`)).status).toBe(404);
  });

  it('errors are in the user language (fr-CA)', async () => {
    const response = await get('/api/catalog-items/nope', webContext({ locale: 'fr-CA' }));
    expect(response.status).toBe(404);
    expect((await response.json()).errors[0].detail).toBe('Rien n’a été trouvé à cette adresse.');
    const invalid = await get(
      '/api/catalog-items/1?ecommerce_course_id=x',
      webContext({ locale: 'fr-CA' }),
    );
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).errors[0].detail).toBe(
      'ecommerce_course_id doit être un nombre entier positif.',
    );
  });

  it('ecommerce_course_id is optional, a positive integer when given, and echoed in meta', async () => {
    const id = await insertProduct(database.db);
    const ok = await get(`/api/catalog-items/${id}?ecommerce_course_id=42&include=product`);
    expect(ok.status).toBe(200);
    expect((await ok.json()).data.meta).toEqual({ ecommerceCourseId: 42 });
    for (const bad of ['0', '-1', 'abc', '1.5', '', '99999999999', '1&ecommerce_course_id=2']) {
      const response = await get(`/api/catalog-items/${id}?ecommerce_course_id=${bad}`);
      expect(response.status, bad).toBe(400);
      const error = (await response.json()).errors[0];
      expect(error).toMatchObject({
        status: '400',
        code: 'sheet.error.courseId',
        source: { parameter: 'ecommerce_course_id' },
      });
      expect(error.detail).toBe('ecommerce_course_id must be a positive whole number.');
    }
  });

  it('only GET is allowed; other paths under catalog-items are 404', async () => {
    const post = await handleApiRequest(
      new Request('http://localhost/api/catalog-items/1', { method: 'POST' }),
      webContext(),
    );
    expect(post.status).toBe(405);
    expect((await get('/api/catalog-items')).status).toBe(404);
    expect((await get('/api/catalog-items/1/extra')).status).toBe(404);
  });
});
