import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { coverVersion } from './cover-version.ts';
import { priceLabel } from './price-label.ts';
import { productPath } from './product-route.ts';
import type { ProductCard } from './types.ts';

/** The product columns every card needs. */
export const cardColumns = {
  id: products.id,
  productType: products.productType,
  title: products.title,
  subtitle: products.subtitle,
  authors: products.authors,
  slug: products.slug,
  languageCode: products.languageCode,
  saleHold: products.saleHold,
  cover: coverVersion,
};

type CardRow = {
  id: number;
  productType: string;
  title: string;
  subtitle: string | null;
  authors: string;
  slug: string;
  languageCode: string;
  saleHold: string | null;
  cover: string;
};
type OfferSummary = { lowestCents: number | null; activeOffers: number };

/** Lowest active price and number of active offers, for a page of products in one query. */
export async function offerSummaries(
  db: Queryable,
  productIds: number[],
): Promise<Map<number, OfferSummary>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({
      productId: offerings.productId,
      lowestCents: sql<number | null>`min(${offerings.priceCents})`,
      activeOffers: sql<number>`count(*)::int`,
    })
    .from(offerings)
    .where(and(inArray(offerings.productId, productIds), eq(offerings.isActive, true)))
    .groupBy(offerings.productId);
  return new Map(
    rows.map((r) => [r.productId, { lowestCents: r.lowestCents, activeOffers: r.activeOffers }]),
  );
}

/** Cards for product rows, in the rows' order, with the spec 1 §4 price display. */
export async function toProductCards<Row extends CardRow>(
  db: Queryable,
  rows: Row[],
  // When the ids are known before the rows, the caller may have run offerSummaries alongside.
  prefetched?: Map<number, OfferSummary>,
): Promise<(Omit<Row, 'saleHold'> & ProductCard)[]> {
  const summaries =
    prefetched ??
    (await offerSummaries(
      db,
      rows.map((r) => r.id),
    ));
  return rows.map(({ saleHold, ...row }) => {
    const summary = summaries.get(row.id);
    return {
      ...row,
      path: productPath(row),
      price: priceLabel({
        productType: row.productType,
        hasOffer: (summary?.activeOffers ?? 0) > 0,
        priceCents: summary?.lowestCents ?? null,
        saleHold,
      }),
    };
  });
}
