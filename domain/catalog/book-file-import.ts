import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { Queryable } from '#db/client.ts';
import { bookFiles, productFeatures, productIdentifiers, products } from '#db/schema/catalog.ts';
import { catalogImportRefusals, catalogImports } from '#db/schema/catalog-imports.ts';
import type { BookFileStore } from '#domain/reading/file-store.ts';
import type { MessageWording } from '#domain/shared/wording.ts';
import { checkEpub, checkPdf, epubcheck, type FileCheck } from './book-file-check.ts';
import { bookFileRefusal } from './book-file-types.ts';
import { isValidIsbn13, normalizeIdentifier } from './isbn.ts';

// Book files into the catalog (issue 15): each EPUB or PDF is matched to its product (named by
// the feed's resource link, else by the ISBN in its file name), checked (book-file-check.ts),
// kept in the store, and made the product's reader file. Its package's accessibility metadata
// and page list fill the product page. A file that matches no product, or fails a check, is
// refused with its reason in the import's report; nothing of it is kept.

export type IncomingFile = { fileName: string; localPath: string };

// Book files are large: at most this many are read at once.
const MAX_FILE_BYTES = 2_000_000_000;

/** The ISBN-13 a file's name carries (9780306406157.epub, 978-0-306-40615-7_web.pdf), if any. */
export function isbnInFileName(fileName: string): string | null {
  for (const match of fileName.matchAll(/97[89][\d-]{10,16}/g)) {
    const digits = normalizeIdentifier(match[0]).slice(0, 13);
    if (digits.length === 13 && isValidIsbn13(digits)) return digits;
  }
  return null;
}

async function productFor(
  db: Queryable,
  file: IncomingFile,
  fileLinks: ReadonlyMap<string, number>,
): Promise<number | null> {
  const linked = fileLinks.get(file.fileName.toLowerCase());
  if (linked) return linked;
  const isbn = isbnInFileName(file.fileName);
  if (!isbn) return null;
  const [row] = await db
    .select({ id: productIdentifiers.productId })
    .from(productIdentifiers)
    .innerJoin(products, eq(products.id, productIdentifiers.productId))
    .where(and(eq(productIdentifiers.value, isbn), eq(products.productType, 'book')))
    .limit(1);
  return row?.id ?? null;
}

type Note = { reference: string; reason: MessageWording };

const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'webp']);
const MIN_COVER_PIXELS = 200;

/**
 * Keeps a publisher's cover (issue 15): a real JPEG, PNG or WebP at least 200 pixels wide,
 * stored once by its content; an EPUB's cover never replaces one the feed sent. Returns why it
 * was refused, or null.
 */
async function keepCover(
  db: Queryable,
  store: BookFileStore,
  productId: number,
  data: Buffer,
  source: 'feed' | 'epub',
): Promise<MessageWording | null> {
  let format: string | undefined;
  let width = 0;
  try {
    const meta = await sharp(data, { failOn: 'error', limitInputPixels: 100_000_000 }).metadata();
    format = meta.format;
    width = meta.width ?? 0;
  } catch {
    return { message: 'import.file.brokenImage' };
  }
  if (!format || !['jpeg', 'png', 'webp'].includes(format))
    return { message: 'import.file.brokenImage' };
  if (width < MIN_COVER_PIXELS) return { message: 'import.file.smallCover', values: { width } };
  const [product] = await db
    .select({ coverSource: products.coverSource, coverSha256: products.coverSha256 })
    .from(products)
    .where(eq(products.id, productId));
  if (source === 'epub' && product?.coverSource === 'feed') return null;
  const sha256 = createHash('sha256').update(data).digest('hex');
  if (product?.coverSha256 === sha256) return null;
  const storagePath = `covers/${productId}-${sha256.slice(0, 16)}.${format === 'jpeg' ? 'jpg' : format}`;
  const local = path.join(tmpdir(), `cover-${sha256.slice(0, 16)}-${process.pid}`);
  await writeFile(local, data);
  await store.adopt(storagePath, local);
  await db
    .update(products)
    .set({
      coverPath: storagePath,
      coverSha256: sha256,
      coverSource: source,
      updatedAt: new Date(),
    })
    .where(eq(products.id, productId));
  return null;
}

/** Attaches book files to the products of an import; returns what it attached and refused. */
export async function attachBookFiles(
  db: Queryable,
  store: BookFileStore,
  importId: number,
  files: readonly IncomingFile[],
  options: { fileLinks?: ReadonlyMap<string, number> } = {},
): Promise<{ attached: number; refused: number }> {
  const fileLinks = options.fileLinks ?? new Map();
  let attached = 0;
  const notes: Note[] = [];
  let refused = 0;
  for (const file of files) {
    const refuse = (reason: MessageWording) => {
      refused++;
      notes.push({ reference: file.fileName, reason });
    };
    const extension = path.extname(file.fileName).slice(1).toLowerCase();
    const image = IMAGE_EXTENSIONS.has(extension);
    if (extension !== 'epub' && extension !== 'pdf' && !image) {
      refuse({ message: 'import.file.type' });
      continue;
    }
    const productId = await productFor(db, file, fileLinks);
    if (productId === null) {
      refuse({ message: 'import.file.noProduct' });
      continue;
    }
    if (image) {
      // A cover the feed sends: kept once, it replaces any other.
      const reason = await keepCover(db, store, productId, await readFile(file.localPath), 'feed');
      if (reason) refuse(reason);
      else attached++;
      continue;
    }
    const [product] = await db
      .select({
        title: products.title,
        languageCode: products.languageCode,
        fileType: products.productFileType,
      })
      .from(products)
      .where(eq(products.id, productId));
    const misfit = bookFileRefusal(
      extension === 'epub' ? 'epub' : 'pdf',
      product?.fileType ?? null,
    );
    if (misfit) {
      refuse(misfit);
      continue;
    }
    const size = (await stat(file.localPath)).size;
    if (size === 0 || size > MAX_FILE_BYTES) {
      refuse({ message: size === 0 ? 'import.file.empty' : 'import.file.tooLarge' });
      continue;
    }
    const data = await readFile(file.localPath);
    let check: FileCheck = extension === 'epub' ? checkEpub(data) : await checkPdf(data);
    if (check.ok && extension === 'epub') {
      const verdict = await epubcheck(file.localPath);
      if (verdict) check = { ok: false, reason: verdict };
    }
    if (!check.ok) {
      refuse(check.reason);
      continue;
    }
    const checked = check.file;
    const sha256 = createHash('sha256').update(data).digest('hex');
    const storagePath = `files/catalog/${productId}-${sha256.slice(0, 16)}.${extension}`;
    await store.adopt(storagePath, file.localPath);
    await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: bookFiles.id })
        .from(bookFiles)
        .where(and(eq(bookFiles.productId, productId), eq(bookFiles.type, 'READER')))
        .orderBy(bookFiles.id)
        .limit(1);
      const row = {
        title: product?.title ?? file.fileName,
        extension,
        type: 'READER',
        mediaType: extension === 'epub' ? 'application/epub+zip' : 'application/pdf',
        storagePath,
        byteSize: data.length,
        sha256,
      };
      if (existing) await tx.update(bookFiles).set(row).where(eq(bookFiles.id, existing.id));
      else await tx.insert(bookFiles).values({ productId, ...row });
      await tx
        .update(products)
        .set({
          productFileType: extension === 'epub' ? 'EPUB' : 'PDF',
          fixedLayout: checked.kind === 'epub' ? checked.fixedLayout : null,
          numPages: sql`coalesce(${products.numPages}, ${checked.pageCount})`,
          updatedAt: new Date(),
        })
        .where(eq(products.id, productId));
      // The file's own accessibility claims are the publication's: they are shown instead of
      // the feed's, and stay when the feed is sent again (issue 38). A new file replaces the
      // previous file's claims, and a file that makes none leaves the feed's.
      await tx
        .delete(productFeatures)
        .where(
          and(
            eq(productFeatures.productId, productId),
            eq(productFeatures.category, 'accessibility'),
            eq(productFeatures.source, 'file'),
          ),
        );
      if (checked.kind === 'epub' && checked.accessibility) {
        await tx.insert(productFeatures).values(
          checked.accessibility.map((row, position) => ({
            productId,
            category: 'accessibility',
            subcategory: row.subcategory,
            code: row.code,
            name: row.name,
            detail: row.detail,
            url: row.url,
            position,
            source: 'file' as const,
          })),
        );
      }
    });
    attached++;
    // The EPUB's cover image, unless the feed sent one.
    if (checked.kind === 'epub' && checked.cover) {
      await keepCover(db, store, productId, checked.cover.data, 'epub');
    }
    // Attached, with what the store noticed: a title or language other than the feed's.
    if (checked.kind === 'epub' && product) {
      const fold = (s: string) =>
        s
          .normalize('NFKD')
          .replace(/[^\p{L}\p{N}]+/gu, '')
          .toLowerCase();
      if (!fold(checked.title).startsWith(fold(product.title).slice(0, 20))) {
        notes.push({
          reference: file.fileName,
          reason: { message: 'import.file.titleDiffers', values: { title: checked.title } },
        });
      }
      const language = checked.language?.toLowerCase().split('-')[0];
      if (language && language !== product.languageCode.toLowerCase().split('-')[0]) {
        notes.push({
          reference: file.fileName,
          reason: {
            message: 'import.file.languageDiffers',
            values: { language: checked.language! },
          },
        });
      }
    }
  }
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(catalogImportRefusals)
      .where(eq(catalogImportRefusals.importId, importId));
    let position = row?.n ?? 0;
    if (notes.length > 0) {
      await tx.insert(catalogImportRefusals).values(
        notes.map((note) => ({
          importId,
          position: position++,
          kind: 'file',
          reference: note.reference.slice(0, 200),
          reason: note.reason.message,
          reasonValues: note.reason.values ?? null,
        })),
      );
    }
    await tx
      .update(catalogImports)
      .set({
        filesAttached: sql`${catalogImports.filesAttached} + ${attached}`,
        filesRefused: sql`${catalogImports.filesRefused} + ${refused}`,
        updatedAt: new Date(),
      })
      .where(eq(catalogImports.id, importId));
  });
  return { attached, refused };
}
