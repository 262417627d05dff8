import { and, between, eq, notInArray, sql } from 'drizzle-orm';
import { products } from '#db/schema/catalog.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { productPath } from './product-route.ts';

// A sitemap file holds at most 50,000 URLs; pages are id ranges, so any page is one index scan.
export const SITEMAP_PAGE_IDS = 50_000;

const listed = and(
  notInArray(products.status, ['deleted', 'withdrawn', 'deactivated']),
  eq(products.isDisabled, false),
);

export async function sitemapPageCount(ctx: RequestContext): Promise<number> {
  const [row] = await ctx.db
    .select({ max: sql<number | null>`max(${products.id})` })
    .from(products);
  return Math.max(1, Math.ceil((row?.max ?? 0) / SITEMAP_PAGE_IDS));
}

/** The sellable product pages of one sitemap page (issue 3: every sellable product page). */
export async function sitemapPage(ctx: RequestContext, page: number): Promise<string[]> {
  if (!Number.isSafeInteger(page) || page < 1 || page > (await sitemapPageCount(ctx)))
    throw new NotFound();
  const rows = await ctx.db
    .select({ id: products.id, productType: products.productType, slug: products.slug })
    .from(products)
    .where(
      and(listed, between(products.id, (page - 1) * SITEMAP_PAGE_IDS + 1, page * SITEMAP_PAGE_IDS)),
    )
    .orderBy(products.id);
  return rows.map(productPath);
}
