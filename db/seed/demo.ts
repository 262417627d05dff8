// The demo data set: catalogue, sites, accounts, courses and shelves (README, "Demo accounts").
// The server seeds it into an empty embedded database on first start; `npm run db:seed` builds
// any size, up to a million products for benchmarks, in batches so memory stays flat.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle, Queryable } from '#db/client.ts';
import { insertCategoryTree } from '#db/reference/categories.ts';
import { hashPassword } from '#domain/accounts/password.ts';
import { type BookFileStore, diskFileStore } from '#domain/reading/file-store.ts';
import { DEMO_PASSWORD, type DemoUsers, seedAccounts } from './accounts.ts';
import { bulkInsert, type ColumnSpec, rowsOf } from './bulk-insert.ts';
import {
  type BuiltProduct,
  buildProduct,
  type CatalogContext,
  FIXTURE_INDEX,
  type FixtureName,
  itemsOf,
  planOf,
} from './catalog.ts';
import { type DemoSections, seedCourses } from './courses.ts';
import { FEATURE_TEMPLATES } from './features.ts';
import { seedDemoTools } from './launch.ts';
import {
  type PublisherFeedResult,
  publisherFeedSize,
  seedPublisherFeed,
} from './publisher-feed.ts';
import { seedDemoSecondFactor } from './second-factor.ts';
import { seedShelf } from './shelf.ts';
import { seedSites } from './sites.ts';

export { redeemCodeDigest } from '#domain/access/redeem.ts';

import { seedCampusSignIn } from './campus.ts';

export { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_REDEEM_CODE } from './accounts.ts';

export type SeedOptions = {
  /** Catalogue size; default 2,400. */
  products?: number;
  /** Book files go to `${dataDir}/files/`. */
  dataDir: string;
  /** Where the demo publisher's imported files go; default: the data directory's store. */
  bookFiles?: BookFileStore;
  /** Dates are relative to this (terms, deadlines, purchases); default: the current time. */
  now?: Date;
  log?: (line: string) => void;
  /** ACCESS_CODE_KEY: the demo redeem code is stored as its digest under this key. */
  accessCodeKey: string;
  /** LTI_KEY: the demo tool's LTI 1.1 secret is stored encrypted under it (decision 017). */
  ltiKey?: string;
  /**
   * Product batches written at once, each in its own transaction on its own pooled connection
   * (PostgreSQL only, and only when `handle.db` is a pool, as db:seed's is). 1, the default,
   * seeds everything in one transaction.
   */
  writers?: number;
};

export type SeedSummary = {
  products: number;
  categories: number;
  users: number;
  sections: number;
  bookFiles: number;
  ms: number;
  /** Ids of the products the demo accounts use. */
  productIds: Record<FixtureName, number>;
  /** The demo publisher's feed, imported as an operator's would be (publisher-feed.ts). */
  publisherFeed: PublisherFeedResult;
  /** Ids and names of the demo sections, by key (bio001 is the student's opted-in section). */
  sectionIds: Record<keyof DemoSections, { id: number; name: string }>;
  userIds: Omit<DemoUsers, 'students' | 'instructors'>;
};

export const DEFAULT_PRODUCTS = 2400;
/** Fewer products cannot hold the fixtures and the items of the demo collections. */
export const MIN_PRODUCTS = 100;
const BATCH = 5000;
const DEFERRED_INDEX_THRESHOLD = 50_000;
const BULK_TABLES = [
  'products',
  'product_identifiers',
  'product_categories',
  'offerings',
  'product_features',
  'collection_items',
];

/** True when the database holds no users and no products (nothing to protect). */
export async function isDatabaseEmpty(db: Queryable): Promise<boolean> {
  const [row] = rowsOf<{ empty: boolean }>(
    await db.execute(
      sql`select not exists (select 1 from users) and not exists (select 1 from products) as empty`,
    ),
  );
  return row?.empty === true;
}

export async function seedDemo(handle: DatabaseHandle, options: SeedOptions): Promise<SeedSummary> {
  const started = Date.now();
  const productCount = options.products ?? DEFAULT_PRODUCTS;
  if (!Number.isInteger(productCount) || productCount < MIN_PRODUCTS) {
    throw new RangeError(`products must be an integer of at least ${MIN_PRODUCTS}`);
  }
  const now = options.now ?? new Date();
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  // PGlite runs in this thread: more writers would only take turns.
  const writers = handle.kind === 'postgres' ? Math.max(1, Math.floor(options.writers ?? 1)) : 1;
  const deferIndexes = productCount >= DEFERRED_INDEX_THRESHOLD;
  mkdirSync(path.join(dataDir, 'files'), { recursive: true });
  // argon2id is slow on purpose: hash once, share it between all demo accounts.
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const begin = async (tx: Queryable): Promise<Setup> => {
    const orgs = await seedSites(tx);
    const categoryIds = await seedCategories(tx);
    const people = await seedAccounts(tx, orgs, passwordHash, now);
    log(`demo seed: sites, ${categoryIds.size} categories and accounts done`);
    const [maxRow] = rowsOf<{ max: number }>(
      await tx.execute(sql`select coalesce(max(id), 0)::int as max from products`),
    );
    const baseId = maxRow?.max ?? 0;
    catalog = { baseId, now, categoryIds };
    return { orgs, people, catalog };
  };
  let catalog: CatalogContext | null = null;

  const finish = async (
    tx: Queryable,
    setup: Setup,
  ): Promise<Omit<SeedSummary, 'publisherFeed'>> => {
    const { orgs, people, catalog } = setup;
    const { baseId } = catalog;
    await seedItems(tx, productCount, baseId);
    await tx.execute(
      sql`select setval(pg_get_serial_sequence('products', 'id'), (select max(id) from products))`,
    );
    const sections = await seedCourses(tx, orgs, people, { now, baseId, productCount });
    await seedCampusSignIn(tx, orgs, sections, now);
    const shelf = await seedShelf(tx, {
      dataDir,
      now,
      baseId,
      productCount,
      people,
      sections,
      accessCodeKey: options.accessCodeKey,
    });
    if (options.ltiKey) {
      const product = (name: FixtureName) => baseId + FIXTURE_INDEX[name];
      await seedDemoTools(tx, {
        ltiKey: options.ltiKey,
        products: {
          lti13: product('poolCourseware'),
          lti11: [product('studentCourseware'), product('ltiCourseware')],
        },
      });
      const managers = [people.manager, people.bookstore, people.lakeshore];
      await seedDemoSecondFactor(tx, { ltiKey: options.ltiKey, userIds: managers, now });
    }
    // Fresh statistics, so the first catalogue queries on a big seed get sensible plans.
    await tx.execute(sql`analyze products`);

    const userCount = 9 + people.students.length + people.instructors.length;
    const ms = Date.now() - started;
    log(`demo seed: ${productCount} products, ${userCount} users in ${ms} ms`);
    const { students: _s, instructors: _i, ...userIds } = people;
    return {
      products: productCount,
      categories: catalog.categoryIds.size,
      users: userCount,
      sections: Object.keys(sections).length,
      bookFiles: shelf.bookFiles,
      ms,
      productIds: Object.fromEntries(
        Object.entries(FIXTURE_INDEX).map(([name, index]) => [name, baseId + index]),
      ) as Record<FixtureName, number>,
      sectionIds: Object.fromEntries(
        Object.entries(sections).map(([key, s]) => [key, { id: s.id, name: s.name }]),
      ) as SeedSummary['sectionIds'],
      userIds,
    };
  };

  const seeded = writers === 1 ? await inOneTransaction() : await withWriters();
  // What a publisher sends, in through the import (issue 15): after the store's own catalogue,
  // so that its ids and the fixtures' stay as they were.
  const publisherFeed = await seedPublisherFeed(
    handle.db,
    options.bookFiles ?? diskFileStore(dataDir),
    {
      dataDir,
      count: publisherFeedSize(productCount),
      firstIndex: productCount + 1,
      ctx: catalog!,
      log,
    },
  );
  return { ...seeded, publisherFeed, ms: Date.now() - started };

  function inOneTransaction() {
    // One transaction: a seed interrupted half way leaves an empty database, which the next
    // start seeds again, instead of a half-filled one that looks seeded.
    return handle.db.transaction(async (tx) => {
      const setup = await begin(tx);
      // A big catalogue loads faster into bare tables, with the indexes built once at the end.
      const rebuild = deferIndexes ? await dropIndexes(tx) : [];
      await seedProducts(productCount, setup.catalog, log, {
        write: (batch) => insertBatch(tx, batch),
        inFlight: 1,
        afterFirstBatch: () => tx.execute(sql`analyze products`),
      });
      if (rebuild.length > 0) {
        log(`demo seed: building ${rebuild.length} indexes`);
        await recreateIndexes(tx, rebuild, handle.kind);
      }
      return finish(tx, setup);
    });
  }

  async function withWriters() {
    // Several writers (db:seed on PostgreSQL): each batch commits on its own connection, so a
    // failure part way leaves a partial catalogue, which `db:seed --force` replaces.
    const setup = await handle.db.transaction(begin);
    await seedProducts(productCount, setup.catalog, log, {
      write: (batch) => handle.db.transaction((tx) => insertBatch(tx, batch)),
      inFlight: writers,
      afterFirstBatch: () => handle.db.execute(sql`analyze products`),
    });
    return handle.db.transaction((tx) => finish(tx, setup));
  }
}

type Setup = {
  orgs: Awaited<ReturnType<typeof seedSites>>;
  people: DemoUsers;
  catalog: CatalogContext;
};

// ---------------------------------------------------------------------------------------------

/** The BISAC category tree (db/reference/categories.ts), first thing of the demo's catalog. */
export const seedCategories = insertCategoryTree;

const PRODUCT_COLUMNS: readonly ColumnSpec[] = [
  ['id', 'int'],
  ['product_type', 'text'],
  ['title', 'text'],
  ['subtitle', 'text'],
  ['slug', 'text'],
  ['description', 'text'],
  ['authors', 'text'],
  ['imprint', 'text'],
  ['publisher', 'text'],
  ['edition', 'text'],
  ['edition_number', 'smallint'],
  ['language_code', 'text'],
  ['num_pages', 'int'],
  ['publish_year', 'smallint'],
  ['course_title', 'text'],
  ['school_title', 'text'],
  ['website_url', 'text'],
  ['supplier_item_id', 'text'],
  ['isbn_text', 'text'],
  ['product_file_type', 'text'],
  ['is_codeless', 'boolean'],
  ['is_url_access_code', 'boolean'],
  ['show_redeem', 'boolean'],
  ['redemption_url', 'text'],
  ['access_url', 'text'],
  ['has_text_to_speech', 'boolean'],
  ['has_feature_printing', 'boolean'],
  ['feature_printing_title', 'text'],
  ['status', 'text'],
  ['is_disabled', 'boolean'],
  ['blocked_countries', 'text[]'],
  ['blocked_hosts', 'text[]'],
  ['drm_offline_percent', 'numeric'],
  ['drm_copy_percent', 'numeric'],
  ['drm_print_percent', 'numeric'],
  ['sales_count', 'int'],
  ['adoption_count', 'int'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
];

const IDENTIFIER_COLUMNS: readonly ColumnSpec[] = [
  ['product_id', 'int'],
  ['type', 'text'],
  ['value', 'text'],
];

const PRODUCT_CATEGORY_COLUMNS: readonly ColumnSpec[] = [
  ['product_id', 'int'],
  ['category_id', 'int'],
  ['position', 'smallint'],
];

const OFFERING_COLUMNS: readonly ColumnSpec[] = [
  ['product_id', 'int'],
  ['type', 'text'],
  ['book_type', 'text'],
  ['price_cents', 'int'],
  ['combo_price_cents', 'int'],
  ['description', 'text'],
  ['terms', 'text'],
  ['duration_days', 'int'],
  ['is_rental', 'boolean'],
  ['is_active', 'boolean'],
  ['stock', 'int'],
];

const TEMPLATES_JSON = JSON.stringify(FEATURE_TEMPLATES.map((t, i) => ({ ...t, i })));

type Batch = {
  products: Record<string, unknown>[];
  identifiers: Record<string, unknown>[];
  categories: Record<string, unknown>[];
  offerings: Record<string, unknown>[];
  /** Product id, template number, order within the product. */
  features: { p: number; t: number; o: number }[];
};

const YIELD_EVERY = 250;
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function buildBatch(first: number, last: number, ctx: CatalogContext): Promise<Batch> {
  const batch: Batch = {
    products: [],
    identifiers: [],
    categories: [],
    offerings: [],
    features: [],
  };
  for (let index = first; index <= last; index++) {
    const built: BuiltProduct = buildProduct(planOf(index), ctx);
    batch.products.push(built.product);
    batch.identifiers.push(...built.identifiers);
    batch.categories.push(...built.categories);
    batch.offerings.push(...built.offerings);
    const productId = ctx.baseId + index;
    built.features.forEach((t, o) => {
      batch.features.push({ p: productId, t, o });
    });
    // Lets the driver send the previous batch's next statement while this one is built.
    if ((index - first) % YIELD_EVERY === YIELD_EVERY - 1) await yieldToEventLoop();
  }
  return batch;
}

async function insertBatch(db: Queryable, batch: Batch): Promise<void> {
  await bulkInsert(db, 'products', PRODUCT_COLUMNS, batch.products, {
    overridingSystemValue: true,
  });
  await bulkInsert(db, 'product_identifiers', IDENTIFIER_COLUMNS, batch.identifiers);
  await bulkInsert(db, 'product_categories', PRODUCT_CATEGORY_COLUMNS, batch.categories);
  await bulkInsert(db, 'offerings', OFFERING_COLUMNS, batch.offerings);
  await db.execute(sql`
    insert into product_features (product_id, category, subcategory, code, name, detail, url, position)
    select f.p, t.category, t.subcategory, t.code, t.name, t.detail, t.url, t.position
    from json_to_recordset(${JSON.stringify(batch.features)}::json) as f(p int, t int, o int)
    join json_to_recordset(${TEMPLATES_JSON}::json)
      as t(i int, category text, subcategory text, code text, name text, detail text, url text, position smallint)
      on t.i = f.t
    order by f.p, f.o`);
}

type Writer = {
  write: (batch: Batch) => Promise<unknown>;
  /** Batches being written at once. */
  inFlight: number;
  afterFirstBatch: () => Promise<unknown>;
};

async function seedProducts(
  count: number,
  ctx: CatalogContext,
  log: (line: string) => void,
  writer: Writer,
): Promise<void> {
  const pending: Promise<unknown>[] = [];
  let reported = 0;
  for (let first = 1; first <= count; first += BATCH) {
    const last = Math.min(count, first + BATCH - 1);
    // The next batch is generated while the database writes the previous ones.
    const batch = await buildBatch(first, last, ctx);
    if (pending.length >= writer.inFlight) await pending.shift();
    const written = writer.write(batch);
    // Awaited later; this only stops a failure from counting as unhandled meanwhile.
    written.catch(() => {});
    pending.push(written);
    if (first === 1) {
      // The foreign-key checks of every child row look products up by id. Their plans are
      // made once per session; made while products looked empty they scan the whole table,
      // which turns a big load quadratic. Statistics after the first batch replan them.
      await written;
      pending.pop();
      await writer.afterFirstBatch();
    }
    if (last - reported >= 100_000) {
      log(`demo seed: ${last} of ${count} products`);
      reported = last;
    }
  }
  await Promise.all(pending);
}

/** Drops the plain (not constraint) indexes of the catalogue tables; returns their definitions. */
async function dropIndexes(db: Queryable): Promise<string[]> {
  const indexes = rowsOf<{ name: string; def: string }>(
    await db.execute(sql`
      select quote_ident(i.indexname) as name, i.indexdef as def
      from pg_indexes i
      where i.schemaname = current_schema()
        and i.tablename in (${sql.join(
          BULK_TABLES.map((t) => sql`${t}`),
          sql`, `,
        )})
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)
      order by i.indexname`),
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index ${index.name}`));
  return indexes.map((i) => i.def);
}

async function recreateIndexes(
  db: Queryable,
  definitions: readonly string[],
  kind: DatabaseHandle['kind'],
): Promise<void> {
  // More sort memory builds the GIN indexes much faster; PGlite's 32-bit heap cannot spare it.
  if (kind === 'postgres') await db.execute(sql`set local maintenance_work_mem = '512MB'`);
  // Same definitions as the migrations left them: unique ones validate the whole load here.
  for (const definition of definitions) await db.execute(sql.raw(definition));
}

async function seedItems(db: Queryable, count: number, baseId: number): Promise<void> {
  let rows: { collection_id: number; item_id: number; position: number }[] = [];
  const flush = async () => {
    await bulkInsert(
      db,
      'collection_items',
      [
        ['collection_id', 'int'],
        ['item_id', 'int'],
        ['position', 'smallint'],
      ],
      rows,
    );
    rows = [];
  };
  for (let index = 1; index <= count; index++) {
    const items = itemsOf(planOf(index), count);
    items.forEach((item, position) => {
      rows.push({ collection_id: baseId + index, item_id: baseId + item, position });
    });
    if (rows.length >= 20_000) await flush();
  }
  await flush();
}
