// A book's files for a reader allowed to read it (issue 5, Reading and files): the file itself
// (/file/read/{id}, /bookfile/{id}/download), and an image or font inside an EPUB.
import { and, eq } from 'drizzle-orm';
import { bookFiles, products } from '#db/schema/catalog.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import type { BookFileStore } from './file-store.ts';
import { openBook } from './open-books.ts';
import { readingGrant } from './reader-access.ts';
import type { ReadingVia } from './types.ts';

export type ServedFile = {
  title: string;
  extension: string;
  mediaType: string;
  type: string;
  size: number;
  storagePath: string;
};

/**
 * A book file for its owner (/file/read/{id}, /bookfile/{id}/download): unknown ids are not
 * found, anybody without access to the file's book is refused. The storage path stays here
 * and in the adapter that streams it; it is never put in a URL.
 */
export async function bookFileFor(
  ctx: RequestContext,
  store: BookFileStore,
  fileId: number,
  via: ReadingVia,
): Promise<ServedFile> {
  const [file] = await ctx.db
    .select({
      productId: bookFiles.productId,
      title: bookFiles.title,
      extension: bookFiles.extension,
      mediaType: bookFiles.mediaType,
      type: bookFiles.type,
      storagePath: bookFiles.storagePath,
      status: products.status,
    })
    .from(bookFiles)
    .innerJoin(products, eq(products.id, bookFiles.productId))
    .where(eq(bookFiles.id, fileId))
    .limit(1);
  if (!file || file.status === 'deleted') throw new NotFound();
  await readingGrant(ctx, file.productId, via);
  return {
    title: file.title,
    extension: file.extension,
    mediaType: file.mediaType,
    type: file.type,
    size: await store.size(file.storagePath),
    storagePath: file.storagePath,
  };
}

/** An image inside an EPUB reader file, for the reader's <img> (same access as the file). */
/** An image or font of an EPUB (web/routes/file-read.ts), for a reader allowed to read it. */
export async function epubResource(
  ctx: RequestContext,
  store: BookFileStore,
  fileId: number,
  archivePath: string,
  via: ReadingVia,
): Promise<{ data: Buffer; mediaType: string }> {
  const [file] = await ctx.db
    .select({
      id: bookFiles.id,
      productId: bookFiles.productId,
      extension: bookFiles.extension,
      storagePath: bookFiles.storagePath,
      sha256: bookFiles.sha256,
    })
    .from(bookFiles)
    .where(and(eq(bookFiles.id, fileId), eq(bookFiles.type, 'READER')))
    .limit(1);
  if (!file || file.extension !== 'epub') throw new NotFound();
  await readingGrant(ctx, file.productId, via);
  const resource = (await openBook(store, file)).publication.readResource(archivePath);
  if (!resource) throw new NotFound();
  return resource;
}
