import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import { products } from '#db/schema/catalog.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { onAccountsChanged } from '#domain/accounts/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import { isActiveOwnership } from './ownership.ts';
import type { LibraryItem } from './types.ts';

/**
 * The products the logged-in user owns now (spec 1 §3 userAvailability.isOwned), by title.
 * A visitor owns nothing. Deleted products are left out, as everywhere else.
 */
export async function ownedProducts(ctx: RequestContext): Promise<LibraryItem[]> {
  if (!ctx.user) return [];
  const rows = await ctx.db
    .select({
      productId: ownerships.productId,
      title: products.title,
      productType: products.productType,
      startsAt: ownerships.startsAt,
      expiresAt: ownerships.expiresAt,
      revokedAt: ownerships.revokedAt,
    })
    .from(ownerships)
    .innerJoin(products, eq(products.id, ownerships.productId))
    .where(
      and(
        eq(ownerships.userId, ctx.user.id),
        isNull(ownerships.revokedAt),
        ne(products.status, 'deleted'),
      ),
    )
    .orderBy(asc(products.title), asc(ownerships.productId));
  return rows
    .filter((row) => isActiveOwnership(row, ctx.now))
    .map(({ productId, title, productType, expiresAt }) => ({
      productId,
      title,
      productType,
      expiresAt,
    }));
}

// Product pages ask "does this user own it?" on every logged-in view: each process keeps a
// user's unrevoked ownerships up to 30 s, forgotten at once when they change anywhere
// (notification 'u:<id>', migration 0007).
type OwnershipWindow = {
  productId: number;
  startsAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
};
const ownershipCache = new TimedCache<number, OwnershipWindow[]>(30_000, 10_000);
onAccountsChanged((ids) => {
  for (const id of ids) ownershipCache.delete(id);
});

/** Whether the logged-in user owns this product now; a visitor owns nothing. */
export async function ownsProduct(ctx: RequestContext, productId: number): Promise<boolean> {
  const user = ctx.user;
  if (!user) return false;
  const rows = await ownershipCache.getOrLoad(user.id, () =>
    ctx.db
      .select({
        productId: ownerships.productId,
        startsAt: ownerships.startsAt,
        expiresAt: ownerships.expiresAt,
        revokedAt: ownerships.revokedAt,
      })
      .from(ownerships)
      .where(and(eq(ownerships.userId, user.id), isNull(ownerships.revokedAt))),
  );
  return rows.some((row) => row.productId === productId && isActiveOwnership(row, ctx.now));
}
