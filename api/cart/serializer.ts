import type { CartLine } from '#domain/commerce/cart.ts';

/** A cart line as a JSON:API `cart-item` resource (spec 1 §3 Cart item). */
export function cartItemResource(line: CartLine) {
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
    },
  };
}
