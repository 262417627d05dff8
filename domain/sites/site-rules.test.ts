import { describe, expect, it } from 'vitest';
import { isBrowseShown, isEcommerceShown, showNavbarCart } from './site-rules.ts';

describe('site rules', () => {
  it('spec 1 §5: ecommerce is shown without a white label or when the label allows it', () => {
    expect(isEcommerceShown({ whiteLabelId: null, allowEcommerce: false })).toBe(true);
    expect(isEcommerceShown({ whiteLabelId: 3, allowEcommerce: true })).toBe(true);
    expect(isEcommerceShown({ whiteLabelId: 3, allowEcommerce: false })).toBe(false);
  });

  it('spec 1 §2: the navbar cart is for the retailer org, hidden when buying is on the partner site', () => {
    expect(showNavbarCart(null)).toBe(false);
    expect(showNavbarCart({ isRetailer: false, buysOnPartnerSite: false })).toBe(false);
    expect(showNavbarCart({ isRetailer: true, buysOnPartnerSite: false })).toBe(true);
    expect(showNavbarCart({ isRetailer: true, buysOnPartnerSite: true })).toBe(false);
  });
});

describe('isBrowseShown (spec 2 §2 Browse)', () => {
  it('browse shows on the main site and goes to the root on a white-label site', () => {
    expect(isBrowseShown({ whiteLabelId: null })).toBe(true);
    expect(isBrowseShown({ whiteLabelId: 3 })).toBe(false);
  });
});
