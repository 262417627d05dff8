import { describe, expect, it } from 'vitest';
import { priceLabel } from './price-label.ts';

describe('price display (spec 1 §4)', () => {
  it('a book priced 0 reads Read for free', () => {
    expect(priceLabel({ productType: 'book', hasOffer: true, priceCents: 0 })).toEqual({
      kind: 'readForFree',
    });
  });
  it('an ebundle is shown as a book', () => {
    expect(priceLabel({ productType: 'ebundle', hasOffer: true, priceCents: null })).toEqual({
      kind: 'readForFree',
    });
  });
  it('other types with no price read Unavailable', () => {
    expect(priceLabel({ productType: 'courseware', hasOffer: true, priceCents: 0 })).toEqual({
      kind: 'unavailable',
    });
    expect(priceLabel({ productType: 'classroom', hasOffer: false, priceCents: null })).toEqual({
      kind: 'unavailable',
    });
  });
  it('a book with no offer shows Code Only', () => {
    expect(priceLabel({ productType: 'book', hasOffer: false, priceCents: null })).toEqual({
      kind: 'codeOnly',
    });
  });
  it('a priced offer shows its price in USD cents', () => {
    expect(priceLabel({ productType: 'book', hasOffer: true, priceCents: 4999 })).toEqual({
      kind: 'price',
      cents: 4999,
      currency: 'USD',
    });
  });
});

describe('price label of an imported product held from sale (issue 15)', () => {
  it('reads Unavailable, not Code Only or Read for free', () => {
    expect(
      priceLabel({ productType: 'book', hasOffer: false, priceCents: null, saleHold: 'unpriced' }),
    ).toEqual({ kind: 'unavailable' });
    expect(
      priceLabel({ productType: 'book', hasOffer: false, priceCents: null, saleHold: null }),
    ).toEqual({ kind: 'codeOnly' });
  });
});
