import { describe, expect, it } from 'vitest';
import { cartButton, cartItemKind } from './cart-button.ts';

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
