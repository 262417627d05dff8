import type { AppLoadContext } from 'react-router';
import { classroomAccessFor } from '#domain/access/classroom.ts';
import { entitlementOf } from '#domain/access/entitlement-facts.ts';
import {
  defaultOffering,
  offeringPanel,
  offeringQuery,
} from '#domain/catalog/offering-selection.ts';
import type { ProductDetail } from '#domain/catalog/service.ts';
import { buyableOfferings } from '#domain/commerce/purchase-check.ts';
import { nothingLeftToBuy } from '#domain/commerce/purchase-value.ts';
import { ownsProduct } from '#domain/shelf/service.ts';

/**
 * What a product page shows of the visitor: the offerings that add something for them, what
 * they own, and what opens it for them (spec 2 §8: logged-in users get their access item
 * fetched on product pages). The loader asks here for every visitor, anonymous ones included;
 * a logged-in page composed from the stored anonymous one asks here alone (decision 043).
 */
export async function productPersonal(context: AppLoadContext, detail: ProductDetail, url: URL) {
  const { rc } = context;
  // Only offerings that add something to what this shopper holds (issue 19): none of a title
  // owned for life, a lifetime copy of a rented one, the print copy of an owned e-book.
  // A page shows the facts: read from what each process keeps per user and product, forgotten
  // the moment they change (holdings.ts); the forms check them again on the database.
  const [buying, owned, access, classroom] = await Promise.all([
    buyableOfferings(rc, detail, 'cache'),
    ownsProduct(rc, detail.id),
    // What opens it for this user, by the one rule (issue 14): ownership, or their course.
    rc.user ? entitlementOf(rc, detail.id, {}, 'cache').then((found) => found.decision) : null,
    // Access Classroom: into its section, or to the shelf's section-code prompt (issue 14).
    rc.user && detail.productType === 'classroom'
      ? classroomAccessFor(rc, detail.id, 'cache')
      : null,
  ]);
  // The cart is not known here (anonymous pages are shared): the form asks again with it.
  const selectedId = defaultOffering({
    offerings: buying.offerings,
    ...offeringQuery(url.searchParams),
    loggedIn: !!rc.user,
  });
  // Decided here, on the server: the rule's module reaches the database layer, which must stay
  // out of the page's JavaScript (issue 13's budget).
  const nothingToBuy = nothingLeftToBuy(owned, buying.offerings.length);
  const opens =
    access?.ok === true
      ? { entry: access.entry, via: access.via, sectionId: access.sectionId }
      : null;
  const panel = offeringPanel({
    productType: detail.productType,
    offeringCount: buying.offerings.length,
    // Owned with something still to buy (a print copy, a lifetime copy of a rental): the
    // panel offers just that (issue 19).
    owned: nothingToBuy,
    inCart: false,
    partnerOrg: rc.site.org?.isBookstorePartner ?? false,
    follettLabel: rc.site.isFollettLabel,
  });
  return {
    buyableOfferingIds: buying.offerings.map((offering) => offering.id),
    owned,
    nothingToBuy,
    withheld: buying.withheld,
    until: access?.ok && access.until ? access.until.toISOString().slice(0, 10) : null,
    opens,
    classroom,
    loggedIn: !!rc.user,
    // 'Reading Option' (spec 1 §4) when the course fee is what opens it, by the one rule: not
    // for the print version of a choice, which the fee does not cover (issue 19).
    courseFeeSectionId:
      opens && (opens.via === 'courseFee' || opens.via === 'cds') ? opens.sectionId : null,
    selectedId,
    panel: detail.unavailable ? { ...panel, visible: false } : panel,
  };
}

export type ProductPersonal = Awaited<ReturnType<typeof productPersonal>>;
