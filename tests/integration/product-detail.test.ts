import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { productDetail } from '#domain/catalog/service.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { defaultSite } from '#domain/sites/service.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext } from '#tests/database.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('product page facts (spec 1 §4 Availability)', () => {
  it('a sellable book has its offerings cheapest first and no unavailability', async () => {
    const ctx = testContext(database.db);
    const id = await insertProduct(ctx.db, {}, { priceCents: 4500 });
    const detail = await productDetail(ctx, id);
    expect(detail.unavailable).toBeNull();
    expect(detail.offerings.map((o) => o.priceCents)).toEqual([4500]);
  });

  it.each([
    [{ status: 'withdrawn' }, 'removed'],
    [{ status: 'deactivated' }, 'default'],
    [{ isDisabled: true }, 'disabled'],
    [{ blockedCountries: ['US'] }, 'territory'],
    [{ blockedHosts: ['localhost'] }, 'market'],
  ] as const)('%o blocks purchase as %s', async (overrides, reason) => {
    const ctx = testContext(database.db, { site: defaultSite('localhost') });
    const id = await insertProduct(ctx.db, {
      ...overrides,
      blockedCountries: 'blockedCountries' in overrides ? [...overrides.blockedCountries] : [],
      blockedHosts: 'blockedHosts' in overrides ? [...overrides.blockedHosts] : [],
    });
    expect((await productDetail(ctx, id)).unavailable).toBe(reason);
  });

  it('a book without offerings: no offerings are available', async () => {
    const ctx = testContext(database.db);
    const id = await insertProduct(ctx.db, {}, { priceCents: null });
    const detail = await productDetail(ctx, id);
    expect(detail.unavailable).toBe('offering');
    expect(detail.price).toEqual({ kind: 'codeOnly' });
  });

  it('deleted and unknown products are not found', async () => {
    const ctx = testContext(database.db);
    const id = await insertProduct(ctx.db, { status: 'deleted' });
    await expect(productDetail(ctx, id)).rejects.toBeInstanceOf(NotFound);
    await expect(productDetail(ctx, 2_000_000_000)).rejects.toBeInstanceOf(NotFound);
  });
});
