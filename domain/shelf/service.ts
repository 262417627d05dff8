import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import { products } from '#db/schema/catalog.ts';
import { ownerships } from '#db/schema/shelf.ts';
import type { RequestContext } from '#domain/shared/context.ts';
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

/** Whether the logged-in user owns this product now; a visitor owns nothing. */
export async function ownsProduct(ctx: RequestContext, productId: number): Promise<boolean> {
  if (!ctx.user) return false;
  const rows = await ctx.db
    .select({
      startsAt: ownerships.startsAt,
      expiresAt: ownerships.expiresAt,
      revokedAt: ownerships.revokedAt,
    })
    .from(ownerships)
    .where(
      and(
        eq(ownerships.userId, ctx.user.id),
        eq(ownerships.productId, productId),
        isNull(ownerships.revokedAt),
      ),
    );
  return rows.some((row) => isActiveOwnership(row, ctx.now));
}
