import { describe, expect, it } from 'vitest';
import { cartButton, cartItemKind, offeringPriceCents, sheetCartButton } from './cart-button.ts';

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

  describe('in the product side sheet (spec 1 §4 Shelf button priority)', () => {
    const item = { isOwned: false, free: false, inCart: false, offeringsShown: true };

    it('5: shown offerings give Add To Cart; 4: a cart offering gives View Cart', () => {
      expect(sheetCartButton(item)).toBe('add');
      expect(sheetCartButton({ ...item, inCart: true })).toBe('view');
    });

    it('after add to cart the button becomes View Cart unless owned (1: owned reads)', () => {
      expect(sheetCartButton({ ...item, inCart: true, isOwned: true })).toBeNull();
      expect(sheetCartButton({ ...item, isOwned: true })).toBeNull();
    });

    it('2: a free item goes to the shelf, not the cart', () => {
      expect(sheetCartButton({ ...item, free: true })).toBeNull();
      expect(sheetCartButton({ ...item, free: true, inCart: true })).toBeNull();
    });

    it('6: without shown offerings (none, unavailable, partner store) there is no button', () => {
      expect(sheetCartButton({ ...item, offeringsShown: false })).toBeNull();
    });
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
