// What an offering gives its buyer, in plain words (issue 19, "Know what you are buying and
// what you bought"): a rental of so many days, lifetime access, or a copy that is posted. One
// rule for the product page's offering options, the cart line, the order-complete page and the
// order mail, read from the offering's type (spec 1 §3 Offering: digital, physical,
// physical_product, combo, print), its duration and whether it is rented.
import { accessEndsAt } from '#domain/commerce/fulfilment-rules.ts';

export type OfferingTermFacts = {
  type: string;
  /** Digital access length; null means perpetual. */
  durationDays: number | null;
  isRental: boolean;
};

/** Digital (read on the shelf), print (posted), or both (a combo). */
export type OfferingGroup = 'digital' | 'print' | 'combo';

export type OfferingTerm =
  /** Digital access for a number of days: '180-day rental'. */
  | { kind: 'rental'; days: number }
  /** Digital access that does not end: 'Lifetime access'. */
  | { kind: 'lifetime' }
  /** A printed copy posted to the buyer (physical or print on demand): 'Print copy, shipped'. */
  | { kind: 'print' }
  /** A printed copy lent for the course: due back 7 days after the add/drop date (spec 1 §5). */
  | { kind: 'printRental' }
  /** Anything else that is posted (physical_product): 'Shipped to you'. */
  | { kind: 'shipped' }
  /** A combo: the ebook (lifetime, or for days) and a posted print copy. */
  | { kind: 'combo'; days: number | null };

/** The message that says an offering's term (`offering.term.<kind>`, a combo for days apart). */
export type OfferingTermMessage = {
  key: `offering.term.${OfferingTerm['kind'] | 'comboRental'}`;
  days?: number;
};

/** Which side of the offering panel an offering sits on: digital apart from print. */
export function offeringGroup(type: string): OfferingGroup {
  if (type === 'digital') return 'digital';
  if (type === 'combo') return 'combo';
  return 'print';
}

/** What buying this offering gives, in the store's terms. */
export function offeringTerm(offering: OfferingTermFacts): OfferingTerm {
  const days = offering.durationDays && offering.durationDays > 0 ? offering.durationDays : null;
  switch (offering.type) {
    case 'digital':
      return days ? { kind: 'rental', days } : { kind: 'lifetime' };
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
  if (term.kind === 'rental') return { key: 'offering.term.rental', days: term.days };
  if (term.kind === 'combo' && term.days !== null) {
    return { key: 'offering.term.comboRental', days: term.days };
  }
  return { key: `offering.term.${term.kind}` };
}

/**
 * When the digital access of an offering bought at `boughtAt` ends, counted as the order's
 * fulfilment counts it (accessEndsAt); null when it does not end or nothing digital is bought.
 */
export function digitalAccessEndsAt(offering: OfferingTermFacts, boughtAt: Date): Date | null {
  const term = offeringTerm(offering);
  if (term.kind !== 'rental' && term.kind !== 'combo') return null;
  return accessEndsAt(boughtAt, term.days);
}
