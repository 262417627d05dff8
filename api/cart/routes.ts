import { cartLines, cartOwnerOf, subtotalCents } from '#domain/commerce/cart.ts';
import type { WebContext } from '#server/load-context.ts';
import { jsonApi } from '../errors.ts';

/** GET /api/cart: the shopper's cart items with product and offering, and the subtotal. */
export async function getCart(context: WebContext): Promise<Response> {
  const owner = cartOwnerOf(context.rc.user, context.anonymousKey);
  const lines = owner ? await cartLines(context.rc.db, owner) : [];
  return jsonApi({
    data: lines.map((line) => ({
      type: 'cart-item',
      id: String(line.id),
      attributes: {
        productId: line.productId,
        offeringId: line.offeringId,
        courseId: line.courseSectionId,
        isDigital: line.isDigital,
        isPrint: line.isPrint,
        title: line.title,
        price: line.priceCents,
        currencyCode: line.currencyCode,
      },
    })),
    meta: { subtotal: subtotalCents(lines), currencyCode: 'USD' },
  });
}
