import type { UnavailabilityReason } from '#domain/catalog/availability.ts';
import type { PriceLabel } from '#domain/catalog/price-label.ts';

/** Whether a product may be added to a shelf for free (spec 1 §4 Shelf button, 'Free'). */
export function isFreeToAdd(product: {
  price: PriceLabel;
  unavailable: UnavailabilityReason | null;
}): boolean {
  return product.price.kind === 'readForFree' && product.unavailable === null;
}
