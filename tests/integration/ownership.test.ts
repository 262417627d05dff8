import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import {
  activeOwnership,
  isActiveOwnership,
  type OwnershipWindow,
} from '#domain/shelf/ownership.ts';
import { ownedProducts, ownsProduct } from '#domain/shelf/service.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// spec 1 §3 userAvailability.isOwned, asked once (issue 13: "is it owned?" was written in
// three forms that drifted: My Library and the product page dropped an ownership whose
// revocation was dated later, which the shelf and the reader still counted). The TypeScript
// rule and its SQL condition answer alike for every kind of window, and every question the
// shelf context answers (ownsProduct, ownedProducts) gives the same answer.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const now = new Date('2026-11-25T12:00:00Z');
const hour = 3_600_000;
const at = (hours: number) => new Date(now.getTime() + hours * hour);

const WINDOWS: [string, OwnershipWindow, boolean][] = [
  ['started, no end', { startsAt: at(-1), expiresAt: null, revokedAt: null }, true],
  ['starts later', { startsAt: at(1), expiresAt: null, revokedAt: null }, false],
  ['expires later', { startsAt: at(-2), expiresAt: at(1), revokedAt: null }, true],
  ['expired', { startsAt: at(-2), expiresAt: at(-1), revokedAt: null }, false],
  ['expires this instant', { startsAt: at(-2), expiresAt: now, revokedAt: null }, false],
  ['starts this instant', { startsAt: now, expiresAt: null, revokedAt: null }, true],
  ['revoked', { startsAt: at(-2), expiresAt: null, revokedAt: at(-1) }, false],
  ['revocation dated later', { startsAt: at(-2), expiresAt: null, revokedAt: at(1) }, true],
  ['revoked this instant', { startsAt: at(-2), expiresAt: null, revokedAt: now }, false],
];

describe('is it owned? one rule in two forms (spec 1 §3 userAvailability.isOwned)', () => {
  it.each(
    WINDOWS,
  )('%s: the rule, the SQL condition, the product page and My Library agree', async (_name, window, owned) => {
    expect(isActiveOwnership(window, now)).toBe(owned);
    const [user] = await database.db
      .insert(users)
      .values({ email: `${unique('owner')}@example.test`, firstName: 'O' })
      .returning({ id: users.id });
    const productId = await insertProduct(database.db, { title: unique('Owned') });
    await database.db
      .insert(ownerships)
      .values({ userId: user!.id, productId, source: 'purchase', ...window });
    const inSql = await database.db
      .select({ id: ownerships.id })
      .from(ownerships)
      .where(and(eq(ownerships.userId, user!.id), activeOwnership(now)));
    expect(inSql.length === 1).toBe(owned);
    const sessionUser = (await loadSessionUser(database.db, {
      userId: user!.id,
      impersonatorId: null,
    }))!;
    const ctx = testContext(database.db, { user: sessionUser, now });
    expect(await ownsProduct(ctx, productId)).toBe(owned);
    expect((await ownedProducts(ctx)).map((item) => item.productId)).toEqual(
      owned ? [productId] : [],
    );
  });
});
