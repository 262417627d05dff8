import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { redeemCodes } from '#db/schema/access.ts';
import { users } from '#db/schema/accounts.ts';
import {
  bookFiles,
  categories,
  collectionItems,
  productFeatures,
  productIdentifiers,
  products,
} from '#db/schema/catalog.ts';
import { catalogImports } from '#db/schema/catalog-imports.ts';
import { courseSections, courses, optChanges, sectionMembers } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { banners, whiteLabels } from '#db/schema/sites.ts';
import { verifyPassword } from '#domain/accounts/password.ts';
import { isAccessibilityStatement } from '#domain/catalog/accessibility-metadata.ts';
import { isValidIsbn10, isValidIsbn13 } from '#domain/catalog/isbn.ts';
import { isStoreFeature } from '#domain/catalog/product-features.ts';
import { shownIsbn } from '#domain/catalog/shown-isbn.ts';
import { TEST_ACCESS_CODE_KEY } from '#tests/database.ts';
import { rowsOf } from './bulk-insert.ts';
import {
  DEMO_ACCOUNTS,
  DEMO_PASSWORD,
  DEMO_REDEEM_CODE,
  isDatabaseEmpty,
  redeemCodeDigest,
  type SeedSummary,
  seedDemo,
} from './demo.ts';
import {
  DEMO_FEED_SENDER,
  FEED_EBOOKS,
  PICTURE_BOOK_POSITION,
  publisherFeedSize,
} from './publisher-feed.ts';

const PRODUCTS = 300;
// One instant for both seeds: the same options must give the same data.
const now = new Date();

type Seeded = { handle: DatabaseHandle; dataDir: string; summary: SeedSummary };
let first: Seeded;
let second: Seeded;
let wasEmpty = false;

async function seeded(): Promise<Seeded> {
  const handle = await openDatabase({});
  await migrateDatabase(handle);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-seed-'));
  if (!first) wasEmpty = await isDatabaseEmpty(handle.db);
  const summary = await seedDemo(handle, {
    products: PRODUCTS,
    dataDir,
    now,
    accessCodeKey: TEST_ACCESS_CODE_KEY,
  });
  return { handle, dataDir, summary };
}

beforeAll(async () => {
  first = await seeded();
  second = await seeded();
});

afterAll(async () => {
  for (const s of [first, second]) {
    await s?.handle.close();
    if (s) rmSync(s.dataDir, { recursive: true, force: true });
  }
});

const userId = async (email: string): Promise<number> => {
  const [row] = await first.handle.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
};

describe('demo seed', () => {
  it('fills an empty database, which then no longer counts as empty', async () => {
    expect(wasEmpty).toBe(true);
    expect(await isDatabaseEmpty(first.handle.db)).toBe(false);
    expect(first.summary.products).toBe(PRODUCTS);
  });

  it('creates every demo account with the demo password; only neweula must accept the EULA', async () => {
    const rows = await first.handle.db
      .select({
        email: users.email,
        passwordHash: users.passwordHash,
        mustAcceptEula: users.mustAcceptEula,
        firstName: users.firstName,
      })
      .from(users)
      .where(
        inArray(
          users.email,
          DEMO_ACCOUNTS.map((a) => a.email),
        ),
      );
    expect(rows.map((r) => r.email).sort()).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
    for (const row of rows) {
      expect(await verifyPassword(row.passwordHash, DEMO_PASSWORD), row.email).toBe(true);
      expect(row.mustAcceptEula, row.email).toBe(row.email === 'neweula@demo.test');
    }
    expect(rows.find((r) => r.email === 'student@demo.test')?.firstName).toBe('Maya');
  });

  it('gives every ISBN a valid check digit and shows the first ISBN in the spec order', async () => {
    const ids = await first.handle.db.select().from(productIdentifiers);
    const thirteen = ids.filter((i) =>
      ['EISBN13', 'ISBN13', 'PCARD_13', 'CLASSROOM_ISBN', 'COLLECTION_ISBN'].includes(i.type),
    );
    const ten = ids.filter((i) => ['EISBN10', 'ISBN10', 'PCARD_10'].includes(i.type));
    expect(thirteen.filter((i) => i.type === 'ISBN13').length).toBeGreaterThan(10);
    for (const i of thirteen) expect(isValidIsbn13(i.value), `${i.type} ${i.value}`).toBe(true);
    for (const i of ten) expect(isValidIsbn10(i.value), `${i.type} ${i.value}`).toBe(true);

    const shown = await first.handle.db
      .select({ id: products.id, isbnText: products.isbnText })
      .from(products);
    for (const p of shown) {
      const own = ids.filter((i) => i.productId === p.id);
      expect(p.isbnText, `product ${p.id}`).toBe(shownIsbn(own) ?? '');
    }
  });

  it('has all six product types, a collection of more than 9 items and empty containers', async () => {
    const types = await first.handle.db
      .selectDistinct({ type: products.productType })
      .from(products);
    expect(types.map((t) => t.type).sort()).toEqual(
      ['book', 'classroom', 'collection', 'courseware', 'ebundle', 'physical_product'].sort(),
    );
    const sizes = await first.handle.db
      .select({ id: collectionItems.collectionId, n: sql<number>`count(*)::int` })
      .from(collectionItems)
      .innerJoin(products, eq(products.id, collectionItems.collectionId))
      .where(eq(products.productType, 'collection'))
      .groupBy(collectionItems.collectionId);
    expect(Math.max(...sizes.map((s) => s.n))).toBeGreaterThan(9);
    const { emptyCollection, emptyEbundle } = first.summary.productIds;
    const inEmpty = await first.handle.db
      .select()
      .from(collectionItems)
      .where(inArray(collectionItems.collectionId, [emptyCollection, emptyEbundle]));
    expect(inEmpty).toEqual([]);
  });

  it('issue 13: gives the store’s own words codes, categories French names, editions numbers', async () => {
    const db = first.handle.db;
    const untitled = await db
      .select({ code: categories.code })
      .from(categories)
      .where(sql`${categories.titleFrCa} is null`);
    expect(untitled).toEqual([]);
    const features = await db
      .select({
        category: productFeatures.category,
        subcategory: productFeatures.subcategory,
        code: productFeatures.code,
      })
      .from(productFeatures);
    for (const f of features) {
      if (f.category === 'accessibility') {
        // Only the publisher's summary is its own text; the rest are the guide's statements
        // (the feed's 'No information is available' for a summary it lacks, kept beside the
        // EPUB's own since issue 38).
        if (f.code === null) expect(f.subcategory).toBe('Accessibility Summary');
        else expect(isAccessibilityStatement(f.code), f.code).toBe(true);
      } else expect(isStoreFeature(f.code), f.code ?? 'null').toBe(true);
    }
    const editions = await db
      .select({ edition: products.edition, editionNumber: products.editionNumber })
      .from(products);
    expect(editions.some((e) => e.editionNumber !== null)).toBe(true);
    expect(editions.filter((e) => e.edition !== null)).toEqual([]);
  });

  it('issue 19: every e-book sold digitally has a reader file on disk (nothing undeliverable is sold)', async () => {
    const rows = await first.handle.db.execute(sql`
      select p.id, bf.storage_path as path, bf.byte_size as size
      from products p
      left join book_files bf on bf.product_id = p.id and bf.type = 'READER'
      where p.product_type in ('book', 'ebundle')
        and exists (select 1 from offerings o where o.product_id = p.id and o.is_active
                    and o.type in ('digital', 'combo'))`);
    const found = rowsOf(rows) as { id: number; path: string | null; size: number | null }[];
    expect(found.length).toBeGreaterThan(20);
    expect(found.filter((row) => row.path === null)).toEqual([]);
    for (const path_ of new Set(found.map((row) => row.path!))) {
      const size = found.find((row) => row.path === path_)!.size;
      expect(readFileSync(path.join(first.dataDir, path_)).length).toBe(size);
    }
  });

  it('writes a real EPUB the student owns', async () => {
    const student = await userId('student@demo.test');
    const [file] = await first.handle.db
      .select({ path: bookFiles.storagePath, size: bookFiles.byteSize, sha256: bookFiles.sha256 })
      .from(bookFiles)
      .innerJoin(ownerships, eq(ownerships.productId, bookFiles.productId))
      .where(
        and(
          eq(ownerships.userId, student),
          eq(bookFiles.extension, 'epub'),
          eq(bookFiles.type, 'READER'),
        ),
      )
      .limit(1);
    expect(file).toBeDefined();
    const data = readFileSync(path.join(first.dataDir, file!.path));
    expect([...data.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    expect(data.subarray(30, 38).toString('latin1')).toBe('mimetype');
    expect(data.length).toBe(file!.size);
    expect(createHash('sha256').update(data).digest('hex')).toBe(file!.sha256);
  });

  it('puts the student opted in before an open deadline in one current section and opted out of another', async () => {
    const student = await userId('student@demo.test');
    const rows = await first.handle.db
      .select({
        sectionId: sectionMembers.sectionId,
        optStatus: sectionMembers.optStatus,
        addDropDate: sectionMembers.addDropDate,
        startDate: courseSections.startDate,
        endDate: courseSections.endDate,
        courseType: courses.courseType,
      })
      .from(sectionMembers)
      .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
      .innerJoin(courses, eq(courses.id, courseSections.courseId))
      .where(eq(sectionMembers.userId, student));
    const today = now.toISOString().slice(0, 10);
    const current = rows.filter((r) => r.startDate <= today && r.endDate >= today);
    const optedIn = current.filter(
      (r) =>
        r.optStatus === 'opted_in' &&
        r.courseType === 'inclusive_access' &&
        r.addDropDate.getTime() > now.getTime(),
    );
    expect(optedIn.map((r) => r.sectionId)).toEqual([first.summary.sectionIds.bio001.id]);
    expect(current.filter((r) => r.optStatus === 'opted_out')).toHaveLength(1);
    expect(rows.some((r) => r.endDate < today)).toBe(true);
    expect(rows.some((r) => r.startDate > today)).toBe(true);
  });

  it("explains every opt-out by the student's own change before their deadline (issue 39 dashboard chart)", async () => {
    const outs = await first.handle.db
      .select({
        memberId: sectionMembers.id,
        userId: sectionMembers.userId,
        addDropDate: sectionMembers.addDropDate,
        optingMethod: courseSections.optingMethod,
      })
      .from(sectionMembers)
      .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
      .where(and(eq(sectionMembers.role, 'student'), eq(sectionMembers.optStatus, 'opted_out')));
    expect(outs.length).toBeGreaterThan(5);
    const changes = await first.handle.db.select().from(optChanges);
    // The chart's running total (opt-outs less opt-ins) equals the table's opted-out count.
    expect(changes.filter((c) => c.toStatus === 'opted_in')).toEqual([]);
    expect(changes).toHaveLength(outs.length);
    for (const out of outs) {
      const [change] = changes.filter((c) => c.memberId === out.memberId);
      expect(out.optingMethod).toBe('opt-out');
      expect(change).toMatchObject({
        actorUserId: out.userId,
        fromStatus: 'opted_in',
        toStatus: 'opted_out',
      });
      expect(change!.changedAt.getTime()).toBeLessThan(out.addDropDate.getTime());
      expect(change!.changedAt.getTime()).toBeLessThan(now.getTime());
    }
  });

  it('stores the demo redeem code as its keyed digest only', async () => {
    const [row] = await first.handle.db
      .select()
      .from(redeemCodes)
      .where(eq(redeemCodes.codeDigest, redeemCodeDigest(TEST_ACCESS_CODE_KEY, DEMO_REDEEM_CODE)));
    expect(row?.productId).toBe(first.summary.productIds.redeemBook);
    expect(row?.redeemedByUserId).toBeNull();
    expect(JSON.stringify(row)).not.toContain(DEMO_REDEEM_CODE);
  });

  it('sets up both white-label hosts and the active maintenance banner', async () => {
    const hosts = await first.handle.db.select({ fqdn: whiteLabels.fqdn }).from(whiteLabels);
    expect(hosts.map((h) => h.fqdn).sort()).toEqual(['bookstore.localhost', 'partner.localhost']);
    const active = await first.handle.db
      .select({ kind: banners.kind })
      .from(banners)
      .where(eq(banners.isActive, true));
    expect(active).toEqual([{ kind: 'maintenance' }]);
  });

  it('is deterministic: the same options give the same catalogue and files', async () => {
    const titles = (s: Seeded) =>
      s.handle.db
        .select({ id: products.id, title: products.title, isbn: products.isbnText })
        .from(products)
        .orderBy(asc(products.id));
    expect(await titles(second)).toEqual(await titles(first));
    const files = (s: Seeded) =>
      s.handle.db
        .select({ path: bookFiles.storagePath, sha256: bookFiles.sha256 })
        .from(bookFiles)
        .orderBy(asc(bookFiles.id));
    expect(await files(second)).toEqual(await files(first));
    expect(second.summary.sectionIds).toEqual(first.summary.sectionIds);
  });
  // Issue 15: the demo seed goes through the import path an operator's feed takes.
  it('imports the demo publisher’s ONIX feed, its EPUBs and covers, as an operator’s would be', async () => {
    const expected = publisherFeedSize(PRODUCTS);
    expect(first.summary.publisherFeed).toEqual({
      products: expected,
      created: expected,
      refused: 0,
      filesAttached: FEED_EBOOKS + 24,
      filesRefused: 0,
    });
    const [run] = await first.handle.db
      .select()
      .from(catalogImports)
      .where(eq(catalogImports.source, 'seed'));
    expect(run).toMatchObject({
      status: 'done',
      senderName: DEMO_FEED_SENDER,
      created: expected,
      refused: 0,
      filesAttached: FEED_EBOOKS + 24,
    });
    const imported = await first.handle.db
      .select({
        id: products.id,
        isbn: products.isbnText,
        fileType: products.productFileType,
        cover: products.coverSha256,
        contributors: sql<string>`jsonb_typeof(${products.contributors})`,
        price: sql<
          number | null
        >`(select min(o.price_cents) from offerings o where o.product_id = products.id and o.is_active)`,
        reader: sql<number>`(select count(*)::int from book_files f where f.product_id = products.id and f.type = 'READER')`,
        accessibility: sql<number>`(select count(*)::int from product_features f where f.product_id = products.id and f.category = 'accessibility')`,
      })
      .from(products)
      .where(sql`${products.recordReference} like 'shelfmark.demo.%'`)
      .orderBy(asc(products.id));
    expect(imported).toHaveLength(expected);
    // After the store's own catalogue: its ids (and the fixtures') are as they were.
    expect(Math.min(...imported.map((p) => p.id))).toBeGreaterThan(PRODUCTS);
    const ebooks = imported.filter((p) => p.fileType === 'EPUB');
    expect(ebooks).toHaveLength(FEED_EBOOKS);
    for (const book of imported) {
      expect(book).toMatchObject({ price: expect.any(Number), contributors: 'array' });
      expect(book.price).toBeGreaterThan(0);
    }
    for (const book of ebooks) {
      // Sold digitally, so readable: its EPUB attached, its accessibility from the feed.
      expect(book).toMatchObject({
        reader: 1,
        accessibility: expect.any(Number),
        cover: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(book.accessibility).toBeGreaterThan(0);
    }
    // Issue 38: each e-book's own EPUB says what it is: the picture book is fixed layout and
    // its appearance cannot be modified; the textbook declares its ARIA roles.
    const fileStatements = async (id: number) =>
      (
        await first.handle.db
          .select({ code: productFeatures.code })
          .from(productFeatures)
          .where(and(eq(productFeatures.productId, id), eq(productFeatures.source, 'file')))
      ).map((f) => f.code);
    const picture = ebooks[PICTURE_BOOK_POSITION]!;
    expect(await fileStatements(picture.id)).toContain(
      'ways-of-reading-visual-adjustments-unmodifiable',
    );
    const [layout] = await first.handle.db
      .select({ fixed: products.fixedLayout })
      .from(products)
      .where(eq(products.id, picture.id));
    expect(layout?.fixed).toBe(true);
    expect(await fileStatements(ebooks[0]!.id)).toEqual(
      expect.arrayContaining([
        'ways-of-reading-visual-adjustments-modifiable',
        'additional-accessibility-information-aria',
      ]),
    );
    expect(imported.filter((p) => p.cover !== null)).toHaveLength(24);
    // A small feed stays in the data directory, as an example of what the import takes.
    expect(readFileSync(path.join(first.dataDir, 'demo-feed', 'feed.xml'), 'utf8')).toContain(
      '<ONIXMessage release="3.0"',
    );
  });
});
