import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { banners } from '#db/schema/sites.ts';
import { createUser, endSession, startSession } from '#domain/accounts/service.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, unique } from '#tests/database.ts';

// Migration 0004: every write that changes what a catalog page shows tells the app processes
// (their page caches) which products changed, or 'all'.
let database: DatabaseHandle;
let stop: () => Promise<void>;
const received: string[] = [];
beforeAll(async () => {
  database = await openTestDatabase();
  stop = await database.listen('shelfmark_cache', (payload) => {
    if (payload) received.push(payload);
  });
});
afterAll(async () => {
  await stop?.();
  await database?.close();
});

async function notified(match: (payload: string) => boolean): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    const hit = received.find(match);
    if (hit) return hit;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no matching notification among ${JSON.stringify(received)}`);
}

const names = (payload: string, id: number) =>
  payload.startsWith('p:') && payload.slice(2).split(',').includes(String(id));

describe('catalog change notifications', () => {
  it('a new product, a price change and a deletion each name the product', async () => {
    const id = await insertProduct(database.db, {}, { priceCents: 1000 });
    await notified((p) => names(p, id));
    received.length = 0;
    await database.db
      .update(offerings)
      .set({ priceCents: 1200 })
      .where(eq(offerings.productId, id));
    await notified((p) => names(p, id));
    received.length = 0;
    await database.db.update(products).set({ status: 'withdrawn' }).where(eq(products.id, id));
    await notified((p) => names(p, id));
  });

  // Issue 15 (migration 0023): an import writes a thousand products a statement; pages that
  // show other products stay cached.
  it('a bulk change of many products names them all, 500 to a message', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 101; i += 1)
      ids.push(await insertProduct(database.db, {}, { priceCents: null }));
    received.length = 0;
    await database.db
      .update(products)
      .set({ subtitle: 'Bulk' })
      .where(sql`${products.id} = any(${sql.param(ids)}::int[])`);
    const message = await notified((p) => names(p, ids[0]!));
    expect(
      message
        .slice(2)
        .split(',')
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(ids);

    const made = await database.db.execute(sql`insert into products (product_type, title, slug)
      select 'book', 'Bulk ' || g, 'bulk-' || g from generate_series(1, 1200) g returning id`);
    const madeIds = (made as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
    await notified((p) => names(p, madeIds.at(-1)!));
    const named = received
      .filter((p) => p.startsWith('p:') && madeIds.some((id) => names(p, id)))
      .flatMap((p) => p.slice(2).split(',').map(Number));
    expect(new Set(named)).toEqual(new Set(madeIds));
    expect(
      received.filter((p) => p.startsWith('p:')).every((p) => p.split(',').length <= 500),
    ).toBe(true);
    expect(received).not.toContain('all');
    // Out of the other tests' way (CI shares one PostgreSQL database between test files).
    await database.db.execute(
      sql`delete from products where id in (select jsonb_array_elements_text(${JSON.stringify(madeIds)}::jsonb)::int)`,
    );
  });

  it('a statement over 5,000 products asks for everything, in one message', async () => {
    received.length = 0;
    const huge = await database.db.execute(sql`insert into products (product_type, title, slug)
      select 'book', 'Huge ' || g, 'huge-' || g from generate_series(1, 5001) g returning id`);
    expect(await notified((p) => p === 'all')).toBe('all');
    const hugeIds = (huge as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
    await database.db.execute(
      sql`delete from products where id in (select jsonb_array_elements_text(${JSON.stringify(hugeIds)}::jsonb)::int)`,
    );
  });

  it('a banner change asks for everything', async () => {
    received.length = 0;
    await database.db.insert(banners).values({ kind: 'merger', message: 'Test', isActive: false });
    expect(await notified((p) => p === 'all')).toBe('all');
  });

  it('ending a session names its user, so every process forgets it (migration 0007)', async () => {
    const userId = await createUser(database.db, {
      email: `${unique('notify')}@example.test`,
      password: 'pw-123456',
      firstName: 'N',
      lastName: 'N',
    });
    const { token } = await startSession(database.db, { userId, now: new Date() });
    received.length = 0;
    await endSession(database.db, token);
    expect(await notified((p) => p === `u:${userId}`)).toBe(`u:${userId}`);
  });
});
