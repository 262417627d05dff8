import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { offerings } from '#db/schema/catalog.ts';
import { auditEvents } from '#db/schema/operations.ts';
import { isbn13CheckDigit, isbn13To10 } from '#domain/catalog/isbn.ts';
import { countStock, inventory, inventoryLine, receiveStock } from '#domain/commerce/inventory.ts';
import {
  countedUnits,
  INVENTORY_PAGE_SIZE,
  INVENTORY_QUERY_MAX,
  inventoryFilterOf,
  inventoryQueryOf,
  LOW_STOCK,
  MAX_COUNTED,
  MAX_RECEIVED,
  receivedUnits,
} from '#domain/commerce/inventory-rules.ts';
import { takeStock } from '#domain/commerce/stock.ts';
import type { AuditActor } from '#domain/operations/audit.ts';
import { Conflict, NotFound } from '#domain/shared/errors.ts';
import { insertProduct, uniqueDigits } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// My Inventory (spec 1 §2 user menu, "My Inventory"): counted stock lowest first; a delivery
// adds to what is on hand whatever a sale took meanwhile; a count replaces it only if nobody
// changed it since the count began; each change audited; nothing below zero or past the limit.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const actor: AuditActor = { userId: null, actingAsUserId: null, label: 'Inventory test' };

async function printCopy(stock: number | null, status = 'active'): Promise<number> {
  const productId = await insertProduct(
    database.db,
    { title: unique('Inventory book'), status },
    { priceCents: null, readerFile: false },
  );
  const [row] = await database.db
    .insert(offerings)
    .values({ productId, type: 'physical', bookType: 'print', priceCents: 4500, stock })
    .returning({ id: offerings.id });
  return row!.id;
}

async function stockOf(offeringId: number): Promise<number | null> {
  const [row] = await database.db
    .select({ stock: offerings.stock })
    .from(offerings)
    .where(eq(offerings.id, offeringId));
  return row!.stock;
}

async function auditOf(offeringId: number) {
  return database.db
    .select({ action: auditEvents.action, before: auditEvents.before, after: auditEvents.after })
    .from(auditEvents)
    .where(
      and(eq(auditEvents.objectType, 'offering'), eq(auditEvents.objectId, String(offeringId))),
    )
    .orderBy(auditEvents.id);
}

describe('the inventory list', () => {
  it('holds counted offerings only, lowest first; "low" keeps those at or below the threshold; deleted products are left out', async () => {
    const ctx = testContext(database.db);
    const empty = await printCopy(0);
    const low = await printCopy(LOW_STOCK);
    const plenty = await printCopy(LOW_STOCK + 1);
    const uncounted = await printCopy(null);
    const deleted = await printCopy(1, 'deleted');
    const all = await inventory(ctx, { filter: 'all', page: 1 });
    const stocks = all.lines.map((line) => line.stock);
    expect(stocks).toEqual([...stocks].sort((a, b) => a - b));
    expect(all.lines.length).toBeLessThanOrEqual(INVENTORY_PAGE_SIZE);
    const lowOnes = await inventory(ctx, { filter: 'low', page: 1 });
    expect(lowOnes.lines.every((line) => line.stock <= LOW_STOCK)).toBe(true);
    const ids = new Set(
      (await inventory(ctx, { filter: 'low', page: lowOnes.pages })).lines
        .concat(lowOnes.lines)
        .map((line) => line.offeringId),
    );
    expect(ids.has(deleted)).toBe(false);
    expect(ids.has(uncounted)).toBe(false);
    expect(await inventoryLine(ctx, empty)).toMatchObject({ stock: 0, type: 'physical' });
    expect(await inventoryLine(ctx, low)).toMatchObject({ stock: LOW_STOCK });
    expect(await inventoryLine(ctx, plenty)).toMatchObject({ stock: LOW_STOCK + 1 });
    expect(await inventoryLine(ctx, uncounted)).toBeNull();
    expect(await inventoryLine(ctx, deleted)).toBeNull();
    // A page past the last is the last.
    const far = await inventory(ctx, { filter: 'all', page: 1_000_000 });
    expect(far.page).toBe(far.pages);
    expect(inventoryFilterOf('low')).toBe('low');
    expect(inventoryFilterOf('<script>')).toBe('all');
    expect(inventoryFilterOf(null)).toBe('all');
  });
});

describe('finding a line', () => {
  it('by part of its title in any case, or by its ISBN as typed or its ISBN-10 twin', async () => {
    const ctx = testContext(database.db);
    const isbn = `978${uniqueDigits(9)}`;
    const full = isbn + isbn13CheckDigit(isbn);
    const title = unique('Field Guide_100%');
    const productId = await insertProduct(
      database.db,
      { title },
      { priceCents: null, readerFile: false, identifiers: [{ type: 'ISBN13', value: full }] },
    );
    const [row] = await database.db
      .insert(offerings)
      .values({ productId, type: 'physical', bookType: 'print', priceCents: 1000, stock: 9 })
      .returning({ id: offerings.id });
    const found = async (q: string) =>
      (await inventory(ctx, { filter: 'all', page: 1, q })).lines.map((l) => l.offeringId);
    expect(await found(title.toLowerCase())).toEqual([row!.id]);
    expect(await found(full.replace(/^(\d{3})(\d)/, '$1-$2-'))).toEqual([row!.id]);
    expect(await found(isbn13To10(full)!)).toEqual([row!.id]);
    // % and _ are letters of a title, not patterns.
    expect(await found('_100%')).toContain(row!.id);
    expect(await found('Guide%Field')).toEqual([]);
    expect(await found(unique('no such title'))).toEqual([]);
    expect(inventoryQueryOf(`  a   b ${'x'.repeat(300)}`)).toHaveLength(INVENTORY_QUERY_MAX);
  });
});

describe('a delivery received', () => {
  it('adds to what is on hand, even when a sale took a unit since the page was read', async () => {
    const ctx = testContext(database.db);
    const id = await printCopy(3);
    expect(await takeStock(database.db, id, 1)).toBe(true);
    expect(await receiveStock(ctx, actor, { offeringId: id, units: 10 })).toEqual({ stock: 12 });
    expect(await stockOf(id)).toBe(12);
    expect(await auditOf(id)).toEqual([
      {
        action: 'stock.receive',
        before: { productId: expect.any(Number), stock: 2 },
        after: { productId: expect.any(Number), stock: 12 },
      },
    ]);
  });

  it(`is refused past ${MAX_COUNTED} on hand, and for an offering whose stock is not counted; nothing changes`, async () => {
    const ctx = testContext(database.db);
    const id = await printCopy(MAX_COUNTED - 5);
    await expect(receiveStock(ctx, actor, { offeringId: id, units: 6 })).rejects.toMatchObject({
      messageKey: 'inventory.error.tooMany',
      params: { max: MAX_COUNTED },
    });
    expect(await stockOf(id)).toBe(MAX_COUNTED - 5);
    expect(await receiveStock(ctx, actor, { offeringId: id, units: 5 })).toEqual({
      stock: MAX_COUNTED,
    });
    const uncounted = await printCopy(null);
    await expect(
      receiveStock(ctx, actor, { offeringId: uncounted, units: 1 }),
    ).rejects.toBeInstanceOf(NotFound);
    expect(await stockOf(uncounted)).toBeNull();
    expect(await auditOf(uncounted)).toEqual([]);
  });
});

describe('a count', () => {
  /** The line's version as the page reads it. */
  async function versionOf(offeringId: number): Promise<string> {
    return (await inventoryLine(testContext(database.db), offeringId))!.version;
  }

  it('replaces the stock when nothing wrote it since the page was read', async () => {
    const ctx = testContext(database.db);
    const id = await printCopy(8);
    expect(
      await countStock(ctx, actor, { offeringId: id, counted: 6, version: await versionOf(id) }),
    ).toEqual({ stock: 6 });
    expect(
      await countStock(ctx, actor, { offeringId: id, counted: 0, version: await versionOf(id) }),
    ).toEqual({ stock: 0 });
    expect((await auditOf(id)).map((e) => [e.action, e.before, e.after])).toEqual([
      [
        'stock.count',
        { productId: expect.any(Number), stock: 8 },
        expect.objectContaining({ stock: 6 }),
      ],
      [
        'stock.count',
        { productId: expect.any(Number), stock: 6 },
        expect.objectContaining({ stock: 0 }),
      ],
    ]);
  });

  it('is refused when a sale changed the stock meanwhile, saying the stock now; nothing changes', async () => {
    const ctx = testContext(database.db);
    const id = await printCopy(4);
    const read = await versionOf(id);
    expect(await takeStock(database.db, id, 1)).toBe(true);
    const refused = countStock(ctx, actor, { offeringId: id, counted: 4, version: read });
    await expect(refused).rejects.toBeInstanceOf(Conflict);
    await expect(
      countStock(ctx, actor, { offeringId: id, counted: 4, version: read }),
    ).rejects.toMatchObject({ messageKey: 'inventory.error.changed', params: { stock: 3 } });
    expect(await stockOf(id)).toBe(3);
    expect(await auditOf(id)).toEqual([]);
  });

  it('is refused when a sale and a delivery brought the figure back where it was: the delivery is not lost', async () => {
    const ctx = testContext(database.db);
    const id = await printCopy(10);
    const read = await versionOf(id);
    expect(await takeStock(database.db, id, 1)).toBe(true);
    await receiveStock(ctx, actor, { offeringId: id, units: 1 });
    expect(await stockOf(id)).toBe(10);
    await expect(
      countStock(ctx, actor, { offeringId: id, counted: 9, version: read }),
    ).rejects.toMatchObject({ messageKey: 'inventory.error.changed', params: { stock: 10 } });
    expect(await stockOf(id)).toBe(10);
  });

  it('refuses what the form would: a figure out of range, a malformed version, an offering not counted', async () => {
    const ctx = testContext(database.db);
    const id = await printCopy(5);
    const version = await versionOf(id);
    for (const counted of [-1, 1.5, MAX_COUNTED + 1, Number.NaN]) {
      await expect(
        countStock(ctx, actor, { offeringId: id, counted, version }),
      ).rejects.toMatchObject({ messageKey: 'inventory.error.units' });
    }
    for (const units of [0, -3, MAX_RECEIVED + 1, 2.5]) {
      await expect(receiveStock(ctx, actor, { offeringId: id, units })).rejects.toMatchObject({
        messageKey: 'inventory.error.units',
      });
    }
    for (const bad of ['', 'abc', '1 or 1=1', '12345678901']) {
      await expect(
        countStock(ctx, actor, { offeringId: id, counted: 1, version: bad }),
      ).rejects.toMatchObject({ messageKey: 'error.invalid' });
    }
    await expect(
      countStock(ctx, actor, { offeringId: await printCopy(null), counted: 1, version }),
    ).rejects.toBeInstanceOf(NotFound);
    expect(await stockOf(id)).toBe(5);
    expect(await auditOf(id)).toEqual([]);
  });
});

describe('units as typed', () => {
  it('a whole number in range, spaces around it allowed; anything else says the range', () => {
    expect(receivedUnits(' 12 ')).toBe(12);
    // Thousands grouped as the page shows them; a French decimal is no grouping.
    expect(countedUnits('1,234')).toBe(1234);
    expect(countedUnits('1\u202f234')).toBe(1234);
    expect(countedUnits('1 000 000')).toBe(1_000_000);
    for (const bad of ['1,5', '1,23', '12,34,567', '1,234 567']) {
      expect(() => countedUnits(bad), bad).toThrowError(
        expect.objectContaining({ messageKey: 'inventory.error.units' }),
      );
    }
    expect(countedUnits('0')).toBe(0);
    expect(countedUnits(String(MAX_COUNTED))).toBe(MAX_COUNTED);
    expect(() => receivedUnits('')).toThrowError(
      expect.objectContaining({ messageKey: 'inventory.error.empty' }),
    );
    for (const bad of [
      '0',
      '-1',
      '1.5',
      '1e3',
      '12 units',
      String(MAX_RECEIVED + 1),
      '9'.repeat(40),
    ]) {
      expect(() => receivedUnits(bad), bad).toThrowError(
        expect.objectContaining({
          messageKey: 'inventory.error.units',
          params: { min: 1, max: MAX_RECEIVED },
        }),
      );
    }
    expect(() => countedUnits(String(MAX_COUNTED + 1))).toThrowError(
      expect.objectContaining({ messageKey: 'inventory.error.units' }),
    );
    expect(() => countedUnits(undefined)).toThrowError(
      expect.objectContaining({ messageKey: 'inventory.error.empty' }),
    );
  });
});
