// What an offering is and gives its buyer, in plain words (issue 19, "Know what you are buying
// and what you bought"; issue 38, "Labels match the product"): an eBook rented for so many days,
// online access to courseware, lifetime access, a print copy or an item that is posted. One rule
// for the product page's offering options, the public section page, the cart line, the
// order-complete page, the order history, the receipt PDF and the order mail, read from the
// product's type (spec 1 §1: book, ebundle, courseware, collection, classroom,
// physical_product), the offering's type (spec 1 §3 Offering: digital, physical,
// physical_product, combo, print), its duration and whether it is rented.
import { accessEndsAt } from '#domain/commerce/fulfilment-rules.ts';

export type OfferingTermFacts = {
  /** The product's type (spec 1 §1): courseware is not an eBook, lab goggles are not print. */
  productType: string;
  /** The offering's type (spec 1 §3 Offering). */
  type: string;
  /** Digital access length; null means perpetual. */
  durationDays: number | null;
  isRental: boolean;
};

/** Digital (read on the shelf), print (posted), or both (a combo). */
export type OfferingGroup = 'digital' | 'print' | 'combo';

export type OfferingTerm =
  /** An eBook's digital access for a number of days: '180-day rental'. */
  | { kind: 'rental'; days: number }
  /** Courseware or a classroom opened online for a number of days: '365-day access'. */
  | { kind: 'access'; days: number }
  /** Digital access that does not end: 'Lifetime access'. */
  | { kind: 'lifetime' }
  /** A printed copy posted to the buyer (physical or print on demand): 'Print copy, shipped'. */
  | { kind: 'print' }
  /** A printed copy lent for the course: due back 7 days after the add/drop date (spec 1 §5). */
  | { kind: 'printRental' }
  /** Anything else that is posted (lab goggles, a calculator): 'Shipped to you'. */
  | { kind: 'shipped' }
  /** A combo: the ebook (lifetime, or for days) and a posted print copy. */
  | { kind: 'combo'; days: number | null };

/** The message that says an offering's term (`offering.term.<kind>`, a combo for days apart). */
export type OfferingTermMessage = {
  key: `offering.term.${OfferingTerm['kind'] | 'comboRental'}`;
  days?: number;
};

/** What the offering is, named for the product it sells: 'eBook', 'Online access', 'Item'. */
export type OfferingKind = 'ebook' | 'online' | 'print' | 'printOnDemand' | 'item' | 'combo';

/** Products read or opened online rather than as a book: their access is not an eBook rental. */
const OPENED_ONLINE = new Set(['courseware', 'classroom']);

/** Which side of the offering panel an offering sits on: digital apart from print. */
export function offeringGroup(type: string): OfferingGroup {
  if (type === 'digital') return 'digital';
  if (type === 'combo') return 'combo';
  return 'print';
}

/** What the offering is, for its product: the first word of its name everywhere it is shown. */
export function offeringKind(
  offering: Pick<OfferingTermFacts, 'productType' | 'type'>,
): OfferingKind {
  if (offering.productType === 'physical_product') return 'item';
  switch (offering.type) {
    case 'digital':
      return OPENED_ONLINE.has(offering.productType) ? 'online' : 'ebook';
    case 'combo':
      return 'combo';
    case 'print':
      return 'printOnDemand';
    case 'physical':
      return 'print';
    default:
      return 'item';
  }
}

/** What buying this offering gives, in the store's terms. */
export function offeringTerm(offering: OfferingTermFacts): OfferingTerm {
  const days = offering.durationDays && offering.durationDays > 0 ? offering.durationDays : null;
  if (offering.productType === 'physical_product') return { kind: 'shipped' };
  switch (offering.type) {
    case 'digital':
      if (!days) return { kind: 'lifetime' };
      return OPENED_ONLINE.has(offering.productType)
        ? { kind: 'access', days }
        : { kind: 'rental', days };
    case 'combo':
      return { kind: 'combo', days };
    case 'physical':
      return offering.isRental ? { kind: 'printRental' } : { kind: 'print' };
    case 'print':
      return { kind: 'print' };
    default:
      return offering.isRental ? { kind: 'printRental' } : { kind: 'shipped' };
  }
}

/** The message id and parameters that word an offering's term. */
export function offeringTermMessage(offering: OfferingTermFacts): OfferingTermMessage {
  const term = offeringTerm(offering);
  if (term.kind === 'rental' || term.kind === 'access') {
    return { key: `offering.term.${term.kind}`, days: term.days };
  }
  if (term.kind === 'combo' && term.days !== null) {
    return { key: 'offering.term.comboRental', days: term.days };
  }
  return { key: `offering.term.${term.kind}` };
}

/** An offering's name as every page, mail and receipt says it: its kind, then its term. */
export type OfferingName = {
  kind: `offering.kind.${OfferingKind}`;
  term: OfferingTermMessage;
};

/** The one name of an offering ('eBook' · '180-day rental', 'Online access' · '365-day access'). */
export function offeringName(offering: OfferingTermFacts): OfferingName {
  return { kind: `offering.kind.${offeringKind(offering)}`, term: offeringTermMessage(offering) };
}

/** A translate function (the page's `t`, the mail's and the PDF's `say`). */
export type Say = (id: string, params?: Record<string, string | number>) => string;

/** An offering's name in words, as every page, mail and receipt says it: 'eBook · 180-day rental'. */
export function offeringNameWords(say: Say, offering: OfferingTermFacts): string {
  const name = offeringName(offering);
  return say('offering.name', {
    kind: say(name.kind),
    term: say(name.term.key, name.term.days ? { days: name.term.days } : undefined),
  });
}

/** A price of nothing is said as "Free", never "$0.00", where an offering is offered. */
export function isFreeOffering(priceCents: number): boolean {
  return priceCents === 0;
}

/**
 * When the digital access of an offering bought at `boughtAt` ends, counted as the order's
 * fulfilment counts it (accessEndsAt); null when it does not end or nothing digital is bought.
 */
export function digitalAccessEndsAt(offering: OfferingTermFacts, boughtAt: Date): Date | null {
  const term = offeringTerm(offering);
  if (term.kind !== 'rental' && term.kind !== 'access' && term.kind !== 'combo') return null;
  return accessEndsAt(boughtAt, term.days);
}
