// The button of a material on My Shelf and the course section page (spec 1 §4 Shelf button
// priority, Course fee; spec 2 §9 Button labels).
import { isBeforeDeadline } from '#domain/courses/opting.ts';

export type ShelfAction =
  | 'read'
  | 'accessCourseware'
  | 'accessClassroom'
  | 'addToShelf'
  | 'addToCart'
  | 'viewCart'
  | 'startReading'
  | 'acquireCode'
  /** An owned collection opens its page, where each item reads (issue 14). */
  | 'openCollection';

export type ShelfMaterial = {
  productType: string;
  owned: boolean;
  /** Free to add (spec 1 §4 Free book). */
  free: boolean;
  hasOfferings: boolean;
  inCart: boolean;
  /** A physical copy rather than digital access. */
  physical: boolean;
  /** The member's course fee covers this course's materials. */
  courseFee: boolean;
  /**
   * The entitlement rule opens it through the section without a course fee: courtesy access,
   * or as its instructor (domain/access/entitlement.ts, issue 14).
   */
  throughCourse: boolean;
};

/** An owned material reads or opens access, by type (spec 1 §4 priority 1). */
export function ownedAction(productType: string): ShelfAction | null {
  if (productType === 'courseware') return 'accessCourseware';
  if (productType === 'classroom') return 'accessClassroom';
  if (productType === 'book' || productType === 'ebundle') return 'read';
  if (productType === 'collection') return 'openCollection';
  return null;
}

/** The one button a material shows, or null when it shows none. */
export function shelfButton(material: ShelfMaterial): ShelfAction | null {
  // 1. Owned leads to reading or access.
  if (material.owned) return ownedAction(material.productType);
  // 2. Free leads to Add To My Shelf.
  if (material.free) return 'addToShelf';
  // Course fee: digital gives Start Reading (or Acquire Code for courseware); a physical copy
  // still goes through the cart.
  if (material.courseFee && !material.physical) {
    return material.productType === 'courseware' ? 'acquireCode' : 'startReading';
  }
  // Courtesy access and instructors: the material opens as if owned (spec 1 §5, issue 14).
  if (material.throughCourse && !material.physical) return ownedAction(material.productType);
  // 3. An eligible opted-out student with offerings may buy: whether they may is whether the
  // section shows them offerings (course-section.ts, ecommerceChannelOpen), so it reads as
  // 4. a cart offering gives View Cart; 5. offerings give Add To Cart; 6. else hidden.
  if (material.inCart) return 'viewCart';
  if (material.hasOfferings) return 'addToCart';
  return null;
}

/**
 * A physical/digital choice under a course fee after the add/drop date keeps only its digital
 * offerings (spec 1 §4 Course fee).
 */
export function offeringsAfterAddDrop<T extends { type: string }>(
  offerings: readonly T[],
  input: { choice: boolean; courseFee: boolean; addDropDate: Date; now: Date },
): T[] {
  // The add/drop date is the opting deadline: one boundary for both (issue 13, rules twice).
  if (!input.choice || !input.courseFee || isBeforeDeadline(input.addDropDate, input.now)) {
    return [...offerings];
  }
  return offerings.filter((offering) => offering.type === 'digital');
}
