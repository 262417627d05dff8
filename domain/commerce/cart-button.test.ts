import { describe, expect, it } from 'vitest';
import { cartButton, cartItemKind, offeringPriceCents } from './cart-button.ts';

describe('cart button (spec 1 §4)', () => {
  it('reads Add To Cart, View Cart for the same offering, Update Cart for another', () => {
    expect(cartButton({ cartOfferingId: null, selectedOfferingId: 3 })).toBe('add');
    expect(cartButton({ cartOfferingId: 3, selectedOfferingId: 3 })).toBe('view');
    expect(cartButton({ cartOfferingId: 3, selectedOfferingId: 4 })).toBe('update');
  });

  it('a combo sets both isDigital and isPrint (spec 1 §3 Cart item)', () => {
    expect(cartItemKind('combo')).toEqual({ isDigital: true, isPrint: true });
    expect(cartItemKind('digital')).toEqual({ isDigital: true, isPrint: false });
    expect(cartItemKind('print')).toEqual({ isDigital: false, isPrint: true });
  });
});

describe('offering price (spec 1 §3 Offering: price, comboPrice)', () => {
  it('a combo costs its combo price; anything else its price', () => {
    expect(offeringPriceCents({ type: 'combo', priceCents: 3000, comboPriceCents: 4500 })).toBe(
      4500,
    );
    expect(offeringPriceCents({ type: 'combo', priceCents: 3000, comboPriceCents: null })).toBe(
      3000,
    );
    expect(offeringPriceCents({ type: 'digital', priceCents: 3000, comboPriceCents: 4500 })).toBe(
      3000,
    );
  });
});
