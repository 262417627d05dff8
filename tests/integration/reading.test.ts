import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { bookFiles, offerings } from '#db/schema/catalog.ts';
import { courseSections, courses, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import {
  bookFileMetrics,
  readingAllowances,
  readingEvents,
  readingPositions,
} from '#db/schema/reading.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { buildEpub } from '#db/seed/content/epub.ts';
import { buildFixedLayoutEpub } from '#db/seed/content/fixed-layout-epub.ts';
import { buildPdf, type PdfInput } from '#db/seed/content/pdf.ts';
import { createZip } from '#db/seed/content/zip.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { countAllowance } from '#domain/reading/allowances.ts';
import { offlineShare } from '#domain/reading/offline-shares.ts';
import { pdfPageTexts } from '#domain/reading/pdf-text.ts';
import { savePosition } from '#domain/reading/positions.ts';
import { sectionAnalytics } from '#domain/reading/section-analytics.ts';
import { diskFileStore, openReader, readerPart, searchBook } from '#domain/reading/service.ts';
import { Forbidden, Invalid, NotFound } from '#domain/shared/errors.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { loader as downloadLoader } from '#web/routes/bookfile-download.ts';
import { loader as fileLoader, SVG_POLICY } from '#web/routes/file-read.ts';

// Issue 5, Reading and files: owner-only files, positions, DRM counters, reading events and
// section analytics, on the services and the file routes.

let database: DatabaseHandle;
let dataDir: string;
const store = () => diskFileStore(dataDir);

beforeAll(async () => {
  database = process.env.DATABASE_URL
    ? await openDatabase({ url: process.env.DATABASE_URL, poolSize: 10 })
    : await openTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-reading-'));
  mkdirSync(path.join(dataDir, 'files'));
});
afterAll(async () => {
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function person(): Promise<SessionUser> {
  const userId = await createUser(database.db, {
    email: `${unique('reader')}@example.test`,
    password: 'pw-123456',
    firstName: 'R',
    lastName: 'R',
  });
  return (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
}

const chapters = Array.from({ length: 3 }, (_, i) => ({
  title: `Chapter ${i + 1}: Cells ${i + 1}`,
  paragraphs: Array.from({ length: 4 }, (_, j) =>
    `Paragraph ${j + 1} of chapter ${i + 1} explains the mitochondria of the cell in some detail. `.repeat(
      3,
    ),
  ),
}));

/** A two-chapter EPUB 3 with four printed pages: in its nav page-list, or only as markers. */
function pagedEpub(kind: 'list' | 'breaks'): Buffer {
  const chapter = (n: number, first: number) =>
    `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><h1>Chapter ${n}</h1><span epub:type="pagebreak" role="doc-pagebreak" id="page${first}" title="${first}"/><p>Text of page ${first}.</p><span epub:type="pagebreak" role="doc-pagebreak" id="page${first + 1}" title="${first + 1}"/><p>Text of page ${first + 1}.</p></body></html>`;
  const pageList =
    kind === 'list'
      ? `<nav epub:type="page-list"><ol>${[1, 2, 3, 4].map((n) => `<li><a href="c${n < 3 ? 1 : 2}.xhtml#page${n}">${n}</a></li>`).join('')}</ol></nav>`
      : '';
  const nav = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol><li><a href="c1.xhtml">Chapter 1</a></li><li><a href="c2.xhtml">Chapter 2</a></li></ol></nav>${pageList}</body></html>`;
  const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Paged</dc:title><dc:language>en</dc:language></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>`;
  return createZip([
    { name: 'mimetype', data: 'application/epub+zip', compress: false },
    {
      name: 'META-INF/container.xml',
      data: '<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
    },
    { name: 'OEBPS/content.opf', data: opf },
    { name: 'OEBPS/nav.xhtml', data: nav },
    { name: 'OEBPS/c1.xhtml', data: chapter(1, 1) },
    { name: 'OEBPS/c2.xhtml', data: chapter(2, 3) },
  ]);
}

/**
 * A book with a real reader file (an EPUB of `chapters` unless told otherwise: another EPUB,
 * or a PDF of the pages given) and a PDF study guide, written under DATA_DIR.
 */
async function bookWithFiles(
  drm: { copy?: string | null; print?: string | null; offline?: string | null } = {},
  options: {
    language?: string;
    epubLanguage?: string;
    epub?: Buffer;
    pdfPages?: string[][];
    pdfPageLabels?: PdfInput['pageLabels'];
  } = {},
) {
  const productId = await insertProduct(
    database.db,
    {
      productFileType: options.pdfPages ? 'PDF' : 'EPUB',
      drmCopyPercent: drm.copy === undefined ? '10' : drm.copy,
      drmPrintPercent: drm.print === undefined ? '50' : drm.print,
      drmOfflinePercent: drm.offline === undefined ? '0' : drm.offline,
      languageCode: options.language ?? 'en',
    },
    { readerFile: false },
  );
  const epub =
    options.epub ??
    buildEpub({
      title: 'Reading Test',
      author: 'A',
      language: options.epubLanguage ?? 'en',
      identifier: `urn:test:${productId}`,
      chapters,
    });
  const reader = options.pdfPages
    ? buildPdf({
        title: 'Reading Test',
        author: 'A',
        pages: options.pdfPages,
        pageLabels: options.pdfPageLabels,
      })
    : epub;
  const guide = buildPdf({ title: 'Guide', author: 'A', pages: [['Guide page one'], ['Two']] });
  const rows = [
    options.pdfPages
      ? { name: `files/${unique('book')}.pdf`, data: reader, extension: 'pdf', type: 'READER' }
      : { name: `files/${unique('epub')}.epub`, data: reader, extension: 'epub', type: 'READER' },
    { name: `files/${unique('guide')}.pdf`, data: guide, extension: 'pdf', type: 'DOC' },
  ];
  const ids: number[] = [];
  for (const row of rows) {
    writeFileSync(path.join(dataDir, row.name), row.data);
    const [file] = await database.db
      .insert(bookFiles)
      .values({
        productId,
        title: row.type === 'DOC' ? 'Study Guide' : 'Reading Test',
        extension: row.extension,
        type: row.type,
        mediaType: row.extension === 'epub' ? 'application/epub+zip' : 'application/pdf',
        storagePath: row.name,
        byteSize: row.data.length,
        sha256: unique('sha'),
      })
      .returning({ id: bookFiles.id });
    ids.push(file!.id);
  }
  return { productId, readerFileId: ids[0]!, docFileId: ids[1]!, epubSize: reader.length };
}

async function own(userId: number, productId: number, window: { expiresAt?: Date } = {}) {
  await database.db.insert(ownerships).values({
    userId,
    productId,
    source: 'purchase',
    startsAt: new Date('2020-01-01T00:00:00Z'),
    expiresAt: window.expiresAt ?? null,
  });
}

const ctxOf = (user: SessionUser | null) => testContext(database.db, { user });
const noMember = { courseMemberId: null };

type ResourceLoader = (args: never) => Promise<Response>;

function call(
  loader: ResourceLoader,
  user: SessionUser | null,
  url: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const context = testWebContext(database, { user }, store());
  return loader({
    request: new Request(`http://localhost${url}`, { headers }),
    params,
    context,
  } as never);
}

describe('book files, owners only (/file/read/{id}, /bookfile/{id}/download)', () => {
  it('the owner reads and downloads with the right type, private and never stored', async () => {
    const owner = await person();
    const book = await bookWithFiles();
    await own(owner.id, book.productId);
    const read = await call(fileLoader, owner, `/file/read/${book.readerFileId}`, {
      fileId: String(book.readerFileId),
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('application/epub+zip');
    expect(read.headers.get('cache-control')).toBe('private, no-store');
    expect(read.headers.get('content-disposition')).toMatch(/^inline;/);
    expect((await read.arrayBuffer()).byteLength).toBe(book.epubSize);

    const download = await call(downloadLoader, owner, `/bookfile/${book.docFileId}/download`, {
      fileId: String(book.docFileId),
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('cache-control')).toBe('private, no-store');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="Study Guide.pdf"; filename*=UTF-8''Study%20Guide.pdf`,
    );
    const body = Buffer.from(await download.arrayBuffer()).toString('latin1');
    expect(body.startsWith('%PDF-1.7')).toBe(true);
    // Nothing about where the file is stored leaks.
    for (const response of [read, download]) {
      expect([...response.headers].join(' ')).not.toMatch(/files\/|shelfmark-reading/);
    }
  });

  it("issue 16: a book's SVG picture comes to its owner sandboxed: opened by itself it runs and fetches nothing", async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script><rect width="5" height="5"/></svg>';
    const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Pictures</dc:title><dc:language>en</dc:language></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="f" href="fig.svg" media-type="image/svg+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`;
    const epub = createZip([
      { name: 'mimetype', data: 'application/epub+zip', compress: false },
      {
        name: 'META-INF/container.xml',
        data: '<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
      },
      { name: 'OEBPS/content.opf', data: opf },
      {
        name: 'OEBPS/c1.xhtml',
        data: '<html><body><img src="fig.svg" alt="Figure"/></body></html>',
      },
      { name: 'OEBPS/fig.svg', data: svg },
    ]);
    const owner = await person();
    const stranger = await person();
    const book = await bookWithFiles({}, { epub });
    await own(owner.id, book.productId);
    const params = { fileId: String(book.readerFileId), '*': 'OEBPS/fig.svg' };
    const url = `/file/read/${book.readerFileId}/OEBPS/fig.svg`;
    const picture = await call(fileLoader, owner, url, params);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/svg+xml');
    expect(picture.headers.get('content-security-policy')).toBe(SVG_POLICY);
    expect(picture.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await picture.text()).toBe(svg);
    expect((await call(fileLoader, stranger, url, params)).status).toBe(403);
  });

  it("issue 16: the publisher's embedded font and background picture come to the book's owner, the font as the publisher made it", async () => {
    // A font's bytes (real enough for a route: the browser test loads a real one).
    const font = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 17) % 256));
    const epub = buildEpub({
      title: 'Typeset',
      author: 'A. Author',
      language: 'en',
      identifier: `urn:uuid:${crypto.randomUUID()}`,
      chapters: [{ title: 'One', paragraphs: ['The worked example.'] }],
      resources: [
        { href: 'fonts/Body.ttf', mediaType: 'font/ttf', data: font },
        {
          href: 'images/paper.svg',
          mediaType: 'image/svg+xml',
          data: '<svg xmlns="http://www.w3.org/2000/svg"/>',
        },
      ],
      stylesheet:
        '@font-face { font-family: "Body Serif"; src: url(fonts/Body.ttf) format("truetype") } p { font-family: "Body Serif", serif; background-image: url(images/paper.svg) }',
    });
    const owner = await person();
    const stranger = await person();
    const book = await bookWithFiles({}, { epub });
    await own(owner.id, book.productId);
    const view = await openReader(ctxOf(owner), store(), {
      productId: book.productId,
      via: { courseMemberId: null },
      courseSectionId: null,
      part: null,
    });
    const fontUrl = `/file/read/${book.readerFileId}/OEBPS/fonts/Body.ttf`;
    expect(view.bookCss).toContain(
      `@font-face { font-family: "b-Body Serif"; src: url("${fontUrl}") format("truetype"); font-display: swap }`,
    );
    expect(view.bookCss).toContain(
      `.reader-book p { font-family: "b-Body Serif", serif; background-image: url("/file/read/${book.readerFileId}/OEBPS/images/paper.svg") }`,
    );
    // The archive holds it obfuscated (META-INF/encryption.xml); the owner gets the font itself.
    const params = { fileId: String(book.readerFileId), '*': 'OEBPS/fonts/Body.ttf' };
    const served = await call(fileLoader, owner, fontUrl, params);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('font/ttf');
    expect(served.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(Buffer.from(await served.arrayBuffer()).equals(font)).toBe(true);
    expect((await call(fileLoader, stranger, fontUrl, params)).status).toBe(403);
    // Nothing else in the archive comes out this way: its package document is no font or image.
    const opf = await call(fileLoader, owner, `/file/read/${book.readerFileId}/OEBPS/content.opf`, {
      fileId: String(book.readerFileId),
      '*': 'OEBPS/content.opf',
    });
    expect(opf.status).toBe(404);
  });

  it("issue 16: the offline share is whole chapters from where the reader is, within the percentage, or a PDF's pages; none without one; nobody else gets it", async () => {
    const owner = await person();
    const stranger = await person();
    // Three chapters of equal length: 70 % keeps two of them, 100 % all three.
    const book = await bookWithFiles({ offline: '70' });
    const whole = await bookWithFiles({ offline: '100' });
    const none = await bookWithFiles({ offline: null });
    // A PDF's share is counted in pages: 50 % of four pages is two, from the reader's page.
    const pdf = await bookWithFiles(
      { offline: '50' },
      {
        pdfPages: [
          ['One'],
          ['Two, a page of many more words than the others'],
          ['Three'],
          ['Four'],
        ],
      },
    );
    for (const b of [book, whole, none, pdf]) await own(owner.id, b.productId);
    const share = (productId: number, from: number, user = owner) =>
      offlineShare(ctxOf(user), store(), productId, from, noMember);
    expect(await share(book.productId, 0)).toEqual({ parts: [0, 1] });
    expect(await share(book.productId, 2)).toEqual({ parts: [1, 2] });
    expect(await share(whole.productId, 1)).toEqual({ parts: [0, 1, 2] });
    expect(await share(none.productId, 0)).toEqual({ parts: [] });
    expect(await share(pdf.productId, 1)).toEqual({ parts: [1, 2] });
    expect(await share(pdf.productId, 3)).toEqual({ parts: [2, 3] });
    await expect(share(book.productId, 0, stranger)).rejects.toBeInstanceOf(Forbidden);

    // The PDF's copy for this device: its share's pages, the others blank, each in its place.
    const { handleApiRequest } = await import('#api/router.ts');
    const get = (url: string, user: SessionUser | null = owner) =>
      handleApiRequest(
        new Request(`http://localhost${url}`),
        testWebContext(database, { user, locale: 'en' }, store()),
      );
    const copy = await get(`/api/reading/${pdf.productId}/offline/1/pdf`);
    expect(copy.status).toBe(200);
    expect(copy.headers.get('content-type')).toBe('application/pdf');
    expect(copy.headers.get('cache-control')).toBe('private, no-store');
    expect(copy.headers.get('x-offline-pages')).toBe('1,2');
    const texts = await pdfPageTexts(Buffer.from(await copy.arrayBuffer()));
    expect(texts.map((text) => text.replace(/\s*\d+$/, ''))).toEqual([
      '',
      'Two, a page of many more words than the others',
      'Three',
      '',
    ]);
    // Nobody else, no EPUB, no book without offline reading, no page outside the book's ids.
    expect((await get(`/api/reading/${pdf.productId}/offline/1/pdf`, stranger)).status).toBe(403);
    expect((await get(`/api/reading/${pdf.productId}/offline/1/pdf`, null)).status).toBe(403);
    expect((await get(`/api/reading/${whole.productId}/offline/0/pdf`)).status).toBe(404);
    expect((await get(`/api/reading/${pdf.productId}/offline/x/pdf`)).status).toBe(404);
    const noOffline = await bookWithFiles({ offline: null }, { pdfPages: [['One']] });
    await own(owner.id, noOffline.productId);
    expect((await get(`/api/reading/${noOffline.productId}/offline/0/pdf`)).status).toBe(404);
    // The page kept for offline reading by the reader's service worker is not an opening.
    const opens = async () =>
      (
        await database.db
          .select({ id: readingEvents.id })
          .from(readingEvents)
          .where(and(eq(readingEvents.productId, book.productId), eq(readingEvents.kind, 'open')))
      ).length;
    const open = (recordOpen?: boolean) =>
      openReader(ctxOf(owner), store(), {
        productId: book.productId,
        via: noMember,
        courseSectionId: null,
        part: null,
        recordOpen,
      });
    await open(false);
    expect(await opens()).toBe(0);
    await open();
    expect(await opens()).toBe(1);
  });

  it('a PDF is served in ranges for pdf.js; a range past the end is 416', async () => {
    const owner = await person();
    const book = await bookWithFiles();
    await own(owner.id, book.productId);
    const params = { fileId: String(book.docFileId) };
    const part = await call(fileLoader, owner, `/file/read/${book.docFileId}`, params, {
      range: 'bytes=0-7',
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toMatch(/^bytes 0-7\/\d+$/);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('%PDF-1.7');
    const past = await call(fileLoader, owner, `/file/read/${book.docFileId}`, params, {
      range: 'bytes=99999999-',
    });
    expect(past.status).toBe(416);
  });

  it("another user's file is forbidden, unknown and malformed ids are not found, a visitor logs in", async () => {
    const owner = await person();
    const stranger = await person();
    const book = await bookWithFiles();
    await own(owner.id, book.productId);
    for (const [loader, url, id] of [
      [fileLoader, `/file/read/${book.readerFileId}`, book.readerFileId],
      [downloadLoader, `/bookfile/${book.docFileId}/download`, book.docFileId],
    ] as const) {
      const refused = await call(loader, stranger, url, { fileId: String(id) });
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain("Sorry, you can't access this page.");
      const visitor = await call(loader, null, url, { fileId: String(id) });
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get('location')).toBe(
        `/accounts/login/?next=${encodeURIComponent(url)}`,
      );
    }
    for (const fileId of ['abc', '0', '-1', '1.5', '99999999999', '2147483647']) {
      const response = await call(fileLoader, stranger, `/file/read/${fileId}`, { fileId });
      expect(response.status, fileId).toBe(404);
    }
    // The reader file itself is read in the reader, never downloaded.
    const reader = await call(downloadLoader, owner, `/bookfile/${book.readerFileId}/download`, {
      fileId: String(book.readerFileId),
    });
    expect(reader.status).toBe(404);
  });

  it('an ownership that ended closes the files and the book, with its date', async () => {
    const reader = await person();
    const book = await bookWithFiles();
    const ended = new Date(Date.now() - 86_400_000);
    await own(reader.id, book.productId, { expiresAt: ended });
    const response = await call(fileLoader, reader, `/file/read/${book.readerFileId}`, {
      fileId: String(book.readerFileId),
    });
    expect(response.status).toBe(403);
    const refusal = await openReader(ctxOf(reader), store(), {
      productId: book.productId,
      via: noMember,
      courseSectionId: null,
      part: null,
    }).catch((error) => error);
    expect(refusal).toBeInstanceOf(Forbidden);
    expect(refusal.messageKey).toBe('reading.error.expired');
    // issue 14: the reason comes with its way back, buying the book again.
    expect(refusal.params).toMatchObject({
      date: ended.toISOString().slice(0, 10),
      wayBack: 'buy',
    });
  });
});

describe('the reader: chapters, search and positions', () => {
  it('opens at the start, then where the reader left off, on any device', async () => {
    const reader = await person();
    const book = await bookWithFiles();
    await own(reader.id, book.productId);
    const input = { productId: book.productId, via: noMember, courseSectionId: null, part: null };
    const first = await openReader(ctxOf(reader), store(), input);
    expect(first.format).toBe('epub');
    expect(first.partCount).toBe(3);
    expect(first.position).toEqual({ part: 0, progression: 0 });
    expect(first.part?.html).toContain('Chapter 1: Cells 1');
    expect(first.toc.map((entry) => entry.label)).toEqual([
      'Chapter 1: Cells 1',
      'Chapter 2: Cells 2',
      'Chapter 3: Cells 3',
    ]);
    await savePosition(
      ctxOf(reader),
      store(),
      book.productId,
      { part: 2, progression: 0.5 },
      noMember,
    );
    const again = await openReader(ctxOf(reader), store(), input);
    expect(again.position).toEqual({ part: 2, progression: 0.5 });
    expect(again.part?.html).toContain('Chapter 3: Cells 3');
    // A chapter named in the URL wins; the saved progression only applies to its own chapter.
    const named = await openReader(ctxOf(reader), store(), { ...input, part: 1 });
    expect(named.position).toEqual({ part: 1, progression: 0 });
    await expect(
      savePosition(ctxOf(reader), store(), book.productId, { part: 3, progression: 0 }, noMember),
    ).rejects.toThrow();
    expect((await readerPart(ctxOf(reader), store(), book.productId, 1, noMember)).title).toBe(
      'Chapter 2: Cells 2',
    );
    await expect(
      readerPart(ctxOf(reader), store(), book.productId, 3, noMember),
    ).rejects.toBeInstanceOf(NotFound);
  });

  it('search finds every occurrence, in reading order', async () => {
    const reader = await person();
    const book = await bookWithFiles();
    await own(reader.id, book.productId);
    const hits = await searchBook(
      ctxOf(reader),
      store(),
      book.productId,
      'CHAPTER 2 explains',
      noMember,
    );
    expect(hits.map((hit) => [hit.part, hit.occurrence])).toEqual(
      Array.from({ length: 12 }, (_, i) => [1, i]),
    );
    expect(hits[0]?.match).toBe('chapter 2 explains');
  });

  it('nobody else reads it: another user is forbidden, an unknown book is not found', async () => {
    const stranger = await person();
    const book = await bookWithFiles();
    const input = { productId: book.productId, via: noMember, courseSectionId: null, part: null };
    await expect(openReader(ctxOf(stranger), store(), input)).rejects.toBeInstanceOf(Forbidden);
    await expect(
      searchBook(ctxOf(stranger), store(), book.productId, 'cell', noMember),
    ).rejects.toBeInstanceOf(Forbidden);
    await expect(
      openReader(ctxOf(stranger), store(), { ...input, productId: 2_147_483_000 }),
    ).rejects.toBeInstanceOf(NotFound);
  });
});

describe("the book's language (issue 13: the reader sets lang and dir on the book's text)", () => {
  const open = async (book: { productId: number }) => {
    const reader = await person();
    await own(reader.id, book.productId);
    return openReader(ctxOf(reader), store(), {
      productId: book.productId,
      via: noMember,
      courseSectionId: null,
      part: null,
    });
  };

  it("an EPUB is in the language its metadata names, before the product's", async () => {
    const view = await open(await bookWithFiles({}, { language: 'en', epubLanguage: 'fr-CA' }));
    expect(view.language).toEqual({ lang: 'fr-CA', dir: 'ltr' });
  });

  it("a PDF is in the product's language, right to left where that language is", async () => {
    const pdfPages = [['Page one'], ['Page two']];
    expect((await open(await bookWithFiles({}, { language: 'en', pdfPages }))).language).toEqual({
      lang: 'en',
      dir: 'ltr',
    });
    expect((await open(await bookWithFiles({}, { language: 'ar', pdfPages }))).language).toEqual({
      lang: 'ar',
      dir: 'rtl',
    });
  });
});

describe('a fixed-layout picture book (issue 16: each page whole, two to a spread)', () => {
  it('opens with its page size, its spreads and the publisher’s placing; its pictures for owners only', async () => {
    const reader = await person();
    const stranger = await person();
    const epub = buildFixedLayoutEpub({
      title: 'Blue Fox',
      author: 'A',
      language: 'en',
      identifier: unique('urn:fox'),
      pages: ['', 'The fox wakes.', 'The fox runs.', 'The fox sleeps.'].map((text, i) => ({
        text,
        alt: `Picture ${i}`,
        colour: '#336699',
      })),
    });
    const book = await bookWithFiles({}, { epub });
    await own(reader.id, book.productId);
    const view = await openReader(ctxOf(reader), store(), {
      productId: book.productId,
      via: noMember,
      courseSectionId: null,
      part: 1,
    });
    expect(view).toMatchObject({ spread: 'landscape', spreads: [[0], [1, 2], [3]] });
    expect(view.part).toMatchObject({ index: 1, page: { width: 600, height: 800 }, side: 'left' });
    expect(view.part!.html).toContain('class="reader-page-body b-page"');
    // The book's rules for its pages keep their placing, scoped to each page.
    expect(view.bookCss).toContain('.reader-page-body .b-words { position: absolute; left: 48px');
    expect(view.bookCss).not.toContain('.reader-book');
    const part = await readerPart(ctxOf(reader), store(), book.productId, 2, noMember);
    expect(part).toMatchObject({ page: { width: 600, height: 800 }, side: 'right' });
    // A reflowable book: no page size, no spreads.
    const plain = await bookWithFiles();
    await own(reader.id, plain.productId);
    const flowing = await openReader(ctxOf(reader), store(), {
      productId: plain.productId,
      via: noMember,
      courseSectionId: null,
      part: null,
    });
    expect(flowing).toMatchObject({ spread: 'none', spreads: [], part: { page: null } });

    const src = /src="([^"]+)"/.exec(part.html)![1]!;
    const inner = decodeURIComponent(src.split(`/file/read/${book.readerFileId}/`)[1]!);
    const params = { fileId: String(book.readerFileId), '*': inner };
    const picture = await call(fileLoader, reader, src, params);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/svg+xml');
    expect((await call(fileLoader, stranger, src, params)).status).toBe(403);
  });
});

describe('DRM counters (spec 1 §3 drm copyPercentage, printAllowancePercent)', () => {
  it('20 copies at once never pass the copy limit together', async () => {
    const reader = await person();
    const book = await bookWithFiles({ copy: '10' });
    await own(reader.id, book.productId);
    const view = await openReader(ctxOf(reader), store(), {
      productId: book.productId,
      via: noMember,
      courseSectionId: null,
      part: null,
    });
    const limit = view.drm.copy.limit;
    expect(limit).toBeGreaterThan(100);
    // Each asks for a fifth of the allowance: exactly five fit.
    const size = Math.floor(limit / 5);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        countAllowance(
          ctxOf(reader),
          store(),
          book.productId,
          { kind: 'copy', characters: size },
          noMember,
        ),
      ),
    );
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(5);
    const refused = outcomes.find((o) => !o.allowed);
    expect(refused).toMatchObject({
      reason: 'reading.copy.refused',
      remaining: limit - 5 * size,
      limit,
    });
    const [row] = await database.db
      .select()
      .from(readingAllowances)
      .where(
        and(
          eq(readingAllowances.userId, reader.id),
          eq(readingAllowances.productId, book.productId),
        ),
      );
    expect(row?.copiedCharacters).toBe(5 * size);
    expect(row!.copiedCharacters).toBeLessThanOrEqual(limit);
  });

  const openAs = async (reader: SessionUser, productId: number) =>
    openReader(ctxOf(reader), store(), {
      productId,
      via: noMember,
      courseSectionId: null,
      part: null,
    });
  const print = (reader: SessionUser, productId: number, from: number, to: number) =>
    countAllowance(ctxOf(reader), store(), productId, { kind: 'print', from, to }, noMember);

  it('issue 16: a PDF’s page labels name its pages, so Go to page finds "1" after "i" and "ii"', async () => {
    const reader = await person();
    const book = await bookWithFiles(
      {},
      {
        pdfPages: [['Title'], ['Preface'], ['One'], ['Two']],
        pdfPageLabels: [
          { from: 0, style: 'r' },
          { from: 2, style: 'D' },
        ],
      },
    );
    await own(reader.id, book.productId);
    const view = await openAs(reader, book.productId);
    expect(view.printPages).toEqual({ unit: 'pdf', count: 4, labels: ['i', 'ii', '1', '2'] });
  });

  it('issue 13: 25 % of a 3-page PDF allows 1 of its pages, counted once', async () => {
    const reader = await person();
    const book = await bookWithFiles({ print: '25' }, { pdfPages: [['One'], ['Two'], ['Three']] });
    await own(reader.id, book.productId);
    const view = await openAs(reader, book.productId);
    expect(view.drm.printPercent).toBe(25);
    expect(view.drm.print).toEqual({ limit: 1, used: 0, pages: 3, unit: 'pdf' });
    expect(view.printPages).toEqual({ unit: 'pdf', count: 3 });
    expect(await print(reader, book.productId, 1, 2)).toMatchObject({
      allowed: false,
      reason: 'reading.print.refused',
      remaining: 1,
    });
    expect(await print(reader, book.productId, 2, 2)).toMatchObject({
      allowed: true,
      amount: 1,
      used: 1,
      limit: 1,
    });
    expect(await print(reader, book.productId, 3, 3)).toMatchObject({
      allowed: false,
      remaining: 0,
      used: 1,
    });
  });

  it('issue 13: an EPUB that allows 1 page prints 1 page of a long chapter, in pages of 1,800 characters', async () => {
    const reader = await person();
    // 3 chapters of about 1,100 characters: 1 page each, 3 pages; 12.5 % of them is 1 page.
    const book = await bookWithFiles({ print: '12.5' });
    await own(reader.id, book.productId);
    const view = await openAs(reader, book.productId);
    expect(view.printPages).toEqual({ unit: 'length', partPages: [1, 1, 1] });
    expect(view.drm.print).toEqual({ limit: 1, used: 0, pages: 3, unit: 'length' });
    expect(await print(reader, book.productId, 2, 2)).toMatchObject({ allowed: true, used: 1 });
    expect(await print(reader, book.productId, 1, 1)).toMatchObject({ allowed: false });
  });

  it('issue 13: a range counts all its pages, whatever their chapters, and stops at the allowance', async () => {
    const reader = await person();
    const long = Array.from({ length: 2 }, (_, i) => ({
      title: `Long ${i + 1}`,
      paragraphs: Array.from({ length: 10 }, () => 'A sentence of the long chapter. '.repeat(20)),
    }));
    const epub = buildEpub({
      title: 'Long',
      author: 'A',
      language: 'en',
      identifier: unique('urn:long'),
      chapters: long,
    });
    const book = await bookWithFiles({ print: '50' }, { epub });
    await own(reader.id, book.productId);
    const view = await openAs(reader, book.productId);
    expect(view.printPages.unit).toBe('length');
    const pages = view.drm.print.pages;
    expect(pages).toBeGreaterThanOrEqual(8);
    const limit = view.drm.print.limit;
    expect(limit).toBe(Math.floor(pages / 2));
    // Across the chapter boundary: every page counts once.
    expect(await print(reader, book.productId, 2, limit)).toMatchObject({
      allowed: true,
      amount: limit - 1,
      used: limit - 1,
    });
    expect(await print(reader, book.productId, 1, 2)).toMatchObject({
      allowed: false,
      remaining: 1,
    });
    expect(await print(reader, book.productId, 1, 1)).toMatchObject({ allowed: true, used: limit });
  });

  it('issue 13: pages outside the book, or backwards, are refused as invalid', async () => {
    const reader = await person();
    const book = await bookWithFiles({ print: '100' }, { pdfPages: [['One'], ['Two']] });
    await own(reader.id, book.productId);
    for (const [from, to] of [
      [0, 1],
      [2, 1],
      [1, 3],
    ] as const) {
      await expect(print(reader, book.productId, from, to)).rejects.toBeInstanceOf(Invalid);
    }
  });

  it('issue 13: a book without a print percentage allows no printing, and says so', async () => {
    for (const percent of ['0', null]) {
      const reader = await person();
      const book = await bookWithFiles({ print: percent });
      await own(reader.id, book.productId);
      const view = await openAs(reader, book.productId);
      expect(view.drm.printPercent).toBeNull();
      expect(view.drm.print.limit).toBe(0);
      expect(await print(reader, book.productId, 1, 1)).toMatchObject({
        allowed: false,
        reason: 'reading.print.notAllowed',
      });
    }
  });

  it('issue 13: an EPUB with a page list prints in the pages of its printed edition', async () => {
    const reader = await person();
    const book = await bookWithFiles({ print: '50' }, { epub: pagedEpub('list') });
    await own(reader.id, book.productId);
    const view = await openAs(reader, book.productId);
    expect(view.printPages).toEqual({
      unit: 'marked',
      marks: [
        { label: '1', part: 0, anchor: 'p0-page1' },
        { label: '2', part: 0, anchor: 'p0-page2' },
        { label: '3', part: 1, anchor: 'p1-page3' },
        { label: '4', part: 1, anchor: 'p1-page4' },
      ],
    });
    expect(view.drm.print).toMatchObject({ limit: 2, pages: 4, unit: 'marked' });
    expect(view.part?.html).toContain('id="p0-page2"');
    expect(await print(reader, book.productId, 2, 3)).toMatchObject({ allowed: true, used: 2 });
  });

  it('issue 13: an EPUB with page-break markers and no page list prints in those pages', async () => {
    const reader = await person();
    const book = await bookWithFiles({ print: '25' }, { epub: pagedEpub('breaks') });
    await own(reader.id, book.productId);
    const view = await openAs(reader, book.productId);
    expect(view.printPages).toEqual({
      unit: 'marked',
      marks: [
        { label: '1', part: 0, anchor: 'p0-page1' },
        { label: '2', part: 0, anchor: 'p0-page2' },
        { label: '3', part: 1, anchor: 'p1-page3' },
        { label: '4', part: 1, anchor: 'p1-page4' },
      ],
    });
    expect(view.drm.print).toMatchObject({ limit: 1, pages: 4 });
  });

  it('a book without a copy percentage allows no copy', async () => {
    const reader = await person();
    const book = await bookWithFiles({ copy: '0' });
    await own(reader.id, book.productId);
    const outcome = await countAllowance(
      ctxOf(reader),
      store(),
      book.productId,
      { kind: 'copy', characters: 1 },
      noMember,
    );
    expect(outcome).toMatchObject({ allowed: false, remaining: 0, limit: 0 });
  });
});

async function section(options: { cds: boolean; disableAutoProvisioning?: boolean }) {
  const [org] = await database.db
    .insert(organizations)
    .values({ title: unique('org'), isCdsEnabled: options.cds })
    .returning({ id: organizations.id });
  const [course] = await database.db
    .insert(courses)
    .values({
      orgId: org!.id,
      name: 'Biology',
      department: 'BIO',
      number: '101',
      courseType: options.cds ? 'cds' : 'inclusive_access',
    })
    .returning({ id: courses.id });
  const [row] = await database.db
    .insert(courseSections)
    .values({
      courseId: course!.id,
      name: 'Biology',
      number: '001',
      rsCourseId: unique('rsc'),
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      addDropAt: new Date('2026-01-15T00:00:00Z'),
      disableAutoProvisioning: options.disableAutoProvisioning ?? false,
    })
    .returning({ id: courseSections.id });
  return row!.id;
}

async function member(sectionId: number, userId: number, role: string, isCourseFee = false) {
  const [row] = await database.db
    .insert(sectionMembers)
    .values({
      sectionId,
      userId,
      role,
      isCourseFee,
      addDropDate: new Date('2026-01-15T00:00:00Z'),
      rsCoursememberId: unique('rsm'),
    })
    .returning({ id: sectionMembers.id });
  return row!.id;
}

describe('CDS members read without a purchase (/cds_book_read/{id}/?coursemember_id=…)', () => {
  it("only through the reader's own membership of a section that gives access to the book", async () => {
    const student = await person();
    const other = await person();
    const book = await bookWithFiles();
    const cds = await section({ cds: true });
    // No courtesy access where auto-provisioning is disabled (spec 1 §5, issue 14).
    const campus = await section({ cds: false, disableAutoProvisioning: true });
    for (const sectionId of [cds, campus])
      await database.db.insert(sectionProducts).values({ sectionId, productId: book.productId });
    // The course fee's Start Reading is the course-delivery link (spec 1 §4, issue 14).
    const cdsMember = await member(cds, student.id, 'student', true);
    const campusMember = await member(campus, student.id, 'student');
    const input = (courseMemberId: number) => ({
      productId: book.productId,
      via: { courseMemberId },
      courseSectionId: null,
      part: null,
    });
    const view = await openReader(ctxOf(student), store(), input(cdsMember));
    // Until the end of the section's last day (issue 14: access through a course ends with it).
    expect(view.grant).toEqual({
      via: 'cds',
      expiresAt: new Date('2027-01-01T00:00:00Z'),
      sectionId: cds,
    });
    await expect(openReader(ctxOf(student), store(), input(campusMember))).rejects.toBeInstanceOf(
      Forbidden,
    );
    await expect(openReader(ctxOf(other), store(), input(cdsMember))).rejects.toBeInstanceOf(
      Forbidden,
    );
    // The file stream honours the same membership.
    const file = await call(
      fileLoader,
      student,
      `/file/read/${book.readerFileId}?coursemember_id=${cdsMember}`,
      { fileId: String(book.readerFileId) },
    );
    expect(file.status).toBe(200);
  });
});

describe('section analytics (/courses/analytics/{courseId})', () => {
  it('counts access and openers among the students, from the reading events; teachers only', async () => {
    const [professor, ta, student1, student2, student3, outsider] = await Promise.all(
      Array.from({ length: 6 }, person),
    );
    const book = await bookWithFiles();
    const unread = await insertProduct(database.db, { title: 'Unread Book' });
    // Issue 19 (the walk): the print version of a choice is a material of the section too.
    // Issue 38: a print copy, which no course opens (sold as a physical offering only).
    const printed = await insertProduct(
      database.db,
      { title: 'Unread Book, print' },
      { priceCents: null, readerFile: false },
    );
    await database.db.insert(offerings).values({
      productId: printed,
      type: 'physical',
      bookType: 'print',
      priceCents: 3999,
    });
    const sectionId = await section({ cds: false });
    await database.db.insert(sectionProducts).values([
      { sectionId, productId: book.productId, position: 0 },
      {
        sectionId,
        productId: unread,
        additionalProductId: printed,
        isPhysicalDigitalChoice: true,
        position: 1,
      },
    ]);
    await member(sectionId, professor!.id, 'professor');
    await member(sectionId, ta!.id, 'teaching_assistant');
    await member(sectionId, student1!.id, 'student');
    await member(sectionId, student2!.id, 'student');
    // Issue 38: a course-fee student reads without owning anything.
    await member(sectionId, student3!.id, 'student', true);
    for (const s of [student1!, student2!, professor!, outsider!]) await own(s.id, book.productId);
    const open = (user: SessionUser, now: Date) =>
      openReader(testContext(database.db, { user, now }), store(), {
        productId: book.productId,
        via: noMember,
        courseSectionId: sectionId,
        part: null,
      });
    await open(student1!, new Date('2026-03-01T10:00:00Z'));
    await open(student1!, new Date('2026-03-02T10:00:00Z'));
    await open(student2!, new Date('2026-03-03T09:30:00Z'));
    // Opens by people who are not students of the section do not count.
    await open(professor!, new Date('2026-03-04T10:00:00Z'));
    await open(outsider!, new Date('2026-03-05T10:00:00Z'));

    const analytics = await sectionAnalytics(ctxOf(ta!), sectionId);
    expect(analytics.studentCount).toBe(3);
    expect(analytics.materials).toEqual([
      {
        productId: book.productId,
        title: expect.any(String),
        productType: 'book',
        // Two bought it; the course fee opens it to the third.
        access: {
          total: 3,
          byWay: { purchase: 2, courseFee: 1, code: 0, inclusiveAccess: 0, free: 0 },
        },
        readers: 2,
        opens: 3,
        lastOpenedAt: new Date('2026-03-03T09:30:00Z'),
      },
      {
        productId: unread,
        title: 'Unread Book',
        productType: 'book',
        // Courtesy access (spec 1 §5) for the two others, the course fee for the third.
        access: {
          total: 3,
          byWay: { purchase: 0, courseFee: 1, code: 0, inclusiveAccess: 2, free: 0 },
        },
        readers: 0,
        opens: 0,
        lastOpenedAt: null,
      },
      {
        productId: printed,
        title: 'Unread Book, print',
        productType: 'book',
        access: {
          total: 0,
          byWay: { purchase: 0, courseFee: 0, code: 0, inclusiveAccess: 0, free: 0 },
        },
        readers: 0,
        opens: 0,
        lastOpenedAt: null,
      },
    ]);
    // The opens were noted with the section they came from.
    const events = await database.db
      .select({ section: readingEvents.courseSectionId })
      .from(readingEvents)
      .where(
        and(eq(readingEvents.productId, book.productId), eq(readingEvents.userId, student1!.id)),
      );
    expect(events.map((e) => e.section)).toEqual([sectionId, sectionId]);

    // Issue 19: the section's own students, by name, each with every material, opened or not.
    const byId = new Map(analytics.students.map((s) => [s.userId, s]));
    expect(analytics.students.map((s) => s.userId).sort()).toEqual(
      [student1!.id, student2!.id, student3!.id].sort(),
    );
    expect(byId.get(student1!.id)).toMatchObject({
      firstName: 'R',
      lastName: 'R',
      email: student1!.email,
      materials: [
        {
          productId: book.productId,
          access: 'purchase',
          opens: 2,
          lastOpenedAt: new Date('2026-03-02T10:00:00Z'),
        },
        { productId: unread, access: 'inclusiveAccess', opens: 0, lastOpenedAt: null },
        { productId: printed, access: null, opens: 0, lastOpenedAt: null },
      ],
    });
    expect(byId.get(student3!.id)?.materials).toEqual([
      { productId: book.productId, access: 'courseFee', opens: 0, lastOpenedAt: null },
      { productId: unread, access: 'courseFee', opens: 0, lastOpenedAt: null },
      { productId: printed, access: null, opens: 0, lastOpenedAt: null },
    ]);
    // The professor sees the same names; nobody else does, and is told why.
    expect((await sectionAnalytics(ctxOf(professor!), sectionId)).students).toHaveLength(3);
    const otherSection = await section({ cds: false });
    await member(otherSection, outsider!.id, 'professor');
    for (const refused of [student1!, outsider!]) {
      await expect(sectionAnalytics(ctxOf(refused), sectionId)).rejects.toMatchObject({
        status: 403,
        messageKey: 'analytics.error.notTeacher',
      });
    }
    await expect(sectionAnalytics(ctxOf(professor!), 2_147_483_000)).rejects.toBeInstanceOf(
      NotFound,
    );
  });
});

describe('the reading API (POST /api/reading/{productId}/copy, PUT …/position)', () => {
  it('answers allowed, then refused with the translated message; saves the position', async () => {
    const { handleApiRequest } = await import('#api/router.ts');
    const reader = await person();
    const book = await bookWithFiles({ copy: '10' });
    await own(reader.id, book.productId);
    const send = (method: string, url: string, body: unknown, locale: 'en' | 'fr-CA' = 'en') =>
      handleApiRequest(
        new Request(`http://localhost${url}`, {
          method,
          headers: { 'Content-Type': 'application/vnd.api+json' },
          body: JSON.stringify(body),
        }),
        testWebContext(database, { user: reader, locale }, store()),
      );
    const copy = (characters: number, locale?: 'en' | 'fr-CA') =>
      send(
        'POST',
        `/api/reading/${book.productId}/copy`,
        { data: { type: 'copy', attributes: { characters } } },
        locale,
      );
    const allowed = await (await copy(10)).json();
    expect(allowed.data.attributes).toMatchObject({ allowed: true, used: 10 });
    expect(allowed.data.attributes.message).toMatch(/^Copied\. You have used 10 of the /);
    const refused = await (await copy(1_000_000)).json();
    expect(refused.data.attributes.allowed).toBe(false);
    // Issue 13: a refusal says how much is used too, so the reader's counter stays right.
    expect(refused.data.attributes.used).toBe(10);
    // Not "reached": some is left, only not this much.
    expect(refused.data.attributes.message).toMatch(
      /^This is more than you may still copy: you can copy [\d,]+ more characters of the [\d,]+ this book allows\.$/,
    );
    const french = await (await copy(1_000_000, 'fr-CA')).json();
    expect(french.data.attributes.message).toMatch(
      /^C’est plus que ce que vous pouvez encore copier : vous pouvez copier encore /,
    );
    // Issue 13: printing names its pages; the answer says which were counted.
    const print = (attributes: unknown) =>
      send('POST', `/api/reading/${book.productId}/print`, { data: { type: 'print', attributes } });
    const printed = await (await print({ from: 2, to: 2 })).json();
    expect(printed.data.attributes).toMatchObject({ allowed: true, amount: 1, used: 1 });
    expect(printed.data.attributes.message).toMatch(
      /^Printing page 2\. You have used 1 of the 1 page this book lets you print\.$/,
    );
    for (const attributes of [{ from: 2, to: 1 }, { from: 0, to: 1 }, { part: 0 }, {}]) {
      expect((await print(attributes)).status, JSON.stringify(attributes)).toBe(400);
    }
    expect((await print({ from: 1, to: 99 })).status).toBe(400);
    const saved = await send('PUT', `/api/reading/${book.productId}/position`, {
      data: { type: 'reading-position', attributes: { part: 1, progression: 0.25 } },
    });
    expect(saved.status).toBe(204);
    expect(
      (await send('PUT', `/api/reading/${book.productId}/position`, { data: {} })).status,
    ).toBe(400);
    expect((await send('POST', '/api/reading/abc/copy', {})).status).toBe(404);
    const other = await handleApiRequest(
      new Request(`http://localhost/api/reading/${book.productId}/parts/0`),
      testWebContext(database, { user: await person() }, store()),
    );
    expect(other.status).toBe(403);
  });

  it('issue 16: a place read offline, sent later, never replaces a place read since on another device', async () => {
    const { handleApiRequest } = await import('#api/router.ts');
    const reader = await person();
    const book = await bookWithFiles({});
    await own(reader.id, book.productId);
    const put = (attributes: Record<string, unknown>) =>
      handleApiRequest(
        new Request(`http://localhost/api/reading/${book.productId}/position`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/vnd.api+json' },
          body: JSON.stringify({ data: { type: 'reading-position', attributes } }),
        }),
        testWebContext(database, { user: reader }, store()),
      );
    const place = async () => {
      const [row] = await database.db
        .select({ part: readingPositions.part, at: readingPositions.updatedAt })
        .from(readingPositions)
        .where(
          and(
            eq(readingPositions.userId, reader.id),
            eq(readingPositions.productId, book.productId),
          ),
        );
      return row;
    };
    // Read on a phone, offline, an hour ago; read on a laptop, online, just now.
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    expect((await put({ part: 2, progression: 0.5 })).status).toBe(204);
    expect((await put({ part: 0, progression: 0.1, readAt: anHourAgo })).status).toBe(204);
    expect((await place())?.part).toBe(2);
    // A place read offline after the laptop's is the newer one, kept with when it was read.
    expect(
      (await put({ part: 1, progression: 0.2, readAt: new Date().toISOString() })).status,
    ).toBe(204);
    expect((await place())?.part).toBe(1);
    // A time in the future is now; what is not a time is refused and changes nothing.
    expect((await put({ part: 0, progression: 0, readAt: '2999-01-01T00:00:00Z' })).status).toBe(
      204,
    );
    expect((await place())!.at.getTime()).toBeLessThanOrEqual(Date.now());
    for (const readAt of ['yesterday', 12, '2026-13-01T00:00:00Z']) {
      expect((await put({ part: 2, progression: 0, readAt })).status).toBe(400);
    }
    expect((await place())?.part).toBe(0);
  });

  it('issue 16: what was measured in a file by older rules is measured again', async () => {
    const owner = await person();
    const book = await bookWithFiles({ offline: '70' });
    await own(owner.id, book.productId);
    const share = () => offlineShare(ctxOf(owner), store(), book.productId, 0, noMember);
    expect(await share()).toEqual({ parts: [0, 1] });
    const [file] = await database.db
      .select({ sha256: bookFiles.sha256 })
      .from(bookFiles)
      .where(eq(bookFiles.id, book.readerFileId));
    // As an older version left it: the content's digest alone, and other lengths.
    await database.db
      .update(bookFileMetrics)
      .set({ sha256: file!.sha256, partLengths: [1, 1_000_000, 1], textLength: 1_000_002 })
      .where(eq(bookFileMetrics.bookFileId, book.readerFileId));
    expect(await share()).toEqual({ parts: [0, 1] });
    const [measured] = await database.db
      .select({ sha256: bookFileMetrics.sha256, lengths: bookFileMetrics.partLengths })
      .from(bookFileMetrics)
      .where(eq(bookFileMetrics.bookFileId, book.readerFileId));
    expect(measured!.sha256).toBe(`${file!.sha256}:2`);
    expect(measured!.lengths).not.toContain(1_000_000);
  });
});
