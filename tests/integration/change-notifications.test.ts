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

  it('a bulk change of many products asks for everything, in one message', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 101; i += 1)
      ids.push(await insertProduct(database.db, {}, { priceCents: null }));
    received.length = 0;
    await database.db
      .update(products)
      .set({ subtitle: 'Bulk' })
      .where(sql`${products.id} = any(${sql.param(ids)}::int[])`);
    expect(await notified((p) => p === 'all')).toBe('all');
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
