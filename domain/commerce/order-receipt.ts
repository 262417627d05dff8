import { fulfilmentsOf } from './fulfilment-rules.ts';

// What the order-complete page and the order mail say happens next (issue 19): digital items
// are on the shelf; print-on-demand copies are printed and ship in 7 - 10 business days (spec
// 2 §9); physical copies are posted. An order without anything digital never says "Digital
// items are on your shelf now".

export type OrderNextSteps = {
  /** Something is owned at once and read on the shelf. */
  onShelf: boolean;
  /** Something is printed on demand (7 - 10 business days). */
  printed: boolean;
  /** Something is posted from stock. */
  posted: boolean;
};

export function orderNextSteps(offeringTypes: readonly string[]): OrderNextSteps {
  const all = offeringTypes.flatMap((type) => fulfilmentsOf(type));
  return {
    onShelf: all.includes('own'),
    printed: all.includes('print'),
    posted: all.includes('ship'),
  };
}
