// What paying for an offering would give this shopper that they do not hold already (issue 19,
// money traps). Nobody pays for what they already have, nor for what cannot be delivered:
// - a digital offering (digital, or a combo's digital part) of a title the shopper may already
//   open for as long or longer — owned for life, rented until later, or through their course
//   (the one entitlement rule says so, issue 14) — is refused;
// - a digital offering of a book or ebundle without a file for the reader is refused (its
//   Read Now could only end in 'Sorry, that page doesn't exist.');
// - what still adds something stays buyable: the print copy of an owned e-book, a lifetime
//   copy of a rented one, a rental that outlasts the course's access, the course-fee print
//   choice.
// The cart, the merge of a guest cart, checkout, the wallet button, the API and the product
// page all ask here.
import type { Entitlement } from '#domain/access/entitlement.ts';
import { entryOf } from '#domain/access/entitlement.ts';
import { accessEndsAt, fulfilmentsOf } from './fulfilment-rules.ts';

export type PurchaseRefusalReason =
  /** Owned (or in an owned collection) with no end. */
  | 'purchase.refused.ownedForLife'
  /** Owned until {date}, and this offering would end then or sooner. */
  | 'purchase.refused.ownedUntil'
  /** Open through the course until {date}, and this offering would end then or sooner. */
  | 'purchase.refused.throughCourse'
  /** A book or ebundle with no file for the reader: nothing to deliver. */
  | 'purchase.refused.noFile';

export type PurchaseRefusal = {
  reason: PurchaseRefusalReason;
  /** {date}: YYYY-MM-DD, the day the access the shopper holds ends. */
  params: Record<string, string>;
};

export type PurchaseFacts = {
  offering: { type: string; durationDays: number | null };
  productType: string;
  /** Whether the product has a file the reader opens (book_files of type READER). */
  hasReaderFile: boolean;
  /** The entitlement rule's decision for this shopper and product now; null for a visitor. */
  held: Entitlement | null;
  now: Date;
};

const DAY_MS = 86_400_000;
const day = (date: Date) => date.toISOString().slice(0, 10);

/** Whether paying for this offering delivers something to read, launch or open. */
export function givesAccess(offeringType: string): boolean {
  return fulfilmentsOf(offeringType).includes('own');
}

/** Why this shopper may not pay for this offering, or null when it adds something. */
export function purchaseRefusal(facts: PurchaseFacts): PurchaseRefusal | null {
  // A print or physical copy is a thing of its own: always buyable here.
  if (!givesAccess(facts.offering.type)) return null;
  if (entryOf(facts.productType) === 'read' && !facts.hasReaderFile) {
    return { reason: 'purchase.refused.noFile', params: {} };
  }
  const held = facts.held;
  if (!held?.ok) return null;
  const gives = accessEndsAt(facts.now, facts.offering.durationDays);
  const owned = held.via === 'ownership' || held.via === 'collection';
  if (held.until === null) return { reason: 'purchase.refused.ownedForLife', params: {} };
  // A lifetime copy outlasts any rental or course; a finite one must end at least a day
  // later to add time: the same rental bought again an hour later adds an hour, not a day.
  if (gives !== null && gives.getTime() < held.until.getTime() + DAY_MS) {
    return {
      reason: owned ? 'purchase.refused.ownedUntil' : 'purchase.refused.throughCourse',
      // Access ends at the start of `until`; its last day is the day before for a course,
      // whose window ends at midnight after its last day.
      params: { date: day(owned ? held.until : new Date(held.until.getTime() - 1)) },
    };
  }
  return null;
}

/**
 * Whether an owner has nothing left to buy here (issue 19): the offerings panel hides, as for
 * any owner (spec 1 §4), only when no offering would add something (a print copy, a lifetime
 * copy of a rental keep it).
 */
export function nothingLeftToBuy(owned: boolean, buyableOfferings: number): boolean {
  return owned && buyableOfferings === 0;
}
