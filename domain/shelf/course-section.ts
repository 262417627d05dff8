import { and, asc, eq, inArray, or } from 'drizzle-orm';
import { products } from '#db/schema/catalog.ts';
import { sectionProducts } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { assignAccessCode } from '#domain/access/codes.ts';
import { type EntitlementReason, entitlement, isPhysicalCopy } from '#domain/access/entitlement.ts';
import {
  AccessRefused,
  entitlementOf,
  ownershipsOf,
  withReaderFiles,
} from '#domain/access/entitlement-facts.ts';
import { launchVersion } from '#domain/access/launch-service.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import { analyticsVisibility } from '#domain/analytics/analytics-visibility.ts';
import { unavailabilityReason } from '#domain/catalog/availability.ts';
import { coverVersion } from '#domain/catalog/cover-version.ts';
import { priceLabel } from '#domain/catalog/price-label.ts';
import { cartLines, subtotalCents } from '#domain/commerce/cart.ts';
import { offeringPriceCents } from '#domain/commerce/cart-button.ts';
import { courseFeeCovers } from '#domain/courses/fee-covers.ts';
import {
  courseFeeApplies,
  ecommerceChannelOpen,
  isOptStatus,
  type OptStatus,
  offeringsShow,
} from '#domain/courses/opting.ts';
import { type OptingBanner, optingBanner } from '#domain/courses/opting-banner.ts';
import { showPurchaseModal } from '#domain/courses/partner-handoff.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import { partnerStoreUrl } from '#domain/sites/partner-store.ts';
import { isFreeToAdd } from './free-book-rule.ts';
import { cartProductIds, memberSection, offeringsOf, type ShelfSection } from './my-shelf.ts';
import { isActiveOwnership } from './ownership.ts';
import { isPartnerCandidate } from './partner-candidates.ts';
import { materialEntries } from './section-materials.ts';
import { materialsVisibleFrom } from './sections.ts';
import { offeringsAfterAddDrop, type ShelfAction, shelfButton } from './shelf-button.ts';

// The course section page (spec 1 §2 Course section page, §4 Shelf button priority and
// Course fee): the section's materials as this member sees them.

export type SectionMaterial = {
  productId: number;
  title: string;
  productType: string;
  publisher: string;
  /** The cover's version, for its addresses (domain/catalog/cover-version.ts). */
  cover: string;
  /** The other version of a physical/digital choice, if this is one. */
  otherProductId: number | null;
  owned: boolean;
  inCart: boolean;
  action: ShelfAction | null;
  /**
   * Why a material this member had, or would have, through the section does not open now,
   * with the way back (opted out: opt back in until the deadline; the term ended; no file).
   */
  notice: {
    key: EntitlementReason | 'reading.error.noFile';
    params: Record<string, string>;
  } | null;
  /** The reader is opened through the course-delivery link (CDS) rather than /book/read/. */
  viaCds: boolean;
  /** Courseware with a registered LTI tool: Access Courseware launches it (issue 14). */
  launchable: boolean;
  /** The offering Add To Cart puts in the cart (the cheapest left after the course-fee rule). */
  offeringId: number | null;
  priceCents: number | null;
  /** The member's course fee gives it (courseFeeCovers, issue 38): said on its tile. */
  includedInFee: boolean;
  /**
   * Closed because the member opted out, yet sold: the page says how to buy or rent it
   * instead (issue 38), on its product page.
   */
  buyInstead: boolean;
};

/** The refusals a material says on the course page; "not yours" goes without saying. */
const NOTICES = new Set<EntitlementReason>([
  'access.reason.optedOut',
  'access.reason.optedOutClosed',
  'access.reason.termEnded',
  'access.reason.notStarted',
  'access.reason.revoked',
  'reading.error.expired',
]);

export type CourseSectionView = {
  section: ShelfSection;
  materials: SectionMaterial[];
  /** The opting banner, for a student who may opt (spec 1 §4 Opting). */
  opting: OptingBanner | null;
  /**
   * The bookstore-partner organisation's Buy Now (spec 1 §4 Partner hand-off): shown for its
   * student-choice courses; the purchase modal lists the candidates when it applies.
   */
  partner: {
    buyNow: boolean;
    purchaseModal: boolean;
    candidates: { productId: number; title: string; productType: string }[];
    /** The partner's store, for 'Go To My Bookstore' (a plain http(s) address, or null). */
    storeUrl: string | null;
  };
  /** Professors and teaching assistants see 'View Section Analytics' (spec 2 §4). */
  canViewAnalytics: boolean;
  /** Materials appear two weeks before class starts; before then, the day to check back. */
  checkBackOn: string | null;
  cart: { count: number; subtotalCents: number };
};

export async function courseSectionView(
  ctx: RequestContext,
  sectionId: number,
  today: string,
): Promise<CourseSectionView> {
  const section = await memberSection(ctx, sectionId);
  const user = ctx.user!;
  const visibleFrom = materialsVisibleFrom(section.startDate);
  const lines = await cartLines(ctx.db, { userId: user.id });
  const cart = { count: lines.length, subtotalCents: subtotalCents(lines) };
  // The one rule of who sees the section's analytics (issue 19).
  const canViewAnalytics = analyticsVisibility([section.role]).visible;
  const optStatus: OptStatus = isOptStatus(section.optStatus) ? section.optStatus : 'opted_in';
  const opting = optingBanner({
    member: {
      role: section.role,
      optStatus,
      canUpdateOptStatus: section.canUpdateOptStatus,
      addDropDate: section.addDropDate,
    },
    section,
    org: section.org,
    now: ctx.now,
  });
  const buyNow = section.org.isBookstorePartner && section.course.courseType === 'student_choice';
  const partnerOf = (candidates: CourseSectionView['partner']['candidates']) => ({
    buyNow,
    purchaseModal:
      buyNow &&
      showPurchaseModal({
        candidateCount: candidates.length,
        purchaseModalEnabled: section.org.purchaseModalEnabled,
        isRetailer: section.org.isRetailer,
      }),
    candidates,
    storeUrl: section.org.isBookstorePartner
      ? (partnerStoreUrl(section.org.partnerStoreUrl)?.href ?? null)
      : null,
  });
  if (today < visibleFrom) {
    return {
      section,
      materials: [],
      opting,
      partner: partnerOf([]),
      canViewAnalytics,
      checkBackOn: visibleFrom,
      cart,
    };
  }
  const rows = await ctx.db
    .select({
      productId: sectionProducts.productId,
      additionalProductId: sectionProducts.additionalProductId,
      isPhysicalDigitalChoice: sectionProducts.isPhysicalDigitalChoice,
    })
    .from(sectionProducts)
    .where(eq(sectionProducts.sectionId, section.id))
    .orderBy(asc(sectionProducts.position), asc(sectionProducts.id));
  const mentioned = [
    ...new Set(rows.flatMap((r) => [r.productId, r.additionalProductId ?? r.productId])),
  ];
  // What the user owns of them (directly, or in an owned collection), for the rule.
  const ownershipsByProduct = await ownershipsOf(ctx, user.id, mentioned);
  const owned = new Set(
    [...ownershipsByProduct]
      .filter(([, list]) => list.some((o) => isActiveOwnership(o, ctx.now)))
      .map(([productId]) => productId),
  );
  const entries = materialEntries(rows, owned);
  const ids = entries.map((entry) => entry.productId);
  const facts =
    ids.length === 0
      ? []
      : await ctx.db
          .select({
            id: products.id,
            title: products.title,
            productType: products.productType,
            publisher: products.publisher,
            cover: coverVersion,
            status: products.status,
            isDisabled: products.isDisabled,
            blockedCountries: products.blockedCountries,
            blockedHosts: products.blockedHosts,
            saleHold: products.saleHold,
            saleStartsAt: products.saleStartsAt,
          })
          .from(products)
          .where(inArray(products.id, ids));
  const factOf = new Map(facts.map((fact) => [fact.id, fact]));
  // Books that have a file to read: a reading button for one without would end in a 404.
  const withFiles = await withReaderFiles(ctx, ids);
  // Courseware with a registered tool launches; without one, it has an access code.
  const launchable = new Set<number>();
  for (const fact of facts) {
    if (fact.productType === 'courseware' && (await launchVersion(ctx.db, fact.id)) !== null) {
      launchable.add(fact.id);
    }
  }
  // This section's membership, as the entitlement rule reads it (issue 14).
  const membership = {
    sectionId: section.id,
    memberId: section.memberId,
    role: section.role,
    optStatus,
    isCourseFee: section.isCourseFee,
    addDropDate: section.addDropDate,
    timeZone: section.timeZone,
    startDate: section.startDate,
    endDate: section.endDate,
    disableAutoProvisioning: section.disableAutoProvisioning,
    org: { isCdsEnabled: section.org.isCdsEnabled },
  };
  const allOfferings = await offeringsOf(ctx, ids);
  const inCart = await cartProductIds(ctx);
  // spec 1 §5: offerings show with cdsEnabled or auto-provisioning disabled; otherwise only
  // an opted-out student after the deadline buys, through the ecommerce channel. A course fee
  // covers nothing once opted out (spec 1 §6).
  const optedOutMayBuy = ecommerceChannelOpen({
    isBookstorePartner: section.org.isBookstorePartner,
    role: section.role,
    optStatus,
    addDropDate: section.addDropDate,
    now: ctx.now,
  });
  const mayBuy =
    optedOutMayBuy ||
    offeringsShow({
      isCdsEnabled: section.org.isCdsEnabled,
      disableAutoProvisioning: section.disableAutoProvisioning,
    });
  const courseFee = courseFeeApplies({ isCourseFee: section.isCourseFee, optStatus });
  const materials: SectionMaterial[] = [];
  for (const entry of entries) {
    const fact = factOf.get(entry.productId);
    if (!fact || fact.status === 'deleted') continue;
    const own = allOfferings.filter((o) => o.productId === entry.productId);
    const offered = offeringsAfterAddDrop(own, {
      choice: entry.choice,
      courseFee,
      addDropDate: section.addDropDate,
      now: ctx.now,
    }).sort((a, b) => offeringPriceCents(a) - offeringPriceCents(b) || a.id - b.id);
    const unavailable = unavailabilityReason({
      status: fact.status,
      isDisabled: fact.isDisabled,
      blockedCountries: fact.blockedCountries,
      blockedHosts: fact.blockedHosts,
      saleHold: fact.saleHold,
      saleStartsAt: fact.saleStartsAt,
      now: ctx.now,
      activeOfferings: offered.length,
      country: ctx.country,
      host: ctx.site.host,
    });
    const cheapest = offered[0] ?? null;
    const price = priceLabel({
      productType: fact.productType,
      hasOffer: offered.length > 0,
      priceCents: cheapest ? offeringPriceCents(cheapest) : null,
      saleHold: fact.saleHold,
    });
    // A physical copy: judged on every offering, before the course-fee rule drops some.
    const physical = isPhysicalCopy(
      fact.productType,
      own.map((o) => o.type),
    );
    // spec 1 §4 Course fee: "Physical gives Add To Cart or View Cart" (issue 14).
    const buyable =
      (mayBuy || (courseFee && physical)) && unavailable === null && offered.length > 0;
    // The one rule (domain/access/entitlement.ts): does it open, through what, or why not.
    const decision = entitlement({
      signedIn: true,
      product: {
        productType: fact.productType,
        status: fact.status,
        physical,
      },
      ownerships: ownershipsByProduct.get(entry.productId) ?? [],
      memberships: [membership],
      through: { sectionId: section.id },
      now: ctx.now,
    });
    const isOwned = owned.has(entry.productId);
    const includedInFee =
      courseFee &&
      courseFeeCovers({ productType: fact.productType, offeringTypes: own.map((o) => o.type) });
    const throughCourse =
      decision.ok && (decision.via === 'courtesy' || decision.via === 'instructor');
    const button = shelfButton({
      productType: fact.productType,
      owned: isOwned,
      free: isFreeToAdd({ price, unavailable }),
      hasOfferings: buyable,
      inCart: inCart.has(entry.productId),
      physical,
      // Start Reading only while the course fee opens it (not after the term, issue 14).
      courseFee: decision.ok && (decision.via === 'courseFee' || decision.via === 'cds'),
      throughCourse,
    });
    // Courseware the course opens but that has no tool to launch: its access code is acquired
    // first, then shown on My Shelf (spec 1 §4 Access code panel).
    // A classroom the course opens is acquired first, then entered with its section code
    // (spec 1 §4 Classroom redeem prompt); only its instructors walk straight in.
    const classroomToAcquire =
      fact.productType === 'classroom' &&
      !isOwned &&
      decision.ok &&
      decision.via !== 'instructor' &&
      (button === 'accessClassroom' || button === 'startReading');
    const action =
      (button === 'accessCourseware' && !isOwned && !launchable.has(entry.productId)) ||
      classroomToAcquire
        ? 'acquireCode'
        : button;
    // Nothing to read yet: say so rather than offer a button that ends in "not found".
    const unreadable =
      (action === 'read' || action === 'startReading') && !withFiles.has(entry.productId);
    materials.push({
      productId: entry.productId,
      title: fact.title,
      productType: fact.productType,
      publisher: fact.publisher,
      cover: fact.cover,
      otherProductId: entry.otherProductId,
      owned: isOwned,
      inCart: inCart.has(entry.productId),
      action: unreadable ? null : action,
      notice: unreadable
        ? { key: 'reading.error.noFile', params: {} }
        : !decision.ok && !physical && NOTICES.has(decision.reason)
          ? { key: decision.reason, params: decision.params }
          : null,
      viaCds: decision.ok && decision.via === 'cds',
      launchable: launchable.has(entry.productId),
      offeringId: buyable ? (cheapest?.id ?? null) : null,
      priceCents: cheapest ? offeringPriceCents(cheapest) : null,
      includedInFee,
      buyInstead:
        !unreadable &&
        action === null &&
        !decision.ok &&
        (decision.reason === 'access.reason.optedOut' ||
          decision.reason === 'access.reason.optedOutClosed') &&
        unavailable === null &&
        offered.length > 0,
    });
  }
  // On a Buy Now course each material is listed once: what the member buys from the partner
  // store under 'Available to buy/acquire', the rest (owned, free, course fee) under 'Your
  // Materials' with its own button.
  const toBuy = buyNow ? materials.filter(isPartnerCandidate) : [];
  const candidates = toBuy.map(({ productId, title, productType }) => ({
    productId,
    title,
    productType,
  }));
  return {
    section,
    materials: materials.filter((material) => !toBuy.includes(material)),
    opting,
    partner: partnerOf(candidates),
    canViewAnalytics,
    checkBackOn: null,
    cart,
  };
}

/**
 * Start Reading / Acquire Code (spec 1 §4 Course fee): the material goes on the member's shelf
 * for the course, and courseware gets its access code from the pool, together. Only what the
 * entitlement rule opens through this section (issue 14): the course fee (not once opted out,
 * spec 1 §6), courtesy access or its instructors, and only for a material of that section.
 */
export async function acquireCourseMaterial(
  ctx: RequestContext,
  sectionId: number,
  productId: number,
): Promise<void> {
  const section = await memberSection(ctx, sectionId);
  const user = ctx.user!;
  const [material] = await ctx.db
    .select({ productType: products.productType })
    .from(sectionProducts)
    .innerJoin(products, eq(products.id, productId))
    .where(
      and(
        eq(sectionProducts.sectionId, section.id),
        or(
          eq(sectionProducts.productId, productId),
          eq(sectionProducts.additionalProductId, productId),
        ),
      ),
    )
    .limit(1);
  if (!material) throw new NotFound();
  const { decision } = await entitlementOf(ctx, productId, { sectionId: section.id });
  if (!decision.ok || decision.sectionId !== section.id) {
    throw decision.ok ? new Forbidden() : new AccessRefused(decision, productId);
  }
  const courseFee = decision.via === 'courseFee' || decision.via === 'cds';
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(ownerships)
      .values({
        userId: user.id,
        productId,
        // Courtesy access lasts the term and goes with an opt-out, as inclusive access does.
        source: courseFee ? 'course_fee' : 'inclusive_access',
        courseSectionId: section.id,
        startsAt: ctx.now,
        expiresAt: courseFee ? null : decision.until,
      })
      .onConflictDoNothing();
    if (material.productType === 'courseware') {
      await assignAccessCode(tx, { productId, userId: user.id, orderId: null, now: ctx.now });
    }
  });
  forgetAccounts([user.id]);
}
