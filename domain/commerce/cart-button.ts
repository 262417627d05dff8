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
 * The cart button of the product side sheet (spec 1 §4 Shelf button 4-6): View Cart when the
 * item is in the cart, else Add To Cart when it has offerings, else none. Owned items have
 * none, also right after an add ('After add to cart the button becomes View Cart unless
 * owned'); nothing is offered while the product is unavailable (spec 1 §4 Availability).
 */
export function sheetCartButton(input: {
  isOwned: boolean;
  inCart: boolean;
  offeringCount: number;
  unavailable: boolean;
}): 'add' | 'view' | null {
  if (input.isOwned) return null;
  if (input.inCart) return 'view';
  return input.offeringCount > 0 && !input.unavailable ? 'add' : null;
}

/** A combo offering is digital and print at once (spec 1 §3 Cart item). */
export function cartItemKind(bookType: string): { isDigital: boolean; isPrint: boolean } {
  return {
    isDigital: bookType === 'digital' || bookType === 'combo',
    isPrint: bookType === 'print' || bookType === 'combo',
  };
}
