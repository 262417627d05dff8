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
