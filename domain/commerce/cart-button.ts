// The cart button of a product page (spec 1 §4 Cart button).
export type CartButton = 'add' | 'view' | 'update';

export function cartButton(input: {
  /** The offering of this product already in the cart, if any. */
  cartOfferingId: number | null;
  selectedOfferingId: number | null;
}): CartButton {
  if (input.cartOfferingId === null) return 'add';
  return input.cartOfferingId === input.selectedOfferingId ? 'view' : 'update';
}

/**
 * The cart button of the product side sheet, by the shelf button's priority (spec 1 §4): owned
 * items are read or accessed, free ones added to the shelf (neither through the cart); then a
 * cart offering gives View Cart, shown offerings give Add To Cart, otherwise there is none.
 * Offerings are shown only when the item is not owned, has offerings and can be bought here
 * (offeringPanel), as on the product page. After add to cart the button becomes View Cart
 * unless owned.
 */
export function sheetCartButton(input: {
  isOwned: boolean;
  free: boolean;
  inCart: boolean;
  offeringsShown: boolean;
}): 'add' | 'view' | null {
  if (input.isOwned || input.free) return null;
  if (input.inCart) return 'view';
  return input.offeringsShown ? 'add' : null;
}

/** A combo offering is digital and print at once (spec 1 §3 Cart item). */
export function cartItemKind(bookType: string): { isDigital: boolean; isPrint: boolean } {
  return {
    isDigital: bookType === 'digital' || bookType === 'combo',
    isPrint: bookType === 'print' || bookType === 'combo',
  };
}

/** What an offering costs the shopper: a combo's price includes its print copy (spec 1 §3). */
export function offeringPriceCents(offering: {
  type: string;
  priceCents: number;
  comboPriceCents: number | null;
}): number {
  return offering.type === 'combo'
    ? (offering.comboPriceCents ?? offering.priceCents)
    : offering.priceCents;
}
