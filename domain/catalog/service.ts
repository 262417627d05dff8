import { and, eq, ne, sql } from 'drizzle-orm';
import {
  bookFiles,
  collectionItems,
  offerings,
  productCategories,
  productFeatures,
  productIdentifiers,
  products,
} from '#db/schema/catalog.ts';
import { coverSvg } from '#db/seed/content/cover-svg.ts';
import { type CartOwner, cartOfferingOf } from '#domain/commerce/cart.ts';
import { buyableOfferings } from '#domain/commerce/purchase-check.ts';
import { nothingLeftToBuy, purchaseRefusal } from '#domain/commerce/purchase-value.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import { ownsProduct } from '#domain/shelf/service.ts';
import { isWhiteLabel } from '#domain/sites/site-rules.ts';
import { type AccessibilityGroup, accessibilityGroups } from './accessibility-metadata.ts';
import { shownAccessibilityRows } from './accessibility-sources.ts';
import { type UnavailabilityReason, unavailabilityReason } from './availability.ts';
import { type CategoryLink, categoryTrail, tray } from './categories.ts';
import { otherContributors } from './contributors.ts';
import { coverVersion } from './cover-version.ts';
import {
  defaultOffering,
  type OfferingPanel,
  offeringPanel,
  sortOfferings,
} from './offering-selection.ts';
import { cardColumns, toProductCards } from './product-cards.ts';
import type { ProductFeature } from './product-features.ts';
import { hasReaderFile } from './reader-file.ts';
import { shownIsbn } from './shown-isbn.ts';
import type { ProductCard } from './types.ts';

const sellable = and(eq(products.status, 'active'), eq(products.isDisabled, false));

/** 'Best Sellers' (order by sales) and 'Campus Favorites' (order by adoptions), spec 1 §2. */
export async function featuredTrays(ctx: RequestContext, limit = 8) {
  const [bestSellers, campusFavorites] = await Promise.all([
    tray(ctx, { order: 'sales', limit }),
    tray(ctx, { order: 'adoptions', limit }),
  ]);
  return { bestSellers, campusFavorites };
}

// Counting a million rows on every home page view costs more than the figure is worth: a
// few minutes' staleness is fine for "more than N titles", and no other process needs it.
const countCache = new TimedCache<'sellable', number>(5 * 60_000, 1, 'product lists');

export function sellableProductCount(ctx: RequestContext): Promise<number> {
  return countCache.getOrLoad('sellable', async () => {
    const [row] = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .where(sellable);
    return row?.n ?? 0;
  });
}

/** What a product's cover is drawn from; unknown ids are not found. */
async function coverFacts(ctx: RequestContext, id: number) {
  const [row] = await ctx.db
    .select({
      title: products.title,
      authors: products.authors,
      productType: products.productType,
      coverPath: products.coverPath,
      coverSha256: products.coverSha256,
      version: coverVersion,
    })
    .from(products)
    .where(eq(products.id, id))
    .limit(1);
  if (!row) throw new NotFound();
  return row;
}

/**
 * A product's cover: the publisher's image in the store when it has one (issue 15), and the
 * generated SVG (issue 2 §3), which also stands in when the stored image cannot be read.
 */
export async function productCover(
  ctx: RequestContext,
  id: number,
): Promise<{
  svg: string;
  stored: { storagePath: string; sha256: string } | null;
  /** The cover's version (cover-version.ts). */
  version: string;
}> {
  const facts = await coverFacts(ctx, id);
  const svg = coverSvg({
    title: facts.title,
    author: facts.authors,
    type: facts.productType,
    seed: id,
  });
  const stored =
    facts.coverPath && facts.coverSha256
      ? { storagePath: facts.coverPath, sha256: facts.coverSha256 }
      : null;
  return { svg, stored, version: facts.version };
}

export type ProductOffering = {
  id: number;
  /** The product's type, which names the offering (offering-terms.ts offeringName). */
  productType: string;
  type: string;
  priceCents: number;
  comboPriceCents: number | null;
  currencyCode: string;
  description: string;
  durationDays: number | null;
  isRental: boolean;
};

export type ProductDetail = ProductCard & {
  description: string;
  publisher: string;
  publishYear: number | null;
  languageCode: string;
  numPages: number | null;
  /** The publisher's edition label when it is not a number (see editionNumber). */
  edition: string | null;
  /** A numbered edition, which pages say in their language (editionWording). */
  editionNumber: number | null;
  isbn: string | null;
  isbns: { type: string; value: string }[];
  status: string;
  /** Active offerings, cheapest first (spec 1 §4). */
  offerings: ProductOffering[];
  /** Why it cannot be bought here and now (spec 1 §4 Availability), or null. */
  unavailable: UnavailabilityReason | null;
  fileType: string | null;
  /** The 'eBook Features' tab (featureWording says what each row shows). */
  ebookFeatures: ProductFeature[];
  /** The ACCESSIBILITY tab and modal: EPUB only (spec 1 §2). */
  accessibility: AccessibilityGroup[] | null;
  /**
   * Home, Browse, the first BISAC code's ancestors and itself, named in the request's language;
   * empty on white-label sites.
   */
  breadcrumb: CategoryLink[];
  categoryId: number | null;
  /** Items of a collection, an ebundle or a classroom, in their order. */
  items: ProductCard[];
  /** Features by category: classroom, supplemental, collection, courseware. */
  typeFeatures: Record<string, ProductFeature[]>;
  /** Courseware: the PCARD_10 identifier, the redemption link and the code rules. */
  pcard10: string | null;
  redemptionUrl: string | null;
  /** Files of the book (spec 1 §3 Book file); reading and downloading them needs ownership. */
  bookFiles: { id: number; title: string; extension: string; type: string }[];
  isCodeless: boolean;
  isUrlAccessCode: boolean;
  /** The collection or series, from a publisher's feed (issue 15). */
  series: string | null;
  /** Contributors other than the byline's, with their ONIX role (issue 15). */
  contributors: { name: string; role: string }[];
};

// A product page's facts are the same for every visitor of a site in a country and a language
// (the breadcrumb's category names are in that language): each process keeps them a minute,
// and forgets them at once when the product or one of its items changes (server/app.ts, on a
// catalog change notification, migration 0004).
const detailCache = new TimedCache<string, ProductDetail>(60_000, 5_000, {
  products: (detail) => [detail.id, ...detail.items.map((item) => item.id)],
});

/** A product page's core facts; unknown ids are not found (spec 1 §6). */
export function productDetail(ctx: RequestContext, id: number): Promise<ProductDetail> {
  return detailCache.getOrLoad(
    `${ctx.site.host}\u0000${ctx.country}\u0000${ctx.locale}\u0000${id}`,
    () => loadProductDetail(ctx, id),
  );
}

async function loadProductDetail(ctx: RequestContext, id: number): Promise<ProductDetail> {
  const [row] = await ctx.db
    .select({
      ...cardColumns,
      description: products.description,
      publisher: products.publisher,
      publishYear: products.publishYear,
      languageCode: products.languageCode,
      numPages: products.numPages,
      edition: products.edition,
      editionNumber: products.editionNumber,
      status: products.status,
      isDisabled: products.isDisabled,
      blockedCountries: products.blockedCountries,
      blockedHosts: products.blockedHosts,
      fileType: products.productFileType,
      fixedLayout: products.fixedLayout,
      redemptionUrl: products.redemptionUrl,
      isCodeless: products.isCodeless,
      isUrlAccessCode: products.isUrlAccessCode,
      saleStartsAt: products.saleStartsAt,
      series: products.series,
      contributors: products.contributors,
    })
    .from(products)
    .where(eq(products.id, id))
    .limit(1);
  if (!row || row.status === 'deleted') throw new NotFound();
  const [isbns, offers, features, [firstCategory]] = await Promise.all([
    ctx.db
      .select({ type: productIdentifiers.type, value: productIdentifiers.value })
      .from(productIdentifiers)
      .where(eq(productIdentifiers.productId, id)),
    ctx.db
      .select({
        id: offerings.id,
        type: offerings.type,
        priceCents: offerings.priceCents,
        comboPriceCents: offerings.comboPriceCents,
        currencyCode: offerings.currencyCode,
        description: offerings.description,
        durationDays: offerings.durationDays,
        isRental: offerings.isRental,
      })
      .from(offerings)
      .where(and(eq(offerings.productId, id), eq(offerings.isActive, true))),
    ctx.db
      .select({
        category: productFeatures.category,
        subcategory: productFeatures.subcategory,
        code: productFeatures.code,
        name: productFeatures.name,
        detail: productFeatures.detail,
        url: productFeatures.url,
        source: productFeatures.source,
      })
      .from(productFeatures)
      .where(eq(productFeatures.productId, id))
      .orderBy(productFeatures.position, productFeatures.id),
    ctx.db
      .select({ id: productCategories.categoryId })
      .from(productCategories)
      .where(eq(productCategories.productId, id))
      .orderBy(productCategories.position, productCategories.categoryId)
      .limit(1),
  ]);
  const {
    isDisabled,
    blockedCountries,
    blockedHosts,
    fileType,
    fixedLayout,
    redemptionUrl,
    isCodeless,
    isUrlAccessCode,
    saleStartsAt,
    contributors,
    ...shown
  } = row;
  const itemRows = ['collection', 'ebundle', 'classroom'].includes(row.productType)
    ? await ctx.db
        .select(cardColumns)
        .from(collectionItems)
        .innerJoin(products, eq(products.id, collectionItems.itemId))
        .where(and(eq(collectionItems.collectionId, id), ne(products.status, 'deleted')))
        .orderBy(collectionItems.position, collectionItems.itemId)
    : [];
  const typeFeatures: Record<string, ProductFeature[]> = {};
  for (const f of features) {
    if (f.category === 'ebook' || f.category === 'accessibility') continue;
    const list = typeFeatures[f.category] ?? [];
    list.push({ code: f.code, name: f.name, detail: f.detail });
    typeFeatures[f.category] = list;
  }
  // spec 1 §2: the breadcrumb shows only when the site is not white-label and the first BISAC
  // code resolves.
  const breadcrumb =
    firstCategory && !isWhiteLabel(ctx.site) ? await categoryTrail(ctx, firstCategory.id) : [];
  const [card] = await toProductCards(ctx.db, [shown]);
  const files = await ctx.db
    .select({
      id: bookFiles.id,
      title: bookFiles.title,
      extension: bookFiles.extension,
      type: bookFiles.type,
    })
    .from(bookFiles)
    .where(eq(bookFiles.productId, id))
    .orderBy(bookFiles.id);
  // Only what can be delivered is offered (issue 19): an e-book's digital offerings need its
  // file for the reader; a print copy needs none.
  const readerFile = hasReaderFile(files);
  const deliverable = offers.filter(
    (offer) =>
      purchaseRefusal({
        offering: offer,
        productType: row.productType,
        hasReaderFile: readerFile,
        held: null,
        now: ctx.now,
      }) === null,
  );
  return {
    ...card!,
    isbn: shownIsbn(isbns),
    isbns,
    fileType,
    ebookFeatures: features
      .filter((f) => f.category === 'ebook')
      .map(({ code, name, detail }) => ({ code, name, detail })),
    accessibility:
      fileType === 'EPUB'
        ? accessibilityGroups(shownAccessibilityRows(features, { fixedLayout }), ctx.locale)
        : null,
    breadcrumb,
    categoryId: firstCategory?.id ?? null,
    items: await toProductCards(ctx.db, itemRows),
    typeFeatures,
    pcard10: isbns.find((i) => i.type === 'PCARD_10')?.value ?? null,
    bookFiles: files,
    redemptionUrl,
    isCodeless,
    isUrlAccessCode,
    offerings: sortOfferings(deliverable).map((offer) => ({
      ...offer,
      productType: row.productType,
    })),
    contributors: otherContributors(contributors),
    unavailable: unavailabilityReason({
      status: row.status,
      isDisabled,
      blockedCountries,
      blockedHosts,
      saleHold: row.saleHold,
      saleStartsAt,
      now: ctx.now,
      activeOfferings: offers.length,
      deliverableOfferings: deliverable.length,
      country: ctx.country,
      host: ctx.site.host,
    }),
  };
}

/** The related books tray: best sellers in the same BISAC code (spec 1 §2). */
export function relatedProducts(
  ctx: RequestContext,
  product: { id: number; categoryId: number | null },
) {
  if (!product.categoryId) return Promise.resolve([]);
  return tray(ctx, {
    order: 'sales',
    categoryId: product.categoryId,
    excludeId: product.id,
    limit: 8,
  });
}

export type UserAvailability = {
  isOwned: boolean;
  inCart: boolean;
};

export type CatalogItem = ProductDetail & {
  userAvailability: UserAvailability;
  /** Whether and how the offerings select shows (spec 1 §4), for this user and site. */
  offeringPanel: OfferingPanel;
  /** The offering selected by default (spec 1 §4 Offering selection default). */
  defaultOfferingId: number | null;
};

/**
 * The catalog item of the product side sheet (spec 1 §3 Catalog item, spec 2 §7): the product
 * page's facts plus what this user has of it, owned or in the cart of `cartOwner` (the
 * account's, or an anonymous browser's). Unknown and deleted ids are not found.
 */
export async function catalogItem(
  ctx: RequestContext,
  id: number,
  cartOwner: CartOwner | null = null,
  /** Where the product's public facts are read: the read replica's context (issue 40). */
  catalogCtx: RequestContext = ctx,
): Promise<CatalogItem> {
  const [shown, isOwned, cartOfferingId] = await Promise.all([
    productDetail(catalogCtx, id),
    ownsProduct(ctx, id),
    cartOfferingOf(ctx.db, cartOwner, id),
  ]);
  // Only offerings that add something to what this user holds, as on the product page
  // (issue 19): the sheet's Add To Cart never leads to a refusal.
  const detail = { ...shown, offerings: (await buyableOfferings(ctx, shown)).offerings };
  const userAvailability = { isOwned, inCart: cartOfferingId !== null };
  const panel = offeringPanel({
    productType: detail.productType,
    offeringCount: detail.offerings.length,
    owned: nothingLeftToBuy(userAvailability.isOwned, detail.offerings.length),
    inCart: userAvailability.inCart,
    partnerOrg: ctx.site.org?.isBookstorePartner ?? false,
    follettLabel: ctx.site.isFollettLabel,
  });
  return {
    ...detail,
    userAvailability,
    // Nothing can be bought while the product is unavailable (spec 1 §4 Availability).
    offeringPanel: detail.unavailable ? { ...panel, visible: false } : panel,
    defaultOfferingId: defaultOffering({
      offerings: detail.offerings,
      cartOfferingId,
      loggedIn: !!ctx.user,
    }),
  };
}
