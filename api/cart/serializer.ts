import type { OfferingTermFacts } from '#domain/catalog/offering-terms.ts';
import type { CartLine } from '#domain/commerce/cart.ts';

/**
 * A cart line as a JSON:API `cart-item` resource (spec 1 §3 Cart item), with its offering's
 * type, duration and rental flag, which say what it gives (issue 19).
 */
export function cartItemResource(line: CartLine & { term: OfferingTermFacts | null }) {
  return {
    type: 'cart-item',
    id: String(line.id),
    attributes: {
      productId: line.productId,
      offeringId: line.offeringId,
      courseId: line.courseSectionId,
      isDigital: line.isDigital,
      isPrint: line.isPrint,
      title: line.title,
      language: line.languageCode,
      price: line.priceCents,
      currencyCode: line.currencyCode,
      productType: line.productType,
      offeringType: line.offeringType,
      durationDays: line.term?.durationDays ?? null,
      isRental: line.term?.isRental ?? false,
    },
  };
}
