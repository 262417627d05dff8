// The reader's view of a book (issue 5, Reading and files): the book opened (the place saved,
// its first chapter, contents and allowances, the open recorded), its chapters, their text and
// search in it. Beside it, each named for what it does: who may read (reader-access.ts), the
// books the server has open (open-books.ts), positions, allowances, offline shares, book files
// and section analytics.
import { and, eq } from 'drizzle-orm';
import { readingEvents, readingPositions } from '#db/schema/reading.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Invalid, NotFound } from '#domain/shared/errors.ts';
import { allowanceUsage } from './allowances.ts';
import { bookLanguage } from './book-language.ts';
import { allowanceLimit, printLimit, shownDrmPercent } from './drm.ts';
import type { BookFileStore, ByteRange } from './file-store.ts';
import { fixedSpreads } from './fixed-spreads.ts';
import {
  fileMetrics,
  openBook,
  partText,
  partUrls,
  pdfTextsOf,
  printPagesOf,
  publisherStyles,
  renderedPart,
} from './open-books.ts';
import { pageAt, pageLabel, printPageCount } from './print-pages.ts';
import {
  memberSection,
  readableProduct,
  readerContext,
  readerFile,
  readingGrant,
  storedPercent,
  userOf,
} from './reader-access.ts';
import { findOccurrences } from './text-search.ts';
import type { ReaderPart, ReaderView, ReadingVia, SearchHit } from './types.ts';

export type { BookFileStore, ByteRange, ReadingVia };
export { diskFileStore } from './file-store.ts';

/**
 * Opens a book in the reader (/book/read/{id}, /cds_book_read/{id}): checks access, records
 * the open, and returns what the page shows first: the saved place (or `part`, a chapter the
 * URL names), that chapter's text for an EPUB, the table of contents and the DRM allowances.
 */
export async function openReader(
  ctx: RequestContext,
  store: BookFileStore,
  input: {
    productId: number;
    via: ReadingVia;
    courseSectionId: number | null;
    part: number | null;
    /** False when the page is fetched to be kept offline, not read: no 'open' event. */
    recordOpen?: boolean;
  },
): Promise<ReaderView> {
  const product = await readableProduct(ctx, input.productId);
  const grant = await readingGrant(ctx, product.id, input.via);
  const user = userOf(ctx);
  const file = await readerFile(ctx, product.id);
  const metrics = await fileMetrics(ctx, store, file);
  const partCount = metrics.partLengths.length;
  const [saved] = await ctx.db
    .select({ part: readingPositions.part, progression: readingPositions.progression })
    .from(readingPositions)
    .where(and(eq(readingPositions.userId, user.id), eq(readingPositions.productId, product.id)))
    .limit(1);
  const named = input.part !== null && input.part < partCount ? input.part : null;
  const position =
    named !== null
      ? { part: named, progression: saved?.part === named ? saved.progression : 0 }
      : saved && saved.part < partCount
        ? saved
        : { part: 0, progression: 0 };
  const format = file.extension === 'epub' ? 'epub' : 'pdf';
  let part: ReaderPart | null = null;
  let toc: ReaderView['toc'] = [];
  let partTitles: string[] = [];
  let bookCss = '';
  let spread: ReaderView['spread'] = 'none';
  let spreads: number[][] = [];
  let language = bookLanguage({ productLanguage: product.languageCode });
  if (format === 'epub') {
    const book = await openBook(store, file);
    const urls = partUrls(file.id, input.via);
    part = renderedPart(book, position.part, urls);
    toc = book.publication.toc;
    partTitles = book.publication.parts.map((p) => p.title);
    const cssKey = String(input.via.courseMemberId);
    bookCss = book.css.get(cssKey) ?? publisherStyles(book.publication, urls);
    if (book.css.size >= 100) book.css.clear();
    book.css.set(cssKey, bookCss);
    if (book.publication.parts.some((p) => p.fixed)) {
      spread = book.publication.spread;
      spreads = fixedSpreads(book.publication.parts, book.publication.pageProgression === 'rtl');
    }
    language = bookLanguage({
      metadataLanguage: book.publication.language,
      pageProgression: book.publication.pageProgression,
      productLanguage: product.languageCode,
    });
  }
  const usage = await allowanceUsage(ctx, user.id, product.id);
  const courseSectionId = await memberSection(ctx, user.id, input.courseSectionId);
  if (input.recordOpen !== false)
    await ctx.db.insert(readingEvents).values({
      userId: user.id,
      productId: product.id,
      kind: 'open',
      part: position.part,
      courseSectionId,
      occurredAt: ctx.now,
    });
  const copyPercent = storedPercent(product.drmCopyPercent);
  const printPercent = storedPercent(product.drmPrintPercent);
  const printPages = await printPagesOf(store, file, metrics);
  const pageCount = printPageCount(printPages);
  return {
    product: { id: product.id, title: product.title, authors: product.authors },
    language,
    grant,
    format,
    file: { id: file.id },
    partCount,
    partTitles,
    bookCss,
    spread,
    spreads,
    toc,
    position,
    part,
    drm: {
      offlinePercent: shownDrmPercent(storedPercent(product.drmOfflinePercent)),
      copyPercent: shownDrmPercent(copyPercent),
      printPercent: shownDrmPercent(printPercent),
      copy: { limit: allowanceLimit(copyPercent, metrics.textLength), used: usage.copied },
      print: {
        limit: printLimit(printPercent, pageCount),
        used: usage.printed,
        pages: pageCount,
        unit: printPages.unit,
      },
    },
    printPages,
    courseSectionId,
  };
}

/** One chapter of an EPUB, rendered, for the reader's next or previous page. */
export async function readerPart(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  part: number,
  via: ReadingVia,
): Promise<ReaderPart> {
  const { file } = await readerContext(ctx, productId, via);
  if (file.extension !== 'epub') throw new NotFound();
  const book = await openBook(store, file);
  if (part < 0 || part >= book.publication.parts.length) throw new NotFound();
  return renderedPart(book, part, partUrls(file.id, via));
}

/**
 * An EPUB's parts' texts, as the reader shows them, for the parts asked (issue 16: anchoring
 * highlights and bookmarks); only to someone who may read the book now.
 */
export async function bookPartTexts(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  parts: readonly number[],
  via: ReadingVia,
): Promise<{ product: { id: number }; format: 'epub' | 'pdf'; texts: Map<number, string> }> {
  const { product, file } = await readerContext(ctx, productId, via);
  const texts = new Map<number, string>();
  if (file.extension !== 'epub') {
    // A PDF's parts are its pages.
    const pages = parts.length > 0 ? await pdfTextsOf(store, file) : [];
    for (const part of new Set(parts)) {
      const text = pages[part];
      if (text !== undefined) texts.set(part, text);
    }
    return { product, format: 'pdf', texts };
  }
  const book = await openBook(store, file);
  const urls = partUrls(file.id, via);
  for (const part of new Set(parts)) {
    if (part >= 0 && part < book.publication.parts.length)
      texts.set(part, partText(book, part, urls));
  }
  return { product, format: 'epub', texts };
}

/**
 * What an export of the reader's notes needs of the book (issue 16): its title, each part's
 * title, the copy allowance's limit in characters, and the printed page a place in a part's
 * text is on (null where the book does not say: a page-list entry that is not a page-break
 * marker of the text gives no place to compare with, and guessing would mislabel notes).
 */
export async function bookForNotes(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  via: ReadingVia,
): Promise<{
  product: { id: number; title: string };
  copyLimit: number;
  partTitle(part: number): string;
  pageOf(part: number, offset: number): string | null;
}> {
  const { product, file } = await readerContext(ctx, productId, via);
  const metrics = await fileMetrics(ctx, store, file);
  const copyLimit = allowanceLimit(storedPercent(product.drmCopyPercent), metrics.textLength);
  if (file.extension !== 'epub') {
    // A PDF's parts are its pages: a note's page is the one it is on, by the page's own label.
    const pages = await printPagesOf(store, file, metrics);
    return {
      product,
      copyLimit,
      partTitle: () => '',
      pageOf: (part) =>
        part >= 0 && part < printPageCount(pages) ? pageLabel(pages, part + 1) : null,
    };
  }
  const book = await openBook(store, file);
  const pages = await printPagesOf(store, file, metrics);
  const urls = partUrls(file.id, via);
  return {
    product,
    copyLimit,
    partTitle: (part) => book.publication.parts[part]?.title ?? '',
    pageOf(part, offset) {
      const text = partText(book, part, urls);
      const breaks = new Map((book.pageBreaks.get(part) ?? []).map((b) => [b.anchor, b.offset]));
      if (
        pages.unit === 'marked' &&
        pages.marks.some((m) => m.part === part && m.anchor !== null && !breaks.has(m.anchor))
      ) {
        return null;
      }
      const progression = text.length > 0 ? offset / text.length : 0;
      const n = pageAt(pages, { part, progression }, (anchor) => breaks.get(anchor)! <= offset);
      return n > 0 ? pageLabel(pages, n) : null;
    },
  };
}

/** Search in an EPUB's text (issue 5): up to 100 hits, in reading order, with some context. */
export async function searchBook(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  query: string,
  via: ReadingVia,
): Promise<SearchHit[]> {
  const { file } = await readerContext(ctx, productId, via);
  if (file.extension !== 'epub') throw new Invalid('reading.search.pdfInBrowser');
  const book = await openBook(store, file);
  const urls = partUrls(file.id, via);
  const hits: SearchHit[] = [];
  for (let part = 0; part < book.publication.parts.length && hits.length < 100; part++) {
    for (const hit of findOccurrences(partText(book, part, urls), query, 100 - hits.length)) {
      hits.push({ part, ...hit });
    }
  }
  return hits;
}
