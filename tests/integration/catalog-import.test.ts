import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql, TransactionRollbackError } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Queryable } from '#db/client.ts';
import { flattenBisac } from '#db/reference/bisac.ts';
import { ensureCategoryTree } from '#db/reference/categories.ts';
import { offerings, productFeatures, productIdentifiers, products } from '#db/schema/catalog.ts';
import { catalogImportRefusals, catalogImports } from '#db/schema/catalog-imports.ts';
import { rowsOf } from '#db/seed/bulk-insert.ts';
import { buildEpub } from '#db/seed/content/epub.ts';
import { buildFixedLayoutEpub } from '#db/seed/content/fixed-layout-epub.ts';
import { ONIX_FOOTER, onixHeader, onixProduct } from '#db/seed/onix-feed.ts';
import { attachBookFiles } from '#domain/catalog/book-file-import.ts';
import { importReport, runImport, startImport } from '#domain/catalog/catalog-import.ts';
import { coverVersion } from '#domain/catalog/cover-version.ts';
import { isbn13CheckDigit } from '#domain/catalog/isbn.ts';
import { searchCatalog } from '#domain/catalog/search.ts';
import { productDetail } from '#domain/catalog/service.ts';
import { diskFileStore } from '#domain/reading/file-store.ts';
import { clearTimedCaches } from '#domain/shared/timed-cache.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { loader as coverLoader } from '#web/routes/cover.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.execute(sql`insert into categories (code, title, url_slug, depth) values
    ('SCI000000', 'Science', 'science', 0), ('SCI013000', 'Chemistry', 'science-chemistry', 1),
    ('MAT000000', 'Mathematics', 'mathematics', 0), ('MAT005000', 'Calculus', 'mathematics-calculus', 1)
    on conflict do nothing`);
});
afterAll(async () => {
  await database?.close();
});

const FIXTURE_ISBNS = [
  '9781234567897',
  '9780306406157',
  '9780131103658',
  '9780131103627',
  '9780131103634',
];

/**
 * A fixture feed whose references and ISBNs no other test (or earlier run on the same
 * server) has used, so every import here starts from a catalog that has never seen it.
 */
function uniqueFeed(name: string): { text: string; isbn: (original: string) => string } {
  let text = readFileSync(`tests/fixtures/onix/${name}`, 'utf8');
  const prefix = unique('ref').replace(/[^a-z0-9]/gi, '');
  text = text.replace(/(com\.example\.onix\.|org\.shorttag\.)/g, `$1${prefix}.`);
  const isbns = new Map<string, string>();
  for (const isbn of FIXTURE_ISBNS) {
    const body = `979${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
    isbns.set(isbn, body + isbn13CheckDigit(body));
  }
  // The fixtures write some ISBNs with hyphens.
  text = text.replace(
    /97[89][\d-]{9,13}\d/g,
    (found) => isbns.get(found.replace(/-/g, '')) ?? found,
  );
  return { text: text.replaceAll('PREFIX', prefix), isbn: (original) => isbns.get(original)! };
}

async function* chunks(text: string): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += 1000) yield bytes.subarray(at, at + 1000);
}

const now = new Date('2026-11-28T12:00:00Z');

async function importText(text: string, fileName = 'feed.xml') {
  const id = await startImport(database.db, {
    source: 'cli',
    fileName,
    totalBytes: Buffer.byteLength(text),
    startedBy: null,
  });
  return runImport(database.db, id, chunks(text), { now, batchSize: 2 });
}

async function productByIsbn(isbn: string) {
  const [row] = await database.db
    .select({ id: productIdentifiers.productId })
    .from(productIdentifiers)
    .where(eq(productIdentifiers.value, isbn));
  return row?.id ?? null;
}

describe('importing an ONIX feed (issue 15)', () => {
  it('imports the good records, refuses the bad one with its reason, and keeps the report', async () => {
    const feed = uniqueFeed('reference-3.0.xml');
    const report = await importText(feed.text, 'reference-3.0.xml');
    expect(report).toMatchObject({
      status: 'done',
      records: 3,
      created: 2,
      updated: 0,
      refused: 1,
      failure: null,
    });
    const [stored] = await database.db
      .select()
      .from(catalogImports)
      .where(eq(catalogImports.id, report.id));
    expect(stored).toMatchObject({
      status: 'done',
      onixRelease: '3.0',
      senderName: 'Éditions Exemple',
      created: 2,
      refused: 1,
    });
    expect(stored?.finishedAt).not.toBeNull();
    const refusals = await database.db
      .select()
      .from(catalogImportRefusals)
      .where(eq(catalogImportRefusals.importId, report.id));
    expect(refusals).toEqual([
      expect.objectContaining({
        reference: expect.stringMatching(/\.100002$/),
        reason: 'import.refused.isbnCheckDigit',
        reasonValues: { value: '9781234567890' },
        line: expect.any(Number),
      }),
    ]);
  });

  it('shows every fact of the feed on the product page', async () => {
    const feed = uniqueFeed('reference-3.0.xml');
    await importText(feed.text);
    const id = await productByIsbn(feed.isbn('9781234567897'));
    expect(id).not.toBeNull();
    // Kept as a JSON array, not as the text of one.
    const [kept] = await database.db
      .select({ type: sql<string>`jsonb_typeof(${products.contributors})` })
      .from(products)
      .where(eq(products.id, id!));
    expect(kept?.type).toBe('array');
    const page = await productDetail(testContext(database.db, { now }), id!);
    expect(page).toMatchObject({
      productType: 'book',
      title: 'The Principles of Organic Chemistry',
      subtitle: 'Structure and Reactivity',
      authors: 'José Núñez',
      contributors: [
        { name: 'Zoë Ångström', role: 'B06' },
        { name: 'Chidi Okafor', role: 'A24' },
      ],
      series: 'Chemistry Foundations, 4',
      publisher: 'Éditions Exemple',
      publishYear: 2024,
      languageCode: 'en',
      numPages: 612,
      editionNumber: 3,
      isbn: feed.isbn('9781234567897'),
      fileType: 'EPUB',
      description: 'A clear guide to reactions.\n\n• Mechanisms\n• Synthesis',
      price: { kind: 'price', cents: 5499, currency: 'USD' },
    });
    expect(page.breadcrumb.map((c) => c.title)).toContain('Chemistry');
    // No reader file yet: the page says so rather than selling what it cannot deliver.
    expect(page.unavailable).toBe('file');
    const conformance = page.accessibility?.find((g) => g.name === 'Conformance');
    expect(conformance?.items.map((i) => i.wording)).toEqual([
      { message: 'a11y.statement.conformance-aa' },
      { message: 'a11y.certifiedBy', values: { name: 'Benetech' } },
      {
        message: 'a11y.statement.conformance-details-claim',
        values: { epub: '1.1', wcag: '2.1', level: 'AA' },
      },
    ]);
  });

  it('imports a product with no US price as not sellable, and its page says why', async () => {
    const feed = uniqueFeed('reference-3.0.xml');
    await importText(feed.text);
    const id = await productByIsbn(feed.isbn('9780306406157'));
    const page = await productDetail(testContext(database.db, { now }), id!);
    expect(page.unavailable).toBe('offering');
    expect(page.price).toEqual({ kind: 'unavailable' });
    expect(page.offerings).toEqual([]);
    expect(page.languageCode).toBe('fr');
  });

  it('imports a forthcoming product priced but not sold until its day', async () => {
    const feed = uniqueFeed('short-3.1.xml');
    const report = await importText(feed.text);
    expect(report).toMatchObject({ records: 3, created: 2, refused: 1 });
    const id = await productByIsbn(feed.isbn('9780131103658'));
    const page = await productDetail(testContext(database.db, { now }), id!);
    expect(page.title).toBe('Calculus in Context');
    expect(page.unavailable).toBe('disabled');
    expect(page.price).toEqual({ kind: 'price', cents: 2950, currency: 'USD' });
    const unpriced = await productByIsbn(feed.isbn('9780131103627'));
    const unpricedPage = await productDetail(testContext(database.db, { now }), unpriced!);
    expect(unpricedPage.unavailable).toBe('offering');
  });

  it('changes nothing and duplicates nothing when the same file is imported again', async () => {
    const feed = uniqueFeed('reference-3.0.xml');
    await importText(feed.text);
    const id = await productByIsbn(feed.isbn('9781234567897'));
    const [before] = await database.db.select().from(products).where(eq(products.id, id!));
    const again = await importText(feed.text);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2, refused: 1 });
    const [after] = await database.db.select().from(products).where(eq(products.id, id!));
    expect(after?.updatedAt).toEqual(before?.updatedAt);
    const offers = await database.db.select().from(offerings).where(eq(offerings.productId, id!));
    expect(offers).toHaveLength(1);
  });

  it('updates by record reference and by ISBN, keeping one offer at the new price', async () => {
    const feed = uniqueFeed('reference-3.0.xml');
    await importText(feed.text);
    const id = await productByIsbn(feed.isbn('9781234567897'));
    const repriced = feed.text.replace(
      '<PriceAmount>54.99</PriceAmount>',
      '<PriceAmount>44.00</PriceAmount>',
    );
    expect(await importText(repriced)).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    // The same book under a renumbered record: found by its ISBN, not duplicated.
    const renumbered = repriced.replace(
      /com\.example\.onix\.(\w+)\.100001/,
      'com.example.onix.$1.renumbered',
    );
    expect(await importText(renumbered)).toMatchObject({ created: 0, updated: 1 });
    const active = await database.db
      .select({ price: offerings.priceCents })
      .from(offerings)
      .where(eq(offerings.productId, id!));
    expect(active).toEqual([{ price: 4400 }]);
  });

  it('withdraws a deleted product; its owners keep access, the page says it is removed', async () => {
    const feed = uniqueFeed('reference-3.0.xml');
    await importText(feed.text);
    const id = await productByIsbn(feed.isbn('9781234567897'));
    const reference = /<RecordReference>([^<]*100001)<\/RecordReference>/.exec(feed.text)![1];
    const deletion = `<?xml version="1.0"?><ONIXMessage release="3.0"><Product>
      <RecordReference>${reference}</RecordReference><NotificationType>05</NotificationType>
      </Product></ONIXMessage>`;
    expect(await importText(deletion)).toMatchObject({ withdrawn: 1, refused: 0 });
    const [row] = await database.db
      .select({ status: products.status })
      .from(products)
      .where(eq(products.id, id!));
    expect(row?.status).toBe('withdrawn');
    const page = await productDetail(testContext(database.db, { now }), id!);
    expect(page.unavailable).toBe('removed');
    // A delete for a product the store never had is refused, plainly.
    const unknown = deletion.replace(reference!, `${reference}-unknown`);
    expect(await importText(unknown)).toMatchObject({ withdrawn: 0, refused: 1 });
  });

  it('refuses an ONIX 2.1 feed as a whole and changes nothing', async () => {
    const before = await database.db.select({ n: sql<number>`count(*)::int` }).from(products);
    const report = await importText(`<?xml version="1.0"?>
<ONIXMessage release="2.1"><Header><FromCompany>Old</FromCompany></Header>
<Product><RecordReference>${unique('old')}</RecordReference><NotificationType>03</NotificationType>
<ProductForm>BC</ProductForm><Title><TitleType>01</TitleType><TitleText>Old</TitleText></Title></Product>
</ONIXMessage>`);
    expect(report).toMatchObject({
      status: 'failed',
      failure: { message: 'import.feed.version', values: { version: '2.1' } },
      created: 0,
    });
    const after = await database.db.select({ n: sql<number>`count(*)::int` }).from(products);
    expect(after).toEqual(before);
  });

  it('refuses a malformed product with its line and imports the rest of the feed', async () => {
    const feed = uniqueFeed('reference-3.0.xml');
    const broken = feed.text.replace(
      '<TitleText>A History of Tea</TitleText>',
      '<TitleText>Tea & Biscuits</TitleText>',
    );
    const report = await importText(broken);
    expect(report).toMatchObject({ created: 1, refused: 2 });
    const refusals = await database.db
      .select()
      .from(catalogImportRefusals)
      .where(eq(catalogImportRefusals.importId, report.id));
    const line = broken.split('\n').findIndex((l) => l.includes('Tea & Biscuits')) + 1;
    expect(refusals).toContainEqual(
      expect.objectContaining({
        reason: 'import.refused.malformed',
        reasonValues: { line },
        line,
        reference: expect.stringMatching(/\.100003$/),
      }),
    );
  });
});

describe('keywords (issue 15: subjects "(BISAC, Thema, keywords)")', () => {
  const KEYWORDS = '<SubjectHeadingText>organic chemistry; reactions</SubjectHeadingText>';
  // A word no other row has, so that search answers only this test's products.
  const fresh = () => `kw${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;

  async function keywordsOf(id: number) {
    const [row] = await database.db
      .select({ keywords: products.keywords })
      .from(products)
      .where(eq(products.id, id));
    return row?.keywords;
  }

  async function found(term: string): Promise<number[]> {
    // The search page's own function (web/routes/search.tsx).
    const outcome = await searchCatalog(testContext(database.db, { now }), term);
    if (!outcome.ok) throw new Error(`no search for ${term}`);
    return outcome.results.map((r) => r.id);
  }

  it('issue 15: a student finds an imported book by a keyword the publisher gave, below a title match', async () => {
    const word = fresh();
    const feed = uniqueFeed('reference-3.0.xml');
    const text = feed.text.replace(
      KEYWORDS,
      `<SubjectHeadingText>Organic chemistry; ${word} ; organic CHEMISTRY</SubjectHeadingText>`,
    );
    await importText(text);
    const id = (await productByIsbn(feed.isbn('9781234567897')))!;
    expect(await keywordsOf(id)).toEqual(['Organic chemistry', word]);
    const inTitle = await insertProduct(database.db, { title: `Understanding ${word}` });
    expect(await found(word)).toEqual([inTitle, id]);
  });

  it('issue 15: a re-import with changed keywords replaces them, and search follows', async () => {
    const [before, after] = [fresh(), fresh()];
    const feed = uniqueFeed('reference-3.0.xml');
    await importText(
      feed.text.replace(KEYWORDS, `<SubjectHeadingText>${before}</SubjectHeadingText>`),
    );
    const id = (await productByIsbn(feed.isbn('9781234567897')))!;
    expect(await found(before)).toEqual([id]);

    const changed = feed.text.replace(
      KEYWORDS,
      `<SubjectHeadingText>${after}; photosynthesis</SubjectHeadingText>`,
    );
    expect(await importText(changed)).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(await keywordsOf(id)).toEqual([after, 'photosynthesis']);
    // The import's change notification empties every process's caches (server/app.ts).
    clearTimedCaches();
    expect(await found(after)).toEqual([id]);
    expect(await found(before)).toEqual([]);
    // The same file again: nothing changes.
    expect(await importText(changed)).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
  });

  it('issue 15: a block update without the descriptive detail keeps the keywords', async () => {
    const word = fresh();
    const feed = uniqueFeed('reference-3.0.xml');
    await importText(
      feed.text.replace(KEYWORDS, `<SubjectHeadingText>${word}</SubjectHeadingText>`),
    );
    const id = (await productByIsbn(feed.isbn('9781234567897')))!;
    const reference = (
      await database.db
        .select({ reference: products.recordReference })
        .from(products)
        .where(eq(products.id, id))
    )[0]!.reference!;
    const descriptionOnly = `<?xml version="1.0" encoding="UTF-8"?>
<ONIXMessage release="3.0" xmlns="http://ns.editeur.org/onix/3.0/reference">
  <Header><Sender><SenderName>Éditions Exemple</SenderName></Sender><SentDateTime>20261128</SentDateTime></Header>
  <Product>
    <RecordReference>${reference}</RecordReference>
    <NotificationType>04</NotificationType>
    <ProductIdentifier><ProductIDType>15</ProductIDType><IDValue>${feed.isbn('9781234567897')}</IDValue></ProductIdentifier>
    <CollateralDetail>
      <TextContent><TextType>03</TextType><ContentAudience>00</ContentAudience><Text>New words.</Text></TextContent>
    </CollateralDetail>
  </Product>
</ONIXMessage>`;
    expect(await importText(descriptionOnly)).toMatchObject({ updated: 1, refused: 0 });
    expect(await keywordsOf(id)).toEqual([word]);
  });
});

describe('attaching book files (issue 15)', () => {
  it('attaches a checked EPUB named by its ISBN: the book becomes sellable, with the file’s accessibility metadata', async () => {
    const feed = uniqueFeed('reference-3.0.xml');
    const report = await importText(feed.text);
    const isbn = feed.isbn('9781234567897');
    const dir = mkdtempSync(path.join(tmpdir(), 'attach-'));
    const good = path.join(dir, `${isbn}.epub`);
    writeFileSync(
      good,
      buildEpub({
        title: 'The Principles of Organic Chemistry',
        author: 'José Núñez',
        language: 'en',
        identifier: isbn,
        publisher: 'Benetech',
        chapters: [{ title: 'Atoms', paragraphs: ['Carbon bonds four ways.'] }],
      }),
    );
    const broken = path.join(dir, `broken-${isbn}.epub`);
    writeFileSync(broken, 'not an epub');
    // A PDF for the EPUB e-book, and one for the hardback (9780306406157, ProductForm BB).
    const otherFormat = `${isbn}.pdf`;
    const forPrint = `${feed.isbn('9780306406157')}.pdf`;
    const store = diskFileStore(dir);
    const result = await attachBookFiles(database.db, store, report.id, [
      { fileName: path.basename(good), localPath: good },
      { fileName: path.basename(broken), localPath: broken },
      { fileName: 'nobody.pdf', localPath: broken },
      { fileName: otherFormat, localPath: broken },
      { fileName: forPrint, localPath: broken },
    ]);
    expect(result).toEqual({ attached: 1, refused: 4 });

    const id = await productByIsbn(isbn);
    const page = await productDetail(testContext(database.db, { now: new Date() }), id!);
    expect(page.unavailable).toBeNull();
    expect(page.bookFiles).toEqual([
      expect.objectContaining({ extension: 'epub', type: 'READER' }),
    ]);
    // The package's claims replace the feed's: the certifier is the one the EPUB names.
    const conformance = page.accessibility?.find((g) => g.name === 'Conformance');
    expect(conformance?.items[1]?.wording).toEqual({
      message: 'a11y.certifiedBy',
      values: { name: 'Benetech' },
    });
    const navigation = page.accessibility?.find((g) => g.name === 'Navigation');
    expect(navigation?.items.map((i) => i.wording)).toEqual([
      { message: 'a11y.statement.navigation-structural' },
      { message: 'a11y.statement.navigation-toc' },
    ]);
    const notes = await database.db
      .select()
      .from(catalogImportRefusals)
      .where(eq(catalogImportRefusals.importId, report.id));
    expect(notes.filter((n) => n.kind === 'file').map((n) => [n.reference, n.reason])).toEqual([
      [path.basename(broken), 'import.file.notZip'],
      ['nobody.pdf', 'import.file.noProduct'],
      [otherFormat, 'import.file.otherFormat'],
      [forPrint, 'import.file.printBook'],
    ]);
    const [row] = await database.db
      .select({ attached: catalogImports.filesAttached, refused: catalogImports.filesRefused })
      .from(catalogImports)
      .where(eq(catalogImports.id, report.id));
    expect(row).toEqual({ attached: 1, refused: 4 });
    // The hardback stays a printed book with no reader file.
    const hardback = await productDetail(
      testContext(database.db, { now: new Date() }),
      (await productByIsbn(feed.isbn('9780306406157')))!,
    );
    expect(hardback.bookFiles).toEqual([]);
    expect(hardback.fileType).toBeNull();
  });
});

describe('accessibility facts as the publisher stated them (issue 38)', () => {
  const freshIsbn = () => {
    const body = `979${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
    return body + isbn13CheckDigit(body);
  };
  const pictures = [
    { text: 'A lamp.', alt: 'A lamp on a desk', colour: '#2563eb' },
    { text: 'A book.', alt: 'An open book', colour: '#f59e0b' },
  ];
  // As a children's publisher and an educational one send them: the picture books' records say
  // nothing of their layout (no E201) nor that their text can be restyled (no 36); the
  // textbook's says it can (36) and is readable without sight (52), not that it has ARIA.
  function feedOf(
    books: { reference: string; isbn: string; title: string; codes: string[] }[],
    cents: number,
  ) {
    return (
      onixHeader('Picture & Text Publishers', now) +
      books
        .map((b) =>
          onixProduct({
            reference: b.reference,
            isbn13: b.isbn,
            format: 'EPUB',
            title: b.title,
            contributors: [{ name: 'Ana Lima', role: 'A01' }],
            publisher: 'Picture & Text Publishers',
            language: 'eng',
            bisac: [],
            description: 'A book.',
            priceCents: cents,
            accessibility: b.codes,
            fileName: `${b.isbn}.epub`,
          }),
        )
        .join('') +
      ONIX_FOOTER
    );
  }
  const ways = (page: Awaited<ReturnType<typeof productDetail>>) =>
    page.accessibility?.find((g) => g.name === 'Ways of Reading')?.items.map((i) => i.wording);
  const more = (page: Awaited<ReturnType<typeof productDetail>>) =>
    page.accessibility
      ?.find((g) => g.name === 'Additional Accessibility Information')
      ?.items.map((i) => i.wording);

  it('a fixed-layout EPUB says "Appearance cannot be modified" and a book declaring ARIA lists it, and a feed sent again does not undo either', async () => {
    const tag = unique('a11y').replace(/[^a-z0-9]/gi, '');
    const books = {
      described: {
        reference: `${tag}.1`,
        isbn: freshIsbn(),
        title: `Lamp ${tag}`,
        codes: ['10', '22', '14'],
      },
      bare: {
        reference: `${tag}.2`,
        isbn: freshIsbn(),
        title: `Book ${tag}`,
        codes: ['10', '22', '14'],
      },
      textbook: {
        reference: `${tag}.3`,
        isbn: freshIsbn(),
        title: `Cells ${tag}`,
        codes: ['10', '11', '36', '52'],
      },
    };
    const all = Object.values(books);
    const report = await importText(feedOf(all, 1299));
    expect(report).toMatchObject({ status: 'done', created: 3 });

    const dir = mkdtempSync(path.join(tmpdir(), 'a11y-'));
    const write = (isbn: string, data: Buffer) => {
      const file = path.join(dir, `${isbn}.epub`);
      writeFileSync(file, data);
      return { fileName: `${isbn}.epub`, localPath: file };
    };
    const picture = (b: { isbn: string; title: string }, accessibilityMetadata: boolean) =>
      buildFixedLayoutEpub({
        title: b.title,
        author: 'Ana Lima',
        language: 'en',
        identifier: b.isbn,
        pages: pictures,
        accessibilityMetadata,
      });
    const result = await attachBookFiles(database.db, diskFileStore(dir), report.id, [
      write(books.described.isbn, picture(books.described, true)),
      write(books.bare.isbn, picture(books.bare, false)),
      write(
        books.textbook.isbn,
        buildEpub({
          title: books.textbook.title,
          author: 'Ana Lima',
          language: 'en',
          identifier: books.textbook.isbn,
          chapters: [{ title: 'Cells', paragraphs: ['Cells divide.'] }],
          accessibilityFeatures: [
            'displayTransformability',
            'tableOfContents',
            'structuralNavigation',
            'pageBreakMarkers',
            'aria',
          ],
        }),
      ),
    ]);
    expect(result).toEqual({ attached: 3, refused: 0 });

    // The publisher sends its feed again, a price changed: every record is updated.
    const again = await importText(feedOf(all, 1499));
    expect(again).toMatchObject({ status: 'done', updated: 3 });

    const ctx = testContext(database.db, { now: new Date() });
    const described = await productDetail(ctx, (await productByIsbn(books.described.isbn))!);
    // The package's own claims: fixed layout, alternative text, no hazards.
    expect(ways(described)?.[0]).toEqual({
      message: 'a11y.statement.ways-of-reading-visual-adjustments-unmodifiable',
    });
    expect(
      described.accessibility?.find((g) => g.name === 'Hazards')?.items.map((i) => i.wording),
    ).toEqual([{ message: 'a11y.statement.hazards-none' }]);

    // A picture book whose EPUB says nothing of accessibility: the feed's statements, with the
    // layout the store read from the file.
    const bare = await productDetail(ctx, (await productByIsbn(books.bare.isbn))!);
    expect(ways(bare)).toEqual([
      { message: 'a11y.statement.ways-of-reading-visual-adjustments-unmodifiable' },
      { message: 'a11y.statement.ways-of-reading-nonvisual-reading-not-fully' },
      { message: 'a11y.statement.ways-of-reading-nonvisual-reading-alt-text' },
      { message: 'a11y.statement.ways-of-reading-prerecorded-audio-no-metadata' },
    ]);

    const textbook = await productDetail(ctx, (await productByIsbn(books.textbook.isbn))!);
    expect(ways(textbook)?.[0]).toEqual({
      message: 'a11y.statement.ways-of-reading-visual-adjustments-modifiable',
    });
    expect(more(textbook)).toEqual([
      { message: 'a11y.statement.additional-accessibility-information-page-breaks' },
      { message: 'a11y.statement.additional-accessibility-information-aria' },
    ]);

    // Each import replaced only its own statements: one set from the feed, one from the file.
    const id = (await productByIsbn(books.described.isbn))!;
    const sources = await database.db
      .select({ source: productFeatures.source, n: sql<number>`count(*)::int` })
      .from(productFeatures)
      .where(eq(productFeatures.productId, id))
      .groupBy(productFeatures.source)
      .orderBy(productFeatures.source);
    expect(sources).toEqual([
      { source: 'feed', n: 10 },
      { source: 'file', n: 10 },
    ]);
  });
});

describe('publishers’ covers (issue 15)', () => {
  async function coverOf(
    id: number,
    dir: string,
    format = 'webp',
  ): Promise<{ status: number; body: Buffer }> {
    try {
      const response = (await coverLoader({
        request: new Request(`http://localhost/covers/${id}-160.${format}`),
        params: { file: `${id}-160.${format}` },
        context: testWebContext(database, {}, diskFileStore(dir)),
      } as unknown as Parameters<typeof coverLoader>[0])) as Response;
      return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
    } catch (thrown) {
      return {
        status: (thrown as { init?: { status?: number } }).init?.status ?? 500,
        body: Buffer.alloc(0),
      };
    }
  }

  it('keeps the feed’s cover image once and serves it at the page’s sizes, 2:3, as WebP', async () => {
    const feed = uniqueFeed('reference-3.0.xml');
    const report = await importText(feed.text);
    const isbn = feed.isbn('9780306406157');
    const id = (await productByIsbn(isbn))!;
    const dir = mkdtempSync(path.join(tmpdir(), 'covers-'));
    const generated = await coverOf(id, dir);
    // A wide red JPEG named by the ISBN, and one too small to be a cover.
    const jpeg = path.join(dir, `${isbn}.jpg`);
    writeFileSync(
      jpeg,
      await sharp({ create: { width: 600, height: 400, channels: 3, background: '#c00' } })
        .jpeg()
        .toBuffer(),
    );
    const tiny = path.join(dir, `tiny-${isbn}.png`);
    writeFileSync(
      tiny,
      await sharp({ create: { width: 50, height: 75, channels: 3, background: '#00c' } })
        .png()
        .toBuffer(),
    );
    const result = await attachBookFiles(database.db, diskFileStore(dir), report.id, [
      { fileName: path.basename(jpeg), localPath: jpeg },
      { fileName: path.basename(tiny), localPath: tiny },
    ]);
    expect(result).toEqual({ attached: 1, refused: 1 });
    const cover = await coverOf(id, dir);
    expect(cover.status).toBe(200);
    expect(cover.body.equals(generated.body)).toBe(false);
    const meta = await sharp(cover.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 160, 240]);
    // The middle of the image is the publisher's red; the letterbox above it is the surface.
    const { data, info } = await sharp(cover.body).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [
      ...data.subarray(
        (y * info.width + x) * info.channels,
        (y * info.width + x) * info.channels + 3,
      ),
    ];
    expect(pixel(80, 120)[0]).toBeGreaterThan(180);
    expect(pixel(80, 120)[2]).toBeLessThan(60);
    expect(pixel(80, 5)).toEqual([244, 244, 245].map((v) => expect.closeTo(v, -1)));
    // Its addresses name the image, and pages offer it as AVIF first.
    const [row] = await database.db
      .select({ version: coverVersion })
      .from(products)
      .where(eq(products.id, id));
    expect(row?.version).toMatch(/^p[0-9a-f]{16}$/);
    const avif = await coverOf(id, dir, 'avif');
    expect((await sharp(avif.body).metadata()).format).toBe('heif');
  });
});

describe('a stored cover that cannot be read (issue 15)', () => {
  it('shows the generated cover instead of failing', async () => {
    const feed = uniqueFeed('reference-3.0.xml');
    await importText(feed.text);
    const id = (await productByIsbn(feed.isbn('9780306406157')))!;
    await database.db
      .update(products)
      .set({ coverPath: 'covers/gone.jpg', coverSha256: 'f'.repeat(64), coverSource: 'feed' })
      .where(eq(products.id, id));
    // The page's address names the publisher's image; what answers it is kept only a day.
    const response = (await coverLoader({
      request: new Request(`http://localhost/covers/${id}-160.webp?v=p${'f'.repeat(16)}`),
      params: { file: `${id}-160.webp` },
      context: testWebContext(
        database,
        {},
        diskFileStore(mkdtempSync(path.join(tmpdir(), 'gone-'))),
      ),
    } as unknown as Parameters<typeof coverLoader>[0])) as Response;
    expect(response.status).toBe(200);
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([meta.format, meta.width]).toEqual(['webp', 160]);
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
  });
});

describe('an import whose process died (issue 15)', () => {
  it('reads as failed, interrupted, once it has not moved for a quarter of an hour', async () => {
    const id = await startImport(database.db, {
      source: 'admin',
      fileName: 'stuck.xml',
      totalBytes: 10,
      startedBy: null,
    });
    const soon = new Date(Date.now() + 5 * 60_000);
    expect((await importReport(database.db, id, 1, soon))?.summary.status).toBe('running');
    const later = new Date(Date.now() + 16 * 60_000);
    const report = await importReport(database.db, id, 1, later);
    expect(report?.summary).toMatchObject({
      status: 'failed',
      failure: { message: 'import.feed.interrupted' },
    });
  });
});

describe('a store started without the demo (issue 15)', () => {
  // Session 23: a real feed imported into such a store kept none of its subjects.
  // On the CI's shared PostgreSQL, emptying the categories (even in a transaction rolled back)
  // would lock out the test files running beside this one: PGlite's copy is this file's own.
  it.skipIf(Boolean(process.env.DATABASE_URL))(
    'gets the BISAC category tree from its first import, once',
    async () => {
      const count = async (q: Queryable) =>
        rowsOf<{ n: number }>(await q.execute(sql`select count(*)::int as n from categories`))[0]!
          .n;
      await database.db
        .transaction(async (tx) => {
          await tx.execute(sql`truncate categories cascade`);
          expect(await count(tx)).toBe(0);
          await ensureCategoryTree(tx);
          expect(await count(tx)).toBe(flattenBisac().length);
          await ensureCategoryTree(tx);
          expect(await count(tx)).toBe(flattenBisac().length);
          tx.rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof TransactionRollbackError)) throw error;
        });
      expect(await count(database.db)).toBeGreaterThan(0);
    },
  );
});
