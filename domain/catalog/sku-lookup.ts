import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { offerings, productIdentifiers, products } from '#db/schema/catalog.ts';
import { academicTerms, courseSections, courses, sectionProducts } from '#db/schema/courses.ts';
import { courseCodeLabel } from '#domain/courses/course-code.ts';
import type { OrgScope } from '#domain/operations/staff-scope.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import type { UnavailabilityReason } from './availability.ts';
import { productDetail } from './service.ts';
import { skuReadings } from './sku.ts';

// SKU Lookup (spec 1 §2 user menu, "Bookstore Manager: SKU Lookup (managers or bookstore
// managers)"): the bookstore types the number on a box, a shelf tag or a publisher's list (an
// ISBN-13 or -10, an eISBN, a PCARD number, with or without hyphens) and sees the product it is,
// every identifier it carries, each of its offerings with price and stock (those not offered
// too, and why), whether students can buy it here now — the product page's own answer — and the
// running sections of the staff member's campuses that list it, with how many students.

/** Sections listed per product; the rest are counted. */
export const SKU_SECTIONS_SHOWN = 25;

export type SkuProduct = {
  id: number;
  title: string;
  productType: string;
  slug: string;
  authors: string;
  publisher: string;
  identifiers: { type: string; value: string }[];
  offerings: {
    id: number;
    type: string;
    priceCents: number;
    currencyCode: string;
    durationDays: number | null;
    isRental: boolean;
    /** Shown on the product page to a shopper here now (active and deliverable). */
    offered: boolean;
    isActive: boolean;
    /** Units on hand; null for goods without counted stock. */
    stock: number | null;
  }[];
  /** Why a shopper here cannot buy it now (the product page's message), or null. */
  unavailable: UnavailabilityReason | null;
  sections: {
    id: number;
    course: string;
    courseName: string;
    sectionNumber: string | null;
    term: string | null;
    startDate: string;
    isRequired: boolean;
    students: number;
    optedIn: number;
  }[];
  moreSections: number;
};

export type SkuLookup = { sku: string; products: SkuProduct[] };

/**
 * The products a typed number names, for a staff member of `scope` (the page lets in only those
 * whose menu shows SKU Lookup). Deleted products are left out, as everywhere in the catalog;
 * withdrawn or deactivated ones are found and say so.
 */
export async function lookUpSku(
  ctx: RequestContext,
  scope: OrgScope,
  raw: string | null | undefined,
): Promise<SkuLookup> {
  const readings = skuReadings(raw);
  const found = await ctx.db
    .selectDistinct({
      id: products.id,
      title: products.title,
      productType: products.productType,
      slug: products.slug,
      authors: products.authors,
      publisher: products.publisher,
    })
    .from(productIdentifiers)
    .innerJoin(products, eq(products.id, productIdentifiers.productId))
    .where(and(inArray(productIdentifiers.value, readings), sql`${products.status} <> 'deleted'`))
    .orderBy(products.id)
    .limit(10);
  const sku = readings[0]!;
  return {
    sku,
    products: await Promise.all(found.map((product) => describe(ctx, scope, product))),
  };
}

async function describe(
  ctx: RequestContext,
  scope: OrgScope,
  product: Pick<SkuProduct, 'id' | 'title' | 'productType' | 'slug' | 'authors' | 'publisher'>,
): Promise<SkuProduct> {
  const [identifiers, allOfferings, shopper, sections] = await Promise.all([
    ctx.db
      .select({ type: productIdentifiers.type, value: productIdentifiers.value })
      .from(productIdentifiers)
      .where(eq(productIdentifiers.productId, product.id))
      .orderBy(asc(productIdentifiers.type)),
    ctx.db
      .select({
        id: offerings.id,
        type: offerings.type,
        priceCents: offerings.priceCents,
        currencyCode: offerings.currencyCode,
        durationDays: offerings.durationDays,
        isRental: offerings.isRental,
        isActive: offerings.isActive,
        stock: offerings.stock,
      })
      .from(offerings)
      .where(eq(offerings.productId, product.id))
      .orderBy(desc(offerings.isActive), asc(offerings.priceCents), asc(offerings.id)),
    // What a shopper here and now is told: the product page's own reading of the product.
    productDetail(ctx, product.id).catch((error: unknown) => {
      if (error instanceof NotFound) return null;
      throw error;
    }),
    sectionsListing(ctx, scope, product.id),
  ]);
  const offered = new Set(shopper?.offerings.map((offer) => offer.id) ?? []);
  return {
    ...product,
    identifiers,
    offerings: allOfferings.map((offer) => ({ ...offer, offered: offered.has(offer.id) })),
    unavailable: shopper ? shopper.unavailable : 'removed',
    ...sections,
  };
}

async function sectionsListing(
  ctx: RequestContext,
  scope: OrgScope,
  productId: number,
): Promise<Pick<SkuProduct, 'sections' | 'moreSections'>> {
  if (scope.kind === 'orgs' && scope.orgIds.length === 0) return { sections: [], moreSections: 0 };
  const students = sql<number>`(select count(*)::int from section_members m
      where m.section_id = ${courseSections.id} and m.role = 'student')`;
  const optedIn = sql<number>`(select count(*)::int from section_members m
      where m.section_id = ${courseSections.id} and m.role = 'student'
        and m.opt_status = 'opted_in')`;
  // A section lists the product as a material or as the other half of a print/digital choice,
  // perhaps both: one line per section, required if any of its rows says so.
  const listing = (required: boolean) => sql`exists (select 1 from ${sectionProducts} sp
      where sp.section_id = ${courseSections.id}
        and (sp.product_id = ${productId} or sp.additional_product_id = ${productId})
        ${required ? sql`and sp.is_required` : sql``})`;
  const rows = await ctx.db
    .select({
      id: courseSections.id,
      department: courses.department,
      number: courses.number,
      code: courses.code,
      courseName: courses.name,
      sectionNumber: courseSections.number,
      term: academicTerms.title,
      startDate: courseSections.startDate,
      isRequired: sql<boolean>`${listing(true)}`,
      students,
      optedIn,
      total: sql<number>`count(*) over ()::int`,
    })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .leftJoin(academicTerms, eq(academicTerms.id, courseSections.termId))
    .where(
      and(
        listing(false),
        isNull(courseSections.endedAt),
        scope.kind === 'orgs' ? inArray(courses.orgId, [...scope.orgIds]) : undefined,
      ),
    )
    .orderBy(
      desc(courseSections.startDate),
      asc(courses.department),
      asc(courses.number),
      asc(courseSections.id),
    )
    .limit(SKU_SECTIONS_SHOWN);
  return {
    sections: rows.map((row) => ({
      id: row.id,
      course: courseCodeLabel({ department: row.department, number: row.number, code: row.code }),
      courseName: row.courseName,
      sectionNumber: row.sectionNumber,
      term: row.term,
      startDate: row.startDate,
      isRequired: row.isRequired,
      students: row.students,
      optedIn: row.optedIn,
    })),
    moreSections: Math.max(0, (rows[0]?.total ?? 0) - rows.length),
  };
}
