import { and, asc, desc, eq, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { products } from '#db/schema/catalog.ts';
import { sectionProducts } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { onAccountsChanged } from '#domain/accounts/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import { activeOwnership, isActiveOwnership } from './ownership.ts';
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
      languageCode: products.languageCode,
      productType: products.productType,
      expiresAt: ownerships.expiresAt,
    })
    .from(ownerships)
    .innerJoin(products, eq(products.id, ownerships.productId))
    .where(
      and(
        eq(ownerships.userId, ctx.user.id),
        activeOwnership(ctx.now),
        ne(products.status, 'deleted'),
      ),
    )
    .orderBy(asc(products.title), asc(ownerships.productId));
  return rows;
}

// Product pages ask "does this user own it?" on every logged-in view: each process keeps a
// user's ownerships up to 30 s, forgotten at once when they change anywhere (notification
// 'u:<id>', migration 0007). All of them, revoked ones too: a revocation dated later is not
// one yet, and the window is asked at each read (isActiveOwnership), not when loaded.
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
      .where(eq(ownerships.userId, user.id)),
  );
  return rows.some((row) => row.productId === productId && isActiveOwnership(row, ctx.now));
}

// Inclusive access and opting (spec 1 §6: opted-out students are blocked from reading via
// inclusive access). The courses context calls these inside its opt-change transaction, so
// the status, the change record and the reading access move together.

/** The user's inclusive-access ownerships through this section (or of its materials). */
function inclusiveAccessOf(userId: number, sectionId: number): SQL {
  const materials = sql`${ownerships.productId} in (
    select ${sectionProducts.productId} from ${sectionProducts}
      where ${sectionProducts.sectionId} = ${sectionId}
    union
    select ${sectionProducts.additionalProductId} from ${sectionProducts}
      where ${sectionProducts.sectionId} = ${sectionId}
        and ${sectionProducts.additionalProductId} is not null)`;
  return and(
    eq(ownerships.userId, userId),
    or(
      and(
        eq(ownerships.source, 'inclusive_access'),
        or(
          eq(ownerships.courseSectionId, sectionId),
          and(isNull(ownerships.courseSectionId), materials),
        ),
      ),
      // What the section's course fee gave (Start Reading, Acquire Code): a course fee covers
      // nothing once opted out (spec 1 §6; issue 14, found from outside).
      and(eq(ownerships.source, 'course_fee'), eq(ownerships.courseSectionId, sectionId)),
    ),
  )!;
}

/**
 * Opting out: the user's inclusive-access ownerships of the section's materials end now
 * (revoked at `ctx.now`, the time of the opt change). Returns how many.
 */
export async function revokeInclusiveAccess(
  ctx: RequestContext,
  input: { userId: number; sectionId: number },
): Promise<number> {
  const revoked = await ctx.db
    .update(ownerships)
    .set({ revokedAt: ctx.now, revokedReason: 'optOut' })
    .where(and(inclusiveAccessOf(input.userId, input.sectionId), isNull(ownerships.revokedAt)))
    .returning({ id: ownerships.id });
  return revoked.length;
}

/**
 * Opting back in: what the opt-out at `revokedAt` took away is granted again, with its
 * original window. Something the user owns again meanwhile (bought it) is left as it is.
 */
export async function restoreInclusiveAccess(
  ctx: RequestContext,
  input: { userId: number; sectionId: number; revokedAt: Date },
): Promise<number> {
  const taken = await ctx.db
    .selectDistinctOn([ownerships.productId], {
      productId: ownerships.productId,
      source: ownerships.source,
      courseSectionId: ownerships.courseSectionId,
      startsAt: ownerships.startsAt,
      expiresAt: ownerships.expiresAt,
    })
    .from(ownerships)
    .where(
      and(
        inclusiveAccessOf(input.userId, input.sectionId),
        eq(ownerships.revokedAt, input.revokedAt),
      ),
    )
    .orderBy(ownerships.productId, desc(ownerships.id));
  if (taken.length === 0) return 0;
  const granted = await ctx.db
    .insert(ownerships)
    .values(
      taken.map((row) => ({
        userId: input.userId,
        productId: row.productId,
        source: row.source,
        courseSectionId: row.courseSectionId,
        startsAt: row.startsAt,
        expiresAt: row.expiresAt,
        createdAt: ctx.now,
      })),
    )
    // One active ownership per user and product (unique index): a bought copy stays.
    .onConflictDoNothing()
    .returning({ id: ownerships.id });
  return granted.length;
}
