// Who may read a book, and what of it the reading calls start from (issue 5, Reading and
// files): the logged-in reader, the grant the entitlement rule gives, the product as the
// reader sees it and its reader file, and the section a reader came from.
import { and, asc, eq } from 'drizzle-orm';
import { bookFiles, products } from '#db/schema/catalog.ts';
import { sectionMembers } from '#db/schema/courses.ts';
import { requireEntitlement } from '#domain/access/entitlement-facts.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import type { ReadingGrant, ReadingVia } from './types.ts';

const READABLE_TYPES = new Set(['book', 'ebundle']);

/** The logged-in reader; a visitor is refused (every reading call asks this). */
export function userOf(ctx: RequestContext) {
  if (!ctx.user) throw new Forbidden('error.loginRequired');
  return ctx.user;
}

/**
 * Whether the logged-in user may read the product now, and until when: the one entitlement
 * rule decides (domain/access/entitlement.ts, issue 14): an ownership, an owned collection, or
 * a section that lists it (course fee, CDS, courtesy access, its instructors). /cds_book_read/
 * names the member (coursemember_id), /book/read/ may name the section (course_id). A refusal
 * carries its reason and the way back.
 */
export async function readingGrant(
  ctx: RequestContext,
  productId: number,
  via: ReadingVia,
): Promise<ReadingGrant> {
  userOf(ctx);
  const { grant } = await requireEntitlement(ctx, productId, {
    memberId: via.courseMemberId,
    sectionId: via.courseSectionId ?? null,
  });
  if (grant.entry !== 'read') throw new NotFound();
  return { via: grant.via, expiresAt: grant.until, sectionId: grant.sectionId };
}

export type ReaderFile = {
  id: number;
  productId: number;
  extension: string;
  storagePath: string;
  sha256: string;
};

export async function readableProduct(ctx: RequestContext, productId: number) {
  const [product] = await ctx.db
    .select({
      id: products.id,
      title: products.title,
      authors: products.authors,
      languageCode: products.languageCode,
      productType: products.productType,
      status: products.status,
      drmOfflinePercent: products.drmOfflinePercent,
      drmCopyPercent: products.drmCopyPercent,
      drmPrintPercent: products.drmPrintPercent,
    })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  if (!product || product.status === 'deleted' || !READABLE_TYPES.has(product.productType)) {
    throw new NotFound();
  }
  return product;
}

export async function readerFile(ctx: RequestContext, productId: number): Promise<ReaderFile> {
  const [file] = await ctx.db
    .select({
      id: bookFiles.id,
      productId: bookFiles.productId,
      extension: bookFiles.extension,
      storagePath: bookFiles.storagePath,
      sha256: bookFiles.sha256,
    })
    .from(bookFiles)
    .where(and(eq(bookFiles.productId, productId), eq(bookFiles.type, 'READER')))
    .orderBy(asc(bookFiles.id))
    .limit(1);
  if (!file) throw new NotFound('reading.error.noFile');
  return file;
}

/** The product, the reader's grant and the book's reader file: what most reading calls start from. */
export async function readerContext(ctx: RequestContext, productId: number, via: ReadingVia) {
  const product = await readableProduct(ctx, productId);
  const grant = await readingGrant(ctx, product.id, via);
  const file = await readerFile(ctx, product.id);
  return { product, grant, file };
}

/** The section the reader came from, when they are a member of it (else nothing is noted). */
export async function memberSection(
  ctx: RequestContext,
  userId: number,
  sectionId: number | null,
): Promise<number | null> {
  if (sectionId === null) return null;
  const [row] = await ctx.db
    .select({ id: sectionMembers.sectionId })
    .from(sectionMembers)
    .where(and(eq(sectionMembers.sectionId, sectionId), eq(sectionMembers.userId, userId)))
    .limit(1);
  return row ? sectionId : null;
}

/** A product's DRM percentage as the database keeps it (numeric text), or null for none. */
export const storedPercent = (value: string | null): number | null =>
  value === null ? null : Number(value);

/**
 * A CDS member's own membership that lists the product (for /cds_courseware_provision/),
 * refused otherwise, exactly as /cds_book_read/ checks it.
 */
export async function cdsMembership(
  ctx: RequestContext,
  productId: number,
  courseMemberId: number,
): Promise<{ productTitle: string }> {
  const [product] = await ctx.db
    .select({ title: products.title, status: products.status })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  if (!product || product.status === 'deleted') throw new NotFound();
  await readingGrant(ctx, productId, { courseMemberId });
  return { productTitle: product.title };
}
