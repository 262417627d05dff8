import { entitlement } from '#domain/access/entitlement.ts';
import {
  type FactsFrom,
  heldFactsOf,
  productAccessFacts,
  productSides,
} from '#domain/access/entitlement-facts.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { type PurchaseRefusal, purchaseRefusal } from './purchase-value.ts';

// The facts purchase-value.ts needs, loaded at once for several lines (a cart, an order, a
// product page's offerings) for the signed-in shopper, or for a visitor (files only).

export type PurchaseCandidate = {
  productId: number;
  productType: string;
  status: string;
  offeringType: string;
  durationDays: number | null;
};

/**
 * Each candidate's refusal (null: it adds something), in the candidates' order, for the
 * shopper `userId` (null: a visitor, who holds nothing). A write (the cart, checkout) reads
 * the facts from the database; a page may read them from the caches (`from`).
 */
export async function purchaseRefusals(
  ctx: RequestContext,
  userId: number | null,
  candidates: readonly PurchaseCandidate[],
  from: FactsFrom = 'database',
): Promise<(PurchaseRefusal | null)[]> {
  if (candidates.length === 0) return [];
  const ids = [...new Set(candidates.map((c) => c.productId))];
  const user = userId === null ? null : { id: userId };
  const [[owned, members], [files, physical]] = await Promise.all([
    user ? heldFactsOf(ctx, user.id, ids, from) : [null, null],
    from === 'cache' ? productSideFromCache(ctx, ids) : productSideFromDatabase(ctx, candidates),
  ]);
  return candidates.map((c) =>
    purchaseRefusal({
      offering: { type: c.offeringType, durationDays: c.durationDays },
      productType: c.productType,
      hasReaderFile: files.has(c.productId),
      held: user
        ? entitlement({
            signedIn: true,
            product: {
              productType: c.productType,
              status: c.status,
              physical: physical.has(c.productId),
            },
            ownerships: owned?.get(c.productId) ?? [],
            memberships: members?.get(c.productId) ?? [],
            now: ctx.now,
          })
        : null,
      now: ctx.now,
    }),
  );
}

/** Which products have a reader file, and which are physical copies, as the database says. */
async function productSideFromDatabase(
  ctx: RequestContext,
  candidates: readonly PurchaseCandidate[],
): Promise<[Set<number>, Set<number>]> {
  const { readerFiles, physical } = await productSides(ctx, candidates);
  return [readerFiles, physical];
}

/** The same, from the product facts each process keeps (entitlement-facts.ts). */
async function productSideFromCache(
  ctx: RequestContext,
  ids: readonly number[],
): Promise<[Set<number>, Set<number>]> {
  const facts = await Promise.all(ids.map((id) => productAccessFacts(ctx, id)));
  return [
    new Set(facts.filter((f) => f.hasReaderFile).map((f) => f.product.id)),
    new Set(facts.filter((f) => f.product.physical).map((f) => f.product.id)),
  ];
}

/**
 * A product page's offerings that add something for the signed-in shopper, and the reason of
 * the first left out (the page says options that add nothing are not shown). Visitors see
 * every deliverable offering (the catalog left out the undeliverable ones already).
 */
export async function buyableOfferings<O extends { type: string; durationDays: number | null }>(
  ctx: RequestContext,
  product: { id: number; productType: string; status: string; offerings: readonly O[] },
  from: FactsFrom = 'database',
): Promise<{ offerings: O[]; withheld: PurchaseRefusal | null }> {
  if (!ctx.user) return { offerings: [...product.offerings], withheld: null };
  const refusals = await purchaseRefusals(
    ctx,
    ctx.user.id,
    product.offerings.map((offer) => ({
      productId: product.id,
      productType: product.productType,
      status: product.status,
      offeringType: offer.type,
      durationDays: offer.durationDays,
    })),
    from,
  );
  return {
    offerings: product.offerings.filter((_, n) => refusals[n] === null),
    withheld: refusals.find((refusal) => refusal !== null) ?? null,
  };
}
