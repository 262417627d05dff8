import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import { Forbidden, Invalid } from '#domain/shared/errors.ts';
import { addFreeBook } from '#domain/shelf/free-book.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

// Issue 4, Free books (spec 1 §4 Free book).
describe('Add To My Shelf', () => {
  it('a free book becomes owned, once; a priced book and a visitor are refused', async () => {
    const userId = await createUser(database.db, {
      email: `${unique('free')}@example.test`,
      password: 'pw-123456',
      firstName: 'F',
      lastName: 'F',
    });
    const user = (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
    const ctx = testContext(database.db, { user });
    const free = await insertProduct(ctx.db, {}, { priceCents: 0 });
    const priced = await insertProduct(ctx.db, {}, { priceCents: 1200 });
    await addFreeBook(ctx, free);
    await addFreeBook(ctx, free);
    await expect(addFreeBook(ctx, priced)).rejects.toBeInstanceOf(Invalid);
    await expect(addFreeBook(testContext(database.db), free)).rejects.toBeInstanceOf(Forbidden);
    const owned = await ctx.db.select().from(ownerships).where(eq(ownerships.userId, userId));
    expect(owned.map((o) => [o.productId, o.source, o.expiresAt])).toEqual([[free, 'free', null]]);
  });
});
