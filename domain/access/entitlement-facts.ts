import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { bookFiles, collectionItems, products } from '#db/schema/catalog.ts';
import { sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import {
  type Entitlement,
  type EntitlementMembership,
  type EntitlementOwnership,
  entitlement,
  isPhysicalCopy,
} from './entitlement.ts';
import {
  entitlementMembership,
  holdingsOf,
  membershipsIn,
  ownershipsIn,
  sectionListings,
} from './holdings.ts';

// The facts the entitlement rule needs, loaded for one user and one product, and the rule's
// answer (issue 14). Pages, routes and the API ask here; a refusal becomes AccessRefused.

export type Through = { sectionId?: number | null; memberId?: number | null };

/**
 * Where a user's and a product's facts are read: the database, as a write checks them (the
 * cart, checkout, the reader's routes), or this process's caches (holdings.ts, and the product
 * facts below), as a page shows them (the product page and its personal part, decision 043).
 * The same rule decides on either.
 */
export type FactsFrom = 'database' | 'cache';

export type ProductFacts = {
  id: number;
  title: string;
  productType: string;
  status: string;
  /** A physical copy (entitlement.ts isPhysicalCopy), which no course opens. */
  physical: boolean;
};

/**
 * A refusal the pages show as it is: the reason in the reader's language, and the way back
 * (opt back in on the course page, or buy on the product page).
 */
export class AccessRefused extends Forbidden {
  constructor(
    readonly refusal: Extract<Entitlement, { ok: false }>,
    productId: number,
  ) {
    super(refusal.reason, {
      ...refusal.params,
      productId,
      wayBack: refusal.wayBack?.kind ?? '',
      ...(refusal.wayBack?.kind === 'optBackIn' ? { sectionId: refusal.wayBack.sectionId } : {}),
    });
  }
}

/** The user's memberships of sections listing any of these products, by product. */
export async function membershipsListing(
  ctx: RequestContext,
  userId: number,
  productIds: readonly number[],
): Promise<Map<number, EntitlementMembership[]>> {
  const byProduct = new Map<number, EntitlementMembership[]>();
  if (productIds.length === 0) return byProduct;
  const ids = [...productIds];
  const rows = await sectionListings(ctx.db).where(
    and(
      eq(sectionMembers.userId, userId),
      or(
        inArray(sectionProducts.productId, ids),
        inArray(sectionProducts.additionalProductId, ids),
      ),
    ),
  );
  for (const row of rows) {
    const member = entitlementMembership(row);
    for (const productId of new Set([row.productId, row.additionalProductId])) {
      if (productId === null || !productIds.includes(productId)) continue;
      const list = byProduct.get(productId) ?? [];
      if (!list.some((m) => m.memberId === member.memberId)) list.push(member);
      byProduct.set(productId, list);
    }
  }
  return byProduct;
}

/** The user's ownerships of these products and of collections containing them, by product. */
export async function ownershipsOf(
  ctx: RequestContext,
  userId: number,
  productIds: readonly number[],
): Promise<Map<number, EntitlementOwnership[]>> {
  const byProduct = new Map<number, EntitlementOwnership[]>();
  if (productIds.length === 0) return byProduct;
  const ids = [...productIds];
  const window = {
    startsAt: ownerships.startsAt,
    expiresAt: ownerships.expiresAt,
    revokedAt: ownerships.revokedAt,
  };
  // One statement for both: each is a round trip every cart, checkout and order-complete
  // makes (issue 40, statements per step in docs/benchmarks.md).
  const rows = await ctx.db
    .select({
      productId: ownerships.productId,
      ...window,
      viaCollection: sql<boolean>`false`.as('via_collection'),
    })
    .from(ownerships)
    .where(and(eq(ownerships.userId, userId), inArray(ownerships.productId, ids)))
    .unionAll(
      ctx.db
        .select({
          productId: collectionItems.itemId,
          ...window,
          viaCollection: sql<boolean>`true`.as('via_collection'),
        })
        .from(ownerships)
        .innerJoin(collectionItems, eq(collectionItems.collectionId, ownerships.productId))
        .where(and(eq(ownerships.userId, userId), inArray(collectionItems.itemId, ids))),
    );
  for (const { productId, viaCollection, ...row } of rows) {
    const ownership: EntitlementOwnership = viaCollection ? { ...row, viaCollection } : row;
    byProduct.set(productId, [...(byProduct.get(productId) ?? []), ownership]);
  }
  return byProduct;
}

// A product's own side of the rule, as columns of a select from products. Plain SQL, the
// outer table named: drizzle writes a lone table's columns unqualified, which inside these
// subqueries would name the inner table's columns.
/** Whether the product has a file for the reader (a Read Now without one ends in 404). */
const hasReaderFile = sql<boolean>`exists (select 1 from book_files f where f.product_id = products.id and f.type = 'READER')`;
/** The types of the product's active offerings (isPhysicalCopy reads them). */
const activeOfferingTypes = sql<
  string[]
>`array(select o.type::text from offerings o where o.product_id = products.id and o.is_active)`;

/**
 * The products' side of the rule, read at once: which have a reader file, and which are
 * physical copies (isPhysicalCopy, on their active offerings).
 */
export async function productSides(
  ctx: RequestContext,
  items: readonly { productId: number; productType: string }[],
): Promise<{ readerFiles: Set<number>; physical: Set<number> }> {
  const ids = [...new Set(items.map((item) => item.productId))];
  if (ids.length === 0) return { readerFiles: new Set(), physical: new Set() };
  const rows = await ctx.db
    .select({
      productId: products.id,
      readerFile: hasReaderFile,
      types: activeOfferingTypes,
    })
    .from(products)
    .where(inArray(products.id, ids));
  const types = new Map(rows.map((row) => [row.productId, row.types ?? []]));
  return {
    readerFiles: new Set(rows.filter((row) => row.readerFile).map((row) => row.productId)),
    physical: new Set(
      items
        .filter((item) => isPhysicalCopy(item.productType, types.get(item.productId) ?? []))
        .map((item) => item.productId),
    ),
  };
}

/** The product's facts the rule reads, and whether it has a reader file; or NotFound. */
async function loadProductFacts(
  ctx: RequestContext,
  productId: number,
): Promise<{ product: ProductFacts; hasReaderFile: boolean }> {
  const [row] = await ctx.db
    .select({
      id: products.id,
      title: products.title,
      productType: products.productType,
      status: products.status,
      readerFile: hasReaderFile,
      types: activeOfferingTypes,
    })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  if (!row || row.status === 'deleted') throw new NotFound();
  const { readerFile, types, ...product } = row;
  return {
    product: { ...product, physical: isPhysicalCopy(product.productType, types ?? []) },
    hasReaderFile: readerFile,
  };
}

/** The product's facts the rule reads, or NotFound. */
export async function productFacts(ctx: RequestContext, productId: number): Promise<ProductFacts> {
  return (await loadProductFacts(ctx, productId)).product;
}

/** What the rule says for the signed-in user (or the visitor) and this product. */
export async function entitlementOf(
  ctx: RequestContext,
  productId: number,
  through: Through = {},
  from: FactsFrom = 'database',
): Promise<{ product: ProductFacts; decision: Entitlement }> {
  const user = ctx.user;
  const [product, [owned, members]] = await Promise.all([
    from === 'cache'
      ? productAccessFacts(ctx, productId).then((facts) => facts.product)
      : productFacts(ctx, productId),
    user ? heldFactsOf(ctx, user.id, [productId], from) : [new Map(), new Map()],
  ]);
  const decision = entitlement({
    signedIn: !!user,
    product,
    ownerships: owned.get(productId) ?? [],
    memberships: members.get(productId) ?? [],
    through,
    now: ctx.now,
  });
  return { product, decision };
}

/** The user's ownerships and memberships bearing on these products, by product. */
export async function heldFactsOf(
  ctx: RequestContext,
  userId: number,
  productIds: readonly number[],
  from: FactsFrom,
): Promise<[Map<number, EntitlementOwnership[]>, Map<number, EntitlementMembership[]>]> {
  if (from === 'cache') {
    const held = await holdingsOf(ctx, userId);
    return [ownershipsIn(held, productIds), membershipsIn(held, productIds)];
  }
  return Promise.all([
    ownershipsOf(ctx, userId, productIds),
    membershipsListing(ctx, userId, productIds),
  ]);
}

// The product's side of the rule, the same for every visitor: each process keeps it a minute,
// forgotten at once when the product, its offerings or its files change (notification
// 'p:<id>', migration 0004; server/app.ts).
type ProductAccessFacts = { product: ProductFacts; hasReaderFile: boolean };
const productAccessCache = new TimedCache<number, ProductAccessFacts>(60_000, 5_000, {
  products: (facts) => [facts.product.id],
});

/** productFacts and whether it has a reader file, from this process's cache or loaded. */
export function productAccessFacts(
  ctx: RequestContext,
  productId: number,
): Promise<ProductAccessFacts> {
  return productAccessCache.getOrLoad(productId, () => loadProductFacts(ctx, productId));
}

/** Which of these products have a file for the reader (a Read Now without one ends in 404). */
export async function withReaderFiles(
  ctx: RequestContext,
  productIds: readonly number[],
): Promise<Set<number>> {
  if (productIds.length === 0) return new Set();
  const rows = await ctx.db
    .selectDistinct({ productId: bookFiles.productId })
    .from(bookFiles)
    .where(and(inArray(bookFiles.productId, [...productIds]), eq(bookFiles.type, 'READER')));
  return new Set(rows.map((row) => row.productId));
}

/**
 * What opens, for the signed-in user, of several products at once (order-complete, lists):
 * the rule's decision per product, and whether a reader's Read Now would find a file.
 */
export async function openingsOf(
  ctx: RequestContext,
  items: readonly { productId: number; productType: string; status: string }[],
): Promise<Map<number, { decision: Entitlement; readable: boolean; noFile: boolean }>> {
  const ids = [...new Set(items.map((item) => item.productId))];
  const user = ctx.user;
  const [owned, members, { readerFiles: files, physical }] = await Promise.all([
    user ? ownershipsOf(ctx, user.id, ids) : new Map<number, EntitlementOwnership[]>(),
    user ? membershipsListing(ctx, user.id, ids) : new Map<number, EntitlementMembership[]>(),
    productSides(ctx, items),
  ]);
  return new Map(
    items.map((item) => {
      const decision = entitlement({
        signedIn: !!user,
        product: { ...item, physical: physical.has(item.productId) },
        ownerships: owned.get(item.productId) ?? [],
        memberships: members.get(item.productId) ?? [],
        now: ctx.now,
      });
      const reads = decision.ok && decision.entry === 'read';
      const hasFile = files.has(item.productId);
      return [item.productId, { decision, readable: reads && hasFile, noFile: reads && !hasFile }];
    }),
  );
}

/** The rule's grant, or AccessRefused with its reason (a visitor: login required). */
export async function requireEntitlement(
  ctx: RequestContext,
  productId: number,
  through: Through = {},
): Promise<{ product: ProductFacts; grant: Extract<Entitlement, { ok: true }> }> {
  if (!ctx.user) throw new Forbidden('error.loginRequired');
  const { product, decision } = await entitlementOf(ctx, productId, through);
  if (!decision.ok) throw new AccessRefused(decision, productId);
  return { product, grant: decision };
}
