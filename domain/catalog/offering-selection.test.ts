import { describe, expect, it } from 'vitest';
import {
  defaultOffering,
  offeringPanel,
  offeringQuery,
  sortOfferings,
} from './offering-selection.ts';

const digital180 = { id: 1, type: 'digital', priceCents: 3999 };
const digital365 = { id: 2, type: 'digital', priceCents: 2999 };
const physical = { id: 3, type: 'physical', priceCents: 8999 };
const combo = { id: 4, type: 'combo', priceCents: 9999 };
const all = [combo, physical, digital180, digital365];

describe('offering selection default (spec 1 §4)', () => {
  it('offerings are sorted by price ascending', () => {
    expect(sortOfferings(all).map((o) => o.id)).toEqual([2, 1, 3, 4]);
  });
  it('1. the offering already in the cart wins over the query offering', () => {
    expect(
      defaultOffering({ offerings: all, cartOfferingId: 3, queryOfferingId: 4, loggedIn: true }),
    ).toBe(3);
  });
  it('2. the one named in the query, if logged in', () => {
    expect(defaultOffering({ offerings: all, queryOfferingId: 4, loggedIn: true })).toBe(4);
    expect(defaultOffering({ offerings: all, queryOfferingId: 4, loggedIn: false })).toBe(2);
  });
  it('2. with only an offeringType in the query, the cheapest of that type', () => {
    expect(defaultOffering({ offerings: all, queryOfferingType: 'combo', loggedIn: true })).toBe(4);
    expect(defaultOffering({ offerings: all, queryOfferingType: 'combo', loggedIn: false })).toBe(
      2,
    );
  });
  it('3. the cheapest digital', () => {
    expect(defaultOffering({ offerings: all, loggedIn: true })).toBe(2);
  });
  it('4. physical, then 5. combo', () => {
    expect(defaultOffering({ offerings: [combo, physical], loggedIn: false })).toBe(3);
    expect(defaultOffering({ offerings: [combo], loggedIn: false })).toBe(4);
  });
  it('the address preselects by offeringId or offeringType (spec 1 §2), read once for page and form', () => {
    expect(offeringQuery(new URLSearchParams('offeringId=4'))).toEqual({
      queryOfferingId: 4,
      queryOfferingType: null,
    });
    expect(offeringQuery(new URLSearchParams('offeringType=combo'))).toEqual({
      queryOfferingId: null,
      queryOfferingType: 'combo',
    });
    expect(offeringQuery(new URLSearchParams('offeringId=4x&offeringType='))).toEqual({
      queryOfferingId: null,
      queryOfferingType: '',
    });
    const fromAddress = offeringQuery(new URLSearchParams('offeringId=4'));
    expect(defaultOffering({ offerings: all, ...fromAddress, loggedIn: true })).toBe(4);
    expect(
      defaultOffering({ offerings: all, cartOfferingId: 3, ...fromAddress, loggedIn: true }),
    ).toBe(3);
  });
  it('an id that is not among the offerings is ignored', () => {
    expect(
      defaultOffering({ offerings: all, cartOfferingId: 99, queryOfferingId: 98, loggedIn: true }),
    ).toBe(2);
  });
  it('no offerings, no selection', () => {
    expect(defaultOffering({ offerings: [], loggedIn: true })).toBeNull();
  });
});

describe('offerings select (spec 1 §4)', () => {
  const base = {
    productType: 'book',
    offeringCount: 2,
    owned: false,
    inCart: false,
    partnerOrg: false,
    follettLabel: false,
  };
  it('shows when not owned and offerings exist, labelled DURATION', () => {
    expect(offeringPanel(base)).toEqual({
      visible: true,
      labelKey: 'offering.duration',
      disabled: false,
    });
  });
  it('is hidden when owned, for the partner organisation, on a Follett-type label, or without offerings', () => {
    expect(offeringPanel({ ...base, owned: true }).visible).toBe(false);
    expect(offeringPanel({ ...base, partnerOrg: true }).visible).toBe(false);
    expect(offeringPanel({ ...base, follettLabel: true }).visible).toBe(false);
    expect(offeringPanel({ ...base, offeringCount: 0 }).visible).toBe(false);
  });
  it("physical items read 'PURCHASE OPTIONS'; selection is disabled once in the cart", () => {
    expect(offeringPanel({ ...base, productType: 'physical_product', inCart: true })).toMatchObject(
      {
        labelKey: 'offering.purchaseOptions',
        disabled: true,
      },
    );
  });
});
