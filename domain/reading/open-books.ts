// The books the server has open (issue 5 and 16): a parsed EPUB and the text of each part it
// rendered, a PDF's page texts and labels, what the server measured in a file, the pages a book
// prints in and its publisher's styling. Kept a while per process, by file content.
import { eq } from 'drizzle-orm';
import { bookFileMetrics } from '#db/schema/reading.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import { BOOK_SCOPE } from './book-classes.ts';
import { type BookResources, bookStylesheet } from './book-css.ts';
import { type EpubPublication, openEpub } from './epub-publication.ts';
import type { BookFileStore } from './file-store.ts';
import { pdfPageLabels, pdfPageTexts } from './pdf-text.ts';
import {
  epubPrintPages,
  lengthPages,
  type PageMark,
  type PrintPages,
  pdfLabels,
} from './print-pages.ts';
import type { ReaderFile } from './reader-access.ts';
import type { ReaderPart, ReadingVia } from './types.ts';
import { normalizedLength } from './xhtml-content.ts';

// A parsed EPUB, the text and page breaks of each part it rendered and its print pages, per
// process, by file content. Ten minutes, twenty books: what readers have open now.
export type OpenBook = {
  publication: EpubPublication;
  /**
   * The publisher's styling, sanitised and scoped once per book and way in (book-css.ts): its
   * fonts' and images' URLs carry the course membership the reader came by.
   */
  css: Map<string, string>;
  texts: Map<number, string>;
  pageBreaks: Map<number, { label: string; anchor: string; offset: number }[]>;
  printPages?: PrintPages;
};
const openBooks = new TimedCache<string, Promise<OpenBook>>(10 * 60_000, 20);

export function openBook(store: BookFileStore, file: ReaderFile): Promise<OpenBook> {
  const key = `${file.id}:${file.sha256}`;
  let book = openBooks.get(key);
  if (!book) {
    book = store.read(file.storagePath).then((data) => ({
      publication: openEpub(data),
      css: new Map(),
      texts: new Map(),
      pageBreaks: new Map(),
    }));
    book.catch(() => openBooks.delete(key));
    openBooks.set(key, book);
  }
  return book;
}

export function partUrls(fileId: number, via: ReadingVia) {
  const member = via.courseMemberId === null ? '' : `coursemember_id=${via.courseMemberId}`;
  return {
    partHref: ({ part, fragment }: { part: number; fragment: string | null }) =>
      `?${member ? `${member}&` : ''}chapter=${part + 1}${fragment ? `#p${part}-${fragment.replace(/[^\w-]/g, '_')}` : ''}`,
    imageUrl: (archivePath: string) =>
      `/file/read/${fileId}/${archivePath.split('/').map(encodeURIComponent).join('/')}${member ? `?${member}` : ''}`,
  };
}

export function renderedPart(
  book: OpenBook,
  part: number,
  urls: ReturnType<typeof partUrls>,
): ReaderPart {
  const rendered = book.publication.renderPart(part, urls);
  book.texts.set(part, rendered.text);
  book.pageBreaks.set(part, rendered.pageBreaks);
  // The part's content inside the element the book's styling is scoped to.
  const html = `<div class="${BOOK_SCOPE}">${rendered.html}</div>`;
  const about = book.publication.parts[part];
  return {
    index: part,
    title: about?.title ?? '',
    html,
    page: rendered.page,
    side: about?.side ?? null,
  };
}

export function partText(book: OpenBook, part: number, urls: ReturnType<typeof partUrls>): string {
  const known = book.texts.get(part);
  if (known !== undefined) return known;
  const rendered = book.publication.renderPart(part, urls);
  book.texts.set(part, rendered.text);
  book.pageBreaks.set(part, rendered.pageBreaks);
  return rendered.text;
}

export type Metrics = { textLength: number; pageCount: number; partLengths: number[] };
/** Raised whenever what a file's metrics count changes (2: SVG pages of fixed-layout books). */
const METRICS_VERSION = 2;

/** What the server measured in the file, measured now when it never was (or it changed). */
export async function fileMetrics(
  ctx: RequestContext,
  store: BookFileStore,
  file: ReaderFile,
): Promise<Metrics> {
  const [known] = await ctx.db
    .select({
      sha256: bookFileMetrics.sha256,
      textLength: bookFileMetrics.textLength,
      pageCount: bookFileMetrics.pageCount,
      partLengths: bookFileMetrics.partLengths,
    })
    .from(bookFileMetrics)
    .where(eq(bookFileMetrics.bookFileId, file.id))
    .limit(1);
  // Measured from this content by the rules of today: a file measured before a rule changed
  // (an SVG page counted, a PDF's text read another way) is measured again.
  const measured = `${file.sha256}:${METRICS_VERSION}`;
  if (known && known.sha256 === measured) return known;
  let metrics: Metrics;
  if (file.extension === 'epub') {
    const book = await openBook(store, file);
    const urls = partUrls(file.id, { courseMemberId: null });
    const partLengths = book.publication.parts.map((_, i) =>
      normalizedLength(partText(book, i, urls)),
    );
    metrics = {
      partLengths,
      textLength: partLengths.reduce((a, b) => a + b, 0),
      // Standard pages; a book with page marks prints in those (printPagesOf).
      pageCount: lengthPages(partLengths).reduce((a, b) => a + b, 0),
    };
  } else {
    const partLengths = (await pdfTextsOf(store, file)).map(normalizedLength);
    metrics = {
      partLengths,
      textLength: partLengths.reduce((a, b) => a + b, 0),
      pageCount: partLengths.length,
    };
  }
  await ctx.db
    .insert(bookFileMetrics)
    .values({ bookFileId: file.id, sha256: measured, ...metrics, computedAt: ctx.now })
    .onConflictDoUpdate({
      target: bookFileMetrics.bookFileId,
      set: { sha256: measured, ...metrics, computedAt: ctx.now },
    });
  return metrics;
}

// The text of a PDF's pages (issue 16: highlights on a page are anchored in it), read once
// per file content with pdf.js and kept a while: a list of highlights on many pages would
// otherwise parse the file again for each.
const pdfTextCache = new TimedCache<string, Promise<string[]>>(10 * 60_000, 20);
export function pdfTextsOf(store: BookFileStore, file: ReaderFile): Promise<string[]> {
  const key = `${file.id}:${file.sha256}`;
  let texts = pdfTextCache.get(key);
  if (!texts) {
    texts = store.read(file.storagePath).then(pdfPageTexts);
    texts.catch(() => pdfTextCache.delete(key));
    pdfTextCache.set(key, texts);
  }
  return texts;
}

// A PDF's page labels (issue 16: "Go to page" by the printed numbers), per file content.
const pdfLabelCache = new TimedCache<string, Promise<string[] | null>>(10 * 60_000, 50);
function pdfLabelsOf(store: BookFileStore, file: ReaderFile): Promise<string[] | null> {
  const key = `${file.id}:${file.sha256}`;
  let labels = pdfLabelCache.get(key);
  if (!labels) {
    labels = store
      .read(file.storagePath)
      .then(pdfPageLabels)
      .catch(() => null);
    pdfLabelCache.set(key, labels);
  }
  return labels;
}

/** The pages the book prints in (print-pages.ts): a PDF's, else the EPUB's marks or standard pages. */
export async function printPagesOf(
  store: BookFileStore,
  file: ReaderFile,
  metrics: Metrics,
): Promise<PrintPages> {
  if (file.extension !== 'epub') {
    const count = metrics.partLengths.length;
    const labels = pdfLabels(await pdfLabelsOf(store, file), count);
    return labels ? { unit: 'pdf', count, labels } : { unit: 'pdf', count };
  }
  const book = await openBook(store, file);
  if (book.printPages) return book.printPages;
  let pageBreaks: PageMark[] = [];
  if (book.publication.pageList.length === 0) {
    // Markers are found by rendering every part (then kept with the book).
    const urls = partUrls(file.id, { courseMemberId: null });
    pageBreaks = book.publication.parts.flatMap((_, part) => {
      if (!book.pageBreaks.has(part)) partText(book, part, urls);
      return (book.pageBreaks.get(part) ?? []).map(({ label, anchor }) => ({
        label,
        anchor,
        part,
      }));
    });
  }
  const label = (mark: PageMark, i: number) => ({ ...mark, label: mark.label || String(i + 1) });
  book.printPages = epubPrintPages({
    pageList: book.publication.pageList.map(label),
    pageBreaks: pageBreaks.map(label),
    partLengths: metrics.partLengths,
  });
  return book.printPages;
}

/**
 * The publisher's styling of a book, sanitised (book-css.ts): for its reflowable parts, and
 * for its pre-paginated pages (scoped to each page, sizes kept), as the book has them.
 */
export function publisherStyles(
  publication: EpubPublication,
  urls: ReturnType<typeof partUrls>,
): string {
  const sheets = publication.styleSheets();
  const fixed = publication.parts.some((p) => p.fixed);
  const reflowable = publication.parts.some((p) => !p.fixed);
  const resources: BookResources = (sheetPath, href, kind) => {
    const found = publication.resourcePath(sheetPath, href, kind);
    return found === null ? null : urls.imageUrl(found);
  };
  return (
    (reflowable ? bookStylesheet(sheets, { resources }) : '') +
    (fixed ? bookStylesheet(sheets, { fixed, resources }) : '')
  );
}
