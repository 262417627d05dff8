// spec 1 §4 Price display / spec 2 §8: a price of 0 or absent reads 'Read for free' for books
// and 'Unavailable' for other types; a book with no offer shows 'Code Only'. An ebundle is
// shown as a book (spec 1 §1).
export type PriceLabel =
  | { kind: 'price'; cents: number; currency: 'USD' }
  | { kind: 'readForFree' }
  | { kind: 'unavailable' }
  | { kind: 'codeOnly' };

export function priceLabel(input: {
  productType: string;
  hasOffer: boolean;
  priceCents: number | null;
  /** An imported product held from sale (issue 15) is 'Unavailable', not 'Code Only'. */
  saleHold?: string | null;
}): PriceLabel {
  if (input.saleHold) return { kind: 'unavailable' };
  const bookLike = input.productType === 'book' || input.productType === 'ebundle';
  if (bookLike && !input.hasOffer) return { kind: 'codeOnly' };
  if (input.priceCents === null || input.priceCents <= 0) {
    return bookLike ? { kind: 'readForFree' } : { kind: 'unavailable' };
  }
  return { kind: 'price', cents: input.priceCents, currency: 'USD' };
}

export const PRICE_LABEL_MESSAGE: Record<Exclude<PriceLabel['kind'], 'price'>, string> = {
  readForFree: 'price.readForFree',
  unavailable: 'price.unavailable',
  codeOnly: 'price.codeOnly',
};
