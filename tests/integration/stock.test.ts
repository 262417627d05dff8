import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { openDatabase } from '#db/client.ts';
import { offerings } from '#db/schema/catalog.ts';
import { takeStock } from '#domain/commerce/stock.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase } from '#tests/database.ts';

// Issue 4, Physical stock: 200 shoppers race for the last K units; exactly K succeed and the
// stock never goes below zero. On PostgreSQL (CI) the attempts run on 20 connections at once.
let database: DatabaseHandle;
beforeAll(async () => {
  database = process.env.DATABASE_URL
    ? await openDatabase({ url: process.env.DATABASE_URL, poolSize: 20 })
    : await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function physicalOffering(stock: number): Promise<number> {
  const productId = await insertProduct(
    database.db,
    { productType: 'physical_product' },
    { priceCents: null },
  );
  const [row] = await database.db
    .insert(offerings)
    .values({ productId, type: 'physical_product', bookType: 'print', priceCents: 2500, stock })
    .returning({ id: offerings.id });
  return row!.id;
}

describe('taking the last units of stock', () => {
  it.each([1, 5])('200 shoppers racing for %i units: exactly that many win', async (units) => {
    const offeringId = await physicalOffering(units);
    const attempts = await Promise.all(
      Array.from({ length: 200 }, () =>
        database.db.transaction((tx) => takeStock(tx, offeringId, 1)),
      ),
    );
    expect(attempts.filter(Boolean)).toHaveLength(units);
    const [row] = await database.db
      .select({ stock: offerings.stock })
      .from(offerings)
      .where(eq(offerings.id, offeringId));
    expect(row?.stock).toBe(0);
  });

  it('never takes more than is left, nor from goods without stock', async () => {
    const offeringId = await physicalOffering(2);
    expect(await takeStock(database.db, offeringId, 3)).toBe(false);
    expect(await takeStock(database.db, offeringId, 2)).toBe(true);
    expect(await takeStock(database.db, offeringId, 1)).toBe(false);
    expect(await takeStock(database.db, offeringId, 0)).toBe(false);
  });
});
