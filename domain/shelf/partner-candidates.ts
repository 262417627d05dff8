import type { ShelfAction } from './shelf-button.ts';

/**
 * On a bookstore-partner student-choice course (spec 1 §4 Partner hand-off, spec 2 §4 'Buy
 * button only for the partner organisation with a student-choice course'), whether a material
 * is one the member still buys from the partner store: offered once, with Buy Now, under
 * 'Available to buy/acquire'. What they own, a free book (Add To My Shelf, spec 1 §4 Shelf
 * button priority 2) and what their course fee covers (Start Reading, Acquire Code) are not
 * bought there: those stay under 'Your Materials' with their own button.
 */
export function isPartnerCandidate(material: {
  owned: boolean;
  action: ShelfAction | null;
}): boolean {
  if (material.owned) return false;
  return (
    material.action === null || material.action === 'addToCart' || material.action === 'viewCart'
  );
}
