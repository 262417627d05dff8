import { and, asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { offerings, productIdentifiers, products } from '#db/schema/catalog.ts';
import { cartItems, carts } from '#db/schema/commerce.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { withReaderFiles } from '#domain/access/entitlement-facts.ts';
import { coverVersion } from '#domain/catalog/cover-version.ts';
import { PAGE_SIZE, pageWindow } from '#domain/catalog/pagination.ts';
import { refundedAccess } from '#domain/commerce/refunds-views.ts';
import { courseCodeLabel } from '#domain/courses/course-code.ts';
import { daysLeft, deadlineDay, isBeforeDeadline } from '#domain/courses/opting.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import { activeOwnership } from './ownership.ts';
import { ownedAction, type ShelfAction } from './shelf-button.ts';
import type { ShelfSort, ShelfType } from './shelf-filters.ts';

// My Shelf (spec 1 §2 Shelf): the user's sections and what they own, paged by 100 (spec 2 §9).

export type ShelfSection = {
  id: number;
  name: string;
  number: string | null;
  rsCourseId: string;
  startDate: string;
  endDate: string;
  addDropAt: Date;
  timeZone: string;
  optingMethod: string;
  disableAutoProvisioning: boolean;
  course: {
    name: string;
    department: string;
    number: string;
    code: string | null;
    courseType: string;
  };
  /** The organisation whose course it is: its behaviours are flags (DESIGN.md, Requests). */
  org: {
    isCdsEnabled: boolean;
    isRetailer: boolean;
    isBookstorePartner: boolean;
    purchaseModalEnabled: boolean;
    helpUrl: string | null;
    partnerStoreUrl: string | null;
  };
  memberId: number;
  rsCoursememberId: string;
  role: string;
  optStatus: string;
  canUpdateOptStatus: boolean;
  isCourseFee: boolean;
  addDropDate: Date;
};

function requireUser(ctx: RequestContext) {
  if (!ctx.user) throw new Forbidden();
  return ctx.user;
}

const sectionColumns = {
  id: courseSections.id,
  name: courseSections.name,
  number: courseSections.number,
  rsCourseId: courseSections.rsCourseId,
  startDate: courseSections.startDate,
  endDate: courseSections.endDate,
  addDropAt: courseSections.addDropAt,
  timeZone: courseSections.timeZone,
  optingMethod: courseSections.optingMethod,
  disableAutoProvisioning: courseSections.disableAutoProvisioning,
  course: {
    name: courses.name,
    department: courses.department,
    number: courses.number,
    code: courses.code,
    courseType: courses.courseType,
  },
  org: {
    isCdsEnabled: organizations.isCdsEnabled,
    isRetailer: organizations.isRetailer,
    isBookstorePartner: organizations.isBookstorePartner,
    purchaseModalEnabled: organizations.purchaseModalEnabled,
    helpUrl: organizations.helpUrl,
    partnerStoreUrl: organizations.partnerStoreUrl,
  },
  memberId: sectionMembers.id,
  rsCoursememberId: sectionMembers.rsCoursememberId,
  role: sectionMembers.role,
  optStatus: sectionMembers.optStatus,
  canUpdateOptStatus: sectionMembers.canUpdateOptStatus,
  isCourseFee: sectionMembers.isCourseFee,
  addDropDate: sectionMembers.addDropDate,
};

/** The sections the user is enrolled in, with their course (spec 2 §7 Sections). */
export async function enrolledSections(ctx: RequestContext): Promise<ShelfSection[]> {
  const user = requireUser(ctx);
  return ctx.db
    .select(sectionColumns)
    .from(sectionMembers)
    .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .innerJoin(organizations, eq(organizations.id, courses.orgId))
    .where(eq(sectionMembers.userId, user.id))
    .orderBy(asc(courseSections.startDate), asc(courseSections.id));
}

/**
 * One section of the user's, or Forbidden: a member may only see sections they belong to
 * (issue 5). A section that does not exist reads as not found.
 */
export async function memberSection(ctx: RequestContext, sectionId: number): Promise<ShelfSection> {
  const user = requireUser(ctx);
  const [row] = await ctx.db
    .select({ ...sectionColumns, userId: sectionMembers.userId })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .innerJoin(organizations, eq(organizations.id, courses.orgId))
    .leftJoin(
      sectionMembers,
      and(eq(sectionMembers.sectionId, courseSections.id), eq(sectionMembers.userId, user.id)),
    )
    .where(eq(courseSections.id, sectionId))
    .limit(1);
  if (!row) throw new NotFound();
  if (row.userId === null) throw new Forbidden();
  const { userId: _user, ...section } = row;
  return section as ShelfSection;
}

export type ShelfTile = {
  productId: number;
  title: string;
  /** The title's language (pages mark it with `lang`, issue 13). */
  languageCode: string;
  productType: string;
  publisher: string;
  /** The cover's version, for its addresses (domain/catalog/cover-version.ts). */
  cover: string;
  sectionNumber: string | null;
  /** The badge saying how it came at no price of its own (accessBadgeOf). */
  accessBadge: AccessBadge | null;
  inCart: boolean;
  expiresAt: Date | null;
  /** What an owned material's button does (spec 1 §4 Shelf button priority 1). */
  action: ShelfAction | null;
};

export type AccessBadge = 'free' | 'courseFee';

/**
 * How a material on the shelf came without a purchase of its own (spec 1 §2 'Free Access'):
 * a free book or a sample is 'Free Access'; what the course fee or inclusive access gave is
 * paid for through the course fee and says so, never "free" (issue 38). Bought, redeemed or
 * given by staff: no badge.
 */
export function accessBadgeOf(source: string): AccessBadge | null {
  if (source === 'free' || source === 'sample') return 'free';
  if (source === 'course_fee' || source === 'inclusive_access') return 'courseFee';
  return null;
}

/** The user's cart's product ids (the 'Added To Cart' badge). */
export async function cartProductIds(ctx: RequestContext): Promise<Set<number>> {
  const user = requireUser(ctx);
  const rows = await ctx.db
    .select({ productId: cartItems.productId })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .where(eq(carts.userId, user.id));
  return new Set(rows.map((row) => row.productId));
}

/** One page of the materials the user owns now, filtered by type and sorted. */
export async function shelfMaterials(
  ctx: RequestContext,
  input: { types: readonly ShelfType[]; sort: ShelfSort; page: number },
): Promise<{ tiles: ShelfTile[]; count: number; page: number; pages: number }> {
  const user = requireUser(ctx);
  const where = and(
    eq(ownerships.userId, user.id),
    activeOwnership(ctx.now),
    ne(products.status, 'deleted'),
    input.types.length > 0 ? inArray(products.productType, [...input.types]) : undefined,
  );
  const [{ total } = { total: 0 }] = await ctx.db
    .select({ total: count() })
    .from(ownerships)
    .innerJoin(products, eq(products.id, ownerships.productId))
    .where(where);
  const { page, pages } = pageWindow(input.page, total);
  const order =
    input.sort === 'alphabetical_asc'
      ? [asc(sql`lower(${products.title})`), asc(products.id)]
      : input.sort === 'alphabetical_desc'
        ? [desc(sql`lower(${products.title})`), desc(products.id)]
        : [desc(ownerships.createdAt), desc(ownerships.id)];
  const rows = await ctx.db
    .select({
      productId: products.id,
      title: products.title,
      languageCode: products.languageCode,
      productType: products.productType,
      publisher: products.publisher,
      cover: coverVersion,
      sectionNumber: courseSections.number,
      source: ownerships.source,
      expiresAt: ownerships.expiresAt,
    })
    .from(ownerships)
    .innerJoin(products, eq(products.id, ownerships.productId))
    .leftJoin(
      courseSections,
      eq(
        courseSections.id,
        sql`coalesce(${ownerships.classroomSectionId}, ${ownerships.courseSectionId})`,
      ),
    )
    .where(where)
    .orderBy(...order)
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE);
  const inCart = await cartProductIds(ctx);
  // A book with no file to read gets no Read Now: it would end in "not found" (issue 14).
  const ids = rows.map((row) => row.productId);
  const readable = await withReaderFiles(ctx, ids);
  return {
    tiles: rows.map(({ source, ...row }) => {
      const action = ownedAction(row.productType);
      return {
        ...row,
        accessBadge: accessBadgeOf(source),
        inCart: inCart.has(row.productId),
        action: action === 'read' && !readable.has(row.productId) ? null : action,
      };
    }),
    count: total,
    page,
    pages,
  };
}

export type ShelfMaterialDetails = {
  productId: number;
  /** The cover's version, for its addresses (domain/catalog/cover-version.ts). */
  cover: string;
  title: string;
  subtitle: string | null;
  authors: string;
  description: string;
  productType: string;
  publisher: string;
  supplierItemId: string | null;
  languageCode: string;
  numPages: number | null;
  /** The publisher's edition label when it is not a number (see editionNumber). */
  edition: string | null;
  /** A numbered edition, which pages say in their language (editionWording). */
  editionNumber: number | null;
  fileType: string | null;
  isCodeless: boolean;
  accessUrl: string | null;
  isbns: string[];
  classroomIsbn: string | null;
  sectionNumber: string | null;
  drm: { offline: number | null; copy: number | null; print: number | null };
  expiresAt: Date | null;
  /** The days-remaining banner: whole days left of a time-limited access. */
  daysLeft: number | null;
  inCart: boolean;
};

/** The shelf material details panel (spec 1 §2 Shelf) of a product the user owns. */
export async function shelfMaterialDetails(
  ctx: RequestContext,
  productId: number,
): Promise<ShelfMaterialDetails> {
  const user = requireUser(ctx);
  const [row] = await ctx.db
    .select({
      productId: products.id,
      cover: coverVersion,
      title: products.title,
      subtitle: products.subtitle,
      authors: products.authors,
      description: products.description,
      productType: products.productType,
      publisher: products.publisher,
      supplierItemId: products.supplierItemId,
      languageCode: products.languageCode,
      numPages: products.numPages,
      edition: products.edition,
      editionNumber: products.editionNumber,
      fileType: products.productFileType,
      isCodeless: products.isCodeless,
      accessUrl: products.accessUrl,
      offline: products.drmOfflinePercent,
      copy: products.drmCopyPercent,
      print: products.drmPrintPercent,
      expiresAt: ownerships.expiresAt,
      sectionNumber: courseSections.number,
    })
    .from(ownerships)
    .innerJoin(products, eq(products.id, ownerships.productId))
    .leftJoin(courseSections, eq(courseSections.id, ownerships.classroomSectionId))
    .where(
      and(
        eq(ownerships.userId, user.id),
        eq(ownerships.productId, productId),
        activeOwnership(ctx.now),
        ne(products.status, 'deleted'),
      ),
    )
    .limit(1);
  // Something the user does not own reads as not found, like something that does not exist.
  if (!row) throw new NotFound();
  const identifiers = await ctx.db
    .select({ type: productIdentifiers.type, value: productIdentifiers.value })
    .from(productIdentifiers)
    .where(eq(productIdentifiers.productId, productId))
    .orderBy(asc(productIdentifiers.type));
  const percent = (value: string | null) => (value === null ? null : Number(value));
  const { offline, copy, print, ...rest } = row;
  return {
    ...rest,
    isbns: identifiers
      .filter((i) => ['EISBN13', 'ISBN13', 'EISBN10', 'ISBN10'].includes(i.type))
      .map((i) => i.value),
    classroomIsbn: identifiers.find((i) => i.type === 'CLASSROOM_ISBN')?.value ?? null,
    drm: { offline: percent(offline), copy: percent(copy), print: percent(print) },
    daysLeft: rest.expiresAt ? Math.max(0, daysLeft(rest.expiresAt, ctx.now)) : null,
    inCart: (await cartProductIds(ctx)).has(productId),
  };
}

/** Active offerings of some products, cheapest first (spec 1 §4). */
export async function offeringsOf(ctx: RequestContext, productIds: readonly number[]) {
  if (productIds.length === 0) return [];
  return ctx.db
    .select({
      id: offerings.id,
      productId: offerings.productId,
      type: offerings.type,
      priceCents: offerings.priceCents,
      comboPriceCents: offerings.comboPriceCents,
    })
    .from(offerings)
    .where(and(inArray(offerings.productId, [...productIds]), eq(offerings.isActive, true)))
    .orderBy(asc(offerings.priceCents), asc(offerings.id));
}

/** Access that left the shelf, and why (issue 14: losing access explains itself). */
export type LostAccess =
  | {
      kind: 'optedOut';
      sectionId: number;
      course: string;
      /** The day to opt back in by (YYYY-MM-DD), or null once the deadline has passed. */
      deadline: string | null;
    }
  | { kind: 'ended'; productId: number; title: string; date: string }
  /** Issue 39: refunded, so the access ended; the order's receipt shows the refund. */
  | { kind: 'refunded'; productId: number; title: string; date: string; orderId: string };

/** Shown for this long after a rental or term access ends. */
const RECENTLY_MS = 30 * 86_400_000;

/**
 * What the user no longer has on the shelf and would look for: the current sections they
 * opted out of (their inclusive-access materials were taken off), and access that ended in
 * the last 30 days without being renewed.
 */
export async function lostAccess(
  ctx: RequestContext,
  sections: readonly ShelfSection[],
  today: string,
): Promise<LostAccess[]> {
  const user = requireUser(ctx);
  const optedOut: LostAccess[] = sections
    .filter(
      (s) =>
        s.role === 'student' &&
        s.optStatus === 'opted_out' &&
        s.endDate >= today &&
        !s.org.isBookstorePartner,
    )
    .map((s) => ({
      kind: 'optedOut',
      sectionId: s.id,
      course: courseCodeLabel(s.course),
      deadline: isBeforeDeadline(s.addDropDate, ctx.now)
        ? deadlineDay(s.addDropDate, s.timeZone)
        : null,
    }));
  const rows = await ctx.db
    .select({
      productId: products.id,
      title: products.title,
      expiresAt: ownerships.expiresAt,
    })
    .from(ownerships)
    .innerJoin(products, eq(products.id, ownerships.productId))
    .where(
      and(
        eq(ownerships.userId, user.id),
        sql`${ownerships.revokedAt} is null`,
        sql`${ownerships.expiresAt} <= ${ctx.now.toISOString()}`,
        sql`${ownerships.expiresAt} > ${new Date(ctx.now.getTime() - RECENTLY_MS).toISOString()}`,
        ne(products.status, 'deleted'),
      ),
    )
    .orderBy(desc(ownerships.expiresAt))
    .limit(20);
  // Not renewed: no ownership of the same product is active now (the one ownership rule).
  const renewed = new Set(
    rows.length === 0
      ? []
      : (
          await ctx.db
            .select({ productId: ownerships.productId })
            .from(ownerships)
            .where(
              and(
                eq(ownerships.userId, user.id),
                inArray(
                  ownerships.productId,
                  rows.map((row) => row.productId),
                ),
                activeOwnership(ctx.now),
              ),
            )
        ).map((row) => row.productId),
  );
  const ended: LostAccess[] = rows
    .filter(
      (row, i) =>
        !renewed.has(row.productId) && rows.findIndex((r) => r.productId === row.productId) === i,
    )
    .slice(0, 10)
    .map((row) => ({
      kind: 'ended',
      productId: row.productId,
      title: row.title,
      date: row.expiresAt!.toISOString().slice(0, 10),
    }));
  const refunded: LostAccess[] = (
    await refundedAccess(ctx.db, user.id, {
      since: new Date(ctx.now.getTime() - RECENTLY_MS),
      now: ctx.now,
    })
  )
    .slice(0, 10)
    .map(({ refundedAt, ...row }) => ({
      kind: 'refunded',
      ...row,
      date: refundedAt.toISOString().slice(0, 10),
    }));
  return [...optedOut, ...refunded, ...ended];
}
