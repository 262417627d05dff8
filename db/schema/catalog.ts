import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const PRODUCT_TYPES = [
  'book',
  'ebundle',
  'courseware',
  'collection',
  'classroom',
  'physical_product',
] as const;

export const IDENTIFIER_TYPES = [
  'EISBN13',
  'ISBN13',
  'EISBN10',
  'ISBN10',
  'PCARD_13',
  'PCARD_10',
  'CLASSROOM_ISBN',
  'COLLECTION_ISBN',
] as const;

export const OFFERING_TYPES = [
  'digital',
  'physical',
  'physical_product',
  'combo',
  'print',
] as const;

export const inList = (values: readonly string[]) =>
  sql.raw(values.map((v) => `'${v}'`).join(', '));

export const categories = pgTable(
  'categories',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    // BISAC subject code, e.g. MAT005000.
    code: text().notNull(),
    title: text().notNull(),
    // The title in French (Canada); null shows `title` (issue 13: category names in fr-CA).
    titleFrCa: text(),
    urlSlug: text().notNull(),
    parentId: integer().references((): AnyPgColumn => categories.id),
    depth: smallint().notNull().default(0),
  },
  (t) => [
    uniqueIndex('categories_code_unique').on(t.code),
    uniqueIndex('categories_slug_unique').on(t.urlSlug),
    index('categories_parent').on(t.parentId),
    check('categories_code_shape', sql`${t.code} ~ '^[A-Z]{3}[0-9]{6}$'`),
  ],
);

export const products = pgTable(
  'products',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    productType: text().notNull(),
    title: text().notNull(),
    subtitle: text(),
    slug: text().notNull(),
    description: text().notNull().default(''),
    authors: text().notNull().default(''),
    imprint: text(),
    // 'Sold By' in the additional details table (spec 1 §2).
    publisher: text().notNull().default(''),
    // An edition that is a number: the store says it in the page's language ('3rd Edition',
    // '3e édition'); `edition` keeps any other label as the publisher wrote it (issue 13).
    edition: text(),
    editionNumber: smallint(),
    languageCode: text().notNull().default('en'),
    numPages: integer(),
    publishYear: smallint(),
    courseTitle: text(),
    schoolTitle: text(),
    websiteUrl: text(),
    supplierItemId: text(),
    // Display form of the shown ISBN, denormalised for search and cards.
    isbnText: text().notNull().default(''),
    productFileType: text(),
    // The reader file's own layout (issue 38): true for a fixed-layout EPUB (rendition:layout
    // pre-paginated), false for a reflowable one, null when no EPUB has been checked.
    fixedLayout: boolean(),
    isCodeless: boolean().notNull().default(false),
    isUrlAccessCode: boolean().notNull().default(false),
    showRedeem: boolean().notNull().default(false),
    redemptionUrl: text(),
    accessUrl: text(),
    hasTextToSpeech: boolean().notNull().default(false),
    hasFeaturePrinting: boolean().notNull().default(false),
    featurePrintingTitle: text(),
    // ONIX RecordReference of an imported product (issue 15): updates and deletes find it by
    // this, else by ISBN. Null for products the store made itself.
    recordReference: text(),
    // sha256 of the record as read: importing the same record again changes nothing.
    sourceDigest: text(),
    // Every contributor in the feed's sequence, with the ONIX role code (A01 author...).
    contributors: jsonb().$type<{ name: string; role: string }[]>(),
    // Collection / series title, with its part number when the feed gives one.
    series: text(),
    // The publisher's keywords (ONIX subject scheme 20), searched with weight C: at most 30
    // of at most 100 characters (domain/catalog/onix/keywords.ts). jsonb, not text[]: its
    // to_tsvector is immutable, so the generated search_vector can read it.
    keywords: jsonb().$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    publicationDate: date(),
    // A future publication or embargo date: shown, not sold until then (issue 15).
    saleStartsAt: timestamp({ withTimezone: true }),
    // Why an imported product has no price here: no US price in USD, a price to be
    // announced, or the supplier says it is not available. Null: priced or not imported.
    saleHold: text(),
    // A publisher's cover (issue 15): the original image in the book file store, kept once;
    // pages get it drawn at their widths. Null: the generated cover.
    coverPath: text(),
    coverSha256: text(),
    // 'feed' (an image the feed names) or 'epub' (the EPUB's cover image): a feed's wins.
    coverSource: text(),
    // Availability status of spec 1 §3: active, deactivated, withdrawn, deleted.
    status: text().notNull().default('active'),
    isDisabled: boolean().notNull().default(false),
    // Territory: ISO country codes where the product may not be sold (spec 1 §4 'territory').
    blockedCountries: text().array().notNull().default(sql`'{}'::text[]`),
    // Market: site host names where the product may not be sold (spec 1 §4 'market').
    blockedHosts: text().array().notNull().default(sql`'{}'::text[]`),
    drmOfflinePercent: numeric({ precision: 5, scale: 2 }),
    drmCopyPercent: numeric({ precision: 5, scale: 2 }),
    drmPrintPercent: numeric({ precision: 5, scale: 2 }),
    // Counters maintained on order paid and on course adoption (DESIGN.md, Data).
    salesCount: integer().notNull().default(0),
    adoptionCount: integer().notNull().default(0),
    searchVector: tsvector().generatedAlwaysAs(
      (): SQL => sql`
        setweight(to_tsvector('english', coalesce(${products.title}, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(${products.subtitle}, '')), 'B') ||
        setweight(to_tsvector('simple', coalesce(${products.authors}, '') || ' ' || coalesce(${products.isbnText}, '')), 'B') ||
        setweight(to_tsvector('english', coalesce(${products.description}, '')), 'C') ||
        setweight(to_tsvector('english', ${products.keywords}), 'C')`,
    ),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('products_type', sql`${t.productType} in (${inList(PRODUCT_TYPES)})`),
    check('products_status', sql`${t.status} in ('active', 'deactivated', 'withdrawn', 'deleted')`),
    check(
      'products_file_type',
      sql`${t.productFileType} is null or ${t.productFileType} in ('EPUB', 'PDF')`,
    ),
    check(
      'products_drm_range',
      sql`coalesce(${t.drmOfflinePercent}, 0) between 0 and 100 and coalesce(${t.drmCopyPercent}, 0) between 0 and 100 and coalesce(${t.drmPrintPercent}, 0) between 0 and 100`,
    ),
    check(
      'products_sale_hold',
      sql`${t.saleHold} is null or ${t.saleHold} in ('unpriced', 'no-us-price', 'not-available')`,
    ),
    uniqueIndex('products_record_reference')
      .on(t.recordReference)
      .where(sql`record_reference is not null`),
    check('products_slug_shape', sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    check('products_counters', sql`${t.salesCount} >= 0 and ${t.adoptionCount} >= 0`),
    check('products_edition_number', sql`${t.editionNumber} is null or ${t.editionNumber} > 0`),
    check(
      'products_keywords',
      sql`jsonb_typeof(${t.keywords}) = 'array' and jsonb_array_length(${t.keywords}) <= 30`,
    ),
    // Only sellable products are ever searched: a smaller index, and no heap visit to learn
    // that a match was deleted (domain/catalog/search.ts writes the same predicate).
    index('products_search')
      .using('gin', t.searchVector)
      .where(sql`status not in ('deleted', 'withdrawn') and not is_disabled`),
    index('products_title_trgm').using('gin', sql`${t.title} gin_trgm_ops`),
    // DESC NULLS FIRST matches `order by sales_count desc`, so the planner reads the index in order.
    index('products_sales').on(t.salesCount.desc().nullsFirst(), t.id),
    index('products_adoptions').on(t.adoptionCount.desc().nullsFirst(), t.id),
    index('products_type_idx').on(t.productType),
    // Search by edition (issue 19: '2nd ed.'), sellable products only, best sellers first.
    index('products_edition')
      .on(t.editionNumber, t.salesCount.desc().nullsFirst(), t.id)
      .where(
        sql`edition_number is not null and status not in ('deleted', 'withdrawn') and not is_disabled`,
      ),
  ],
);

export const productIdentifiers = pgTable(
  'product_identifiers',
  {
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    // Normalised: digits and X only (DESIGN.md, Data).
    value: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.type] }),
    uniqueIndex('product_identifiers_type_value').on(t.type, t.value),
    index('product_identifiers_value').on(t.value),
    check('product_identifiers_type', sql`${t.type} in (${inList(IDENTIFIER_TYPES)})`),
    check('product_identifiers_value_shape', sql`${t.value} ~ '^[0-9]{9,16}X?$'`),
  ],
);

export const productCategories = pgTable(
  'product_categories',
  {
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    categoryId: integer()
      .notNull()
      .references(() => categories.id),
    // 0 is the first BISAC code, which drives the breadcrumb (spec 1 §2).
    position: smallint().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.categoryId] }),
    index('product_categories_category').on(t.categoryId, t.productId),
  ],
);

export const offerings = pgTable(
  'offerings',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    bookType: text().notNull(),
    priceCents: integer().notNull(),
    comboPriceCents: integer(),
    currencyCode: text().notNull().default('USD'),
    description: text().notNull().default(''),
    terms: text().notNull().default(''),
    // Digital access length; null means perpetual.
    durationDays: integer(),
    isRental: boolean().notNull().default(false),
    isActive: boolean().notNull().default(true),
    // Physical units on hand; null for goods without stock (digital, print on demand).
    stock: integer(),
  },
  (t) => [
    index('offerings_product').on(t.productId),
    check('offerings_type', sql`${t.type} in (${inList(OFFERING_TYPES)})`),
    check('offerings_book_type', sql`${t.bookType} in ('digital', 'print', 'combo')`),
    check('offerings_price', sql`${t.priceCents} >= 0 and coalesce(${t.comboPriceCents}, 0) >= 0`),
    check('offerings_currency', sql`${t.currencyCode} = 'USD'`),
    check('offerings_duration', sql`${t.durationDays} is null or ${t.durationDays} > 0`),
    check('offerings_stock', sql`${t.stock} is null or ${t.stock} >= 0`),
  ],
);

export const productFeatures = pgTable(
  'product_features',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    // ebook, accessibility, classroom, supplemental, collection, courseware
    category: text().notNull(),
    subcategory: text(),
    // What the store says of this feature in the page's language: a W3C accessibility display
    // guide statement id, or a feature of the store's own (domain/catalog/product-features.ts).
    // Null: `name` and `detail` are the source's own words, shown in the product's language.
    code: text(),
    name: text().notNull(),
    detail: text(),
    url: text(),
    position: smallint().notNull().default(0),
    // Where an accessibility statement comes from (issue 38): 'feed' (the ONIX record) or
    // 'file' (the EPUB's package), so each source replaces only its own; null: the store's.
    source: text().$type<'feed' | 'file'>(),
  },
  (t) => [
    index('product_features_product').on(t.productId, t.category, t.position),
    check('product_features_source', sql`${t.source} is null or ${t.source} in ('feed', 'file')`),
    check(
      'product_features_category',
      sql`${t.category} in ('ebook', 'accessibility', 'classroom', 'supplemental', 'collection', 'courseware')`,
    ),
    check(
      'product_features_code_shape',
      sql`${t.code} is null or ${t.code} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`,
    ),
  ],
);

// Items of a collection, an ebundle or a classroom.
export const collectionItems = pgTable(
  'collection_items',
  {
    collectionId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    itemId: integer()
      .notNull()
      .references(() => products.id),
    position: smallint().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.itemId] }),
    check('collection_items_not_self', sql`${t.collectionId} <> ${t.itemId}`),
  ],
);

export const bookFiles = pgTable(
  'book_files',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    extension: text().notNull(),
    type: text().notNull(),
    mediaType: text().notNull(),
    // Path under the data directory; never exposed in a URL.
    storagePath: text().notNull(),
    byteSize: integer().notNull(),
    sha256: text().notNull(),
  },
  (t) => [
    index('book_files_product').on(t.productId),
    check('book_files_type', sql`${t.type} in ('DOC', 'READER')`),
    check('book_files_extension', sql`${t.extension} in ('epub', 'pdf')`),
  ],
);
