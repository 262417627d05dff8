// What a device may keep of a book to read it offline (issue 16, offline.ts): the share of its
// parts from the one the reader is in, and for a PDF the copy of the file that holds only
// those pages.

import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import type { BookFileStore } from './file-store.ts';
import { offlineParts } from './offline.ts';
import { fileMetrics, openBook } from './open-books.ts';
import { pdfWithPagesKept } from './pdf-share.ts';
import { type ReaderFile, readerContext, storedPercent } from './reader-access.ts';
import type { ReadingVia } from './types.ts';

/**
 * What a device may keep of a book to read it offline (offline.ts), from the part the reader
 * is in: the EPUB's parts, each kept whole, or a PDF's pages.
 */
export async function offlineShare(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  from: number,
  via: ReadingVia,
): Promise<{ parts: number[] }> {
  const { product, file } = await readerContext(ctx, productId, via);
  return { parts: await offlineSharePages(ctx, store, product, file, from) };
}

async function offlineSharePages(
  ctx: RequestContext,
  store: BookFileStore,
  product: { drmOfflinePercent: string | null },
  file: ReaderFile,
  from: number,
): Promise<number[]> {
  const metrics = await fileMetrics(ctx, store, file);
  // A PDF's or a fixed-layout book's pages may be pictures with few words: its share is
  // counted in pages, as its printing is.
  const inPages =
    file.extension !== 'epub' ||
    (await openBook(store, file)).publication.parts.every((p) => p.fixed);
  const sizes = inPages ? metrics.partLengths.map(() => 1) : metrics.partLengths;
  return offlineParts(sizes, storedPercent(product.drmOfflinePercent), from);
}

/**
 * The copy of a PDF this device keeps to read it offline (pdf-share.ts): the pages of its
 * share from the page the reader is on, every other page blank. Not found for an EPUB, or when
 * the book allows no offline reading.
 */
export async function offlinePdf(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  from: number,
  via: ReadingVia,
): Promise<{ pages: number[]; data: Uint8Array }> {
  const { product, file } = await readerContext(ctx, productId, via);
  if (file.extension !== 'pdf') throw new NotFound();
  const pages = await offlineSharePages(ctx, store, product, file, from);
  if (pages.length === 0) throw new NotFound();
  const key = `${file.id}:${file.sha256}:${pages.join(',')}`;
  let copy = offlinePdfCache.get(key);
  if (!copy) {
    copy = store.read(file.storagePath).then((data) => pdfWithPagesKept(data, pages));
    copy.catch(() => offlinePdfCache.delete(key));
    offlinePdfCache.set(key, copy);
  }
  return { pages, data: await copy };
}

// Building a copy parses the whole PDF (~0.25 s for 1,000 pages, on the event loop): the copy
// for a share is made once and kept a while, so a class opening the same chapter the same
// evening, or a worker asking twice, costs one build; eight copies at most are kept.
const offlinePdfCache = new TimedCache<string, Promise<Uint8Array>>(10 * 60_000, 8);
