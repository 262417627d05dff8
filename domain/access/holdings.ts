import { eq } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Queryable } from '#db/client.ts';
import { collectionItems } from '#db/schema/catalog.ts';
import { courseSections, courses, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { onAccountsChanged } from '#domain/accounts/service.ts';
import { isOptStatus } from '#domain/courses/opting.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import type { EntitlementMembership, EntitlementOwnership } from './entitlement.ts';

// What one user holds, as the entitlement rule reads it (issue 40, "Buying never slows
// browsing"): every ownership, the items of the collections owned, and every section they are
// a member of with the section's dates and materials. A logged-in product page asked the
// database for these on every view (about ten statements); each process now keeps them per
// user, as it keeps the session and the ownership list (accounts/service.ts, shelf/service.ts):
// up to 30 s, and forgotten the moment they change anywhere:
// - an ownership, a membership, a section or its materials: notification 'u:<id>' (migrations
//   0007 and 0050), and at once by the service that wrote them in this process;
// - a collection's items: notification 'p:<collection id>' (migration 0004), which forgets
//   the holdings of everyone owning that product;
// - an organisation (its CDS flag): 'all' forgets every cache.
// The rows are kept, never a decision: whether an ownership is in its window, a section
// started, ended or past its opting deadline is asked of the rows at each request's `now`.

export type HeldOwnership = {
  productId: number;
  startsAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  isSectionCodeConfirmed: boolean;
  classroomSectionId: number | null;
};

/** A membership of a section that lists `productId` (and `additionalProductId`, a choice's other version). */
export type HeldListing = {
  productId: number;
  additionalProductId: number | null;
  isClassroomInstructor: boolean;
  membership: EntitlementMembership;
};

export type Holdings = {
  ownerships: HeldOwnership[];
  /** The items of each collection the user has an ownership of (any window). */
  collectionItems: { collectionId: number; itemId: number }[];
  listings: HeldListing[];
};

/**
 * The columns of a member row that the entitlement rule reads, with its section's and
 * organisation's facts: selected from `sectionMembers` joined to its section, course and
 * organisation (`membershipJoins`), whatever else a query adds or filters by.
 */
export const membershipFactColumns = {
  sectionId: courseSections.id,
  memberId: sectionMembers.id,
  role: sectionMembers.role,
  optStatus: sectionMembers.optStatus,
  isCourseFee: sectionMembers.isCourseFee,
  addDropDate: sectionMembers.addDropDate,
  startDate: courseSections.startDate,
  endDate: courseSections.endDate,
  timeZone: courseSections.timeZone,
  disableAutoProvisioning: courseSections.disableAutoProvisioning,
  isCdsEnabled: organizations.isCdsEnabled,
};

/**
 * Section members with the facts of their section, course and organisation that the
 * entitlement rule reads (membershipFactColumns), and the caller's `columns`: the one join
 * path from a member to those facts. The caller says whose.
 */
export function membersWithFacts<C extends SelectedFields>(db: Queryable, columns: C) {
  return db
    .select({ ...columns, ...membershipFactColumns })
    .from(sectionMembers)
    .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .innerJoin(organizations, eq(organizations.id, courses.orgId));
}

/**
 * Each product a section lists (as itself or as its additional product), with the facts of
 * every member of that section: the rows the entitlement rule reads. The caller says whose.
 */
export function sectionListings(db: Queryable) {
  return membersWithFacts(db, {
    productId: sectionProducts.productId,
    additionalProductId: sectionProducts.additionalProductId,
    isClassroomInstructor: sectionMembers.isClassroomInstructor,
  }).innerJoin(sectionProducts, eq(sectionProducts.sectionId, courseSections.id));
}

/** A member row, with its section's and organisation's facts, as the entitlement rule reads it. */
export function entitlementMembership(row: {
  sectionId: number;
  memberId: number;
  role: string;
  optStatus: string;
  isCourseFee: boolean;
  addDropDate: Date;
  startDate: string;
  endDate: string;
  timeZone: string;
  disableAutoProvisioning: boolean;
  isCdsEnabled: boolean;
}): EntitlementMembership {
  return {
    sectionId: row.sectionId,
    memberId: row.memberId,
    role: row.role,
    optStatus: isOptStatus(row.optStatus) ? row.optStatus : 'opted_in',
    isCourseFee: row.isCourseFee,
    addDropDate: row.addDropDate,
    startDate: row.startDate,
    endDate: row.endDate,
    timeZone: row.timeZone,
    disableAutoProvisioning: row.disableAutoProvisioning,
    org: { isCdsEnabled: row.isCdsEnabled },
  };
}

// Any product owned may be a collection that gains an item: its notification forgets them.
const holdingsCache = new TimedCache<number, Holdings>(30_000, 10_000, {
  products: (held) => held.ownerships.map((row) => row.productId),
});
onAccountsChanged((ids) => {
  for (const id of ids) holdingsCache.delete(id);
});

/** What the signed-in user holds, from this process's cache or loaded (three statements). */
export function holdingsOf(ctx: RequestContext, userId: number): Promise<Holdings> {
  return holdingsCache.getOrLoad(userId, () => loadHoldings(ctx, userId));
}

async function loadHoldings(ctx: RequestContext, userId: number): Promise<Holdings> {
  const [owned, items, listings] = await Promise.all([
    ctx.db
      .select({
        productId: ownerships.productId,
        startsAt: ownerships.startsAt,
        expiresAt: ownerships.expiresAt,
        revokedAt: ownerships.revokedAt,
        isSectionCodeConfirmed: ownerships.isSectionCodeConfirmed,
        classroomSectionId: ownerships.classroomSectionId,
      })
      .from(ownerships)
      .where(eq(ownerships.userId, userId)),
    ctx.db
      .selectDistinct({
        collectionId: collectionItems.collectionId,
        itemId: collectionItems.itemId,
      })
      .from(ownerships)
      .innerJoin(collectionItems, eq(collectionItems.collectionId, ownerships.productId))
      .where(eq(ownerships.userId, userId)),
    sectionListings(ctx.db).where(eq(sectionMembers.userId, userId)),
  ]);
  return {
    ownerships: owned,
    collectionItems: items,
    listings: listings.map((row) => ({
      productId: row.productId,
      additionalProductId: row.additionalProductId,
      isClassroomInstructor: row.isClassroomInstructor,
      membership: entitlementMembership(row),
    })),
  };
}

/**
 * The user's ownerships of these products and of collections containing them, by product: what
 * entitlement-facts.ts `ownershipsOf` reads from the database, from the rows held.
 */
export function ownershipsIn(
  held: Holdings,
  productIds: readonly number[],
): Map<number, EntitlementOwnership[]> {
  const byProduct = new Map<number, EntitlementOwnership[]>();
  const add = (productId: number, ownership: EntitlementOwnership) => {
    byProduct.set(productId, [...(byProduct.get(productId) ?? []), ownership]);
  };
  const window = (row: HeldOwnership) => ({
    startsAt: row.startsAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
  });
  for (const row of held.ownerships) {
    if (productIds.includes(row.productId)) add(row.productId, window(row));
  }
  for (const item of held.collectionItems) {
    if (!productIds.includes(item.itemId)) continue;
    for (const row of held.ownerships) {
      if (row.productId === item.collectionId) {
        add(item.itemId, { ...window(row), viaCollection: true });
      }
    }
  }
  return byProduct;
}

/**
 * The user's memberships of sections listing any of these products, by product: what
 * entitlement-facts.ts `membershipsListing` reads from the database, from the rows held.
 */
export function membershipsIn(
  held: Holdings,
  productIds: readonly number[],
): Map<number, EntitlementMembership[]> {
  const byProduct = new Map<number, EntitlementMembership[]>();
  for (const { productId: listed, additionalProductId, membership } of held.listings) {
    for (const productId of new Set([listed, additionalProductId])) {
      if (productId === null || !productIds.includes(productId)) continue;
      const list = byProduct.get(productId) ?? [];
      if (!list.some((m) => m.memberId === membership.memberId)) list.push(membership);
      byProduct.set(productId, list);
    }
  }
  return byProduct;
}
