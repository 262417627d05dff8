import { describe, expect, it } from 'vitest';
import { type AvailabilityFacts, unavailabilityReason } from './availability.ts';

const sellable: AvailabilityFacts = {
  status: 'active',
  isDisabled: false,
  blockedCountries: [],
  blockedHosts: [],
  activeOfferings: 2,
  country: 'US',
  host: 'localhost',
};
const facts = (o: Partial<AvailabilityFacts>) => ({ ...sellable, ...o });

describe('availability (spec 1 §4)', () => {
  it('an active product with offerings can be bought', () => {
    expect(unavailabilityReason(sellable)).toBeNull();
  });
  it('withdrawn or deleted: removed from sale', () => {
    expect(unavailabilityReason(facts({ status: 'withdrawn' }))).toBe('removed');
    expect(unavailabilityReason(facts({ status: 'deleted' }))).toBe('removed');
  });
  it('deactivated: the default reason', () => {
    expect(unavailabilityReason(facts({ status: 'deactivated' }))).toBe('default');
  });
  it('disabled, territory, market and offering, in that order', () => {
    expect(unavailabilityReason(facts({ isDisabled: true, blockedCountries: ['US'] }))).toBe(
      'disabled',
    );
    expect(unavailabilityReason(facts({ blockedCountries: ['CA'], country: 'ca' }))).toBe(
      'territory',
    );
    expect(
      unavailabilityReason(
        facts({ blockedHosts: ['partner.localhost'], host: 'partner.localhost' }),
      ),
    ).toBe('market');
    expect(unavailabilityReason(facts({ activeOfferings: 0 }))).toBe('offering');
  });

  it('issue 19: offerings none of which can be delivered (an e-book without its file)', () => {
    expect(unavailabilityReason(facts({ activeOfferings: 2, deliverableOfferings: 0 }))).toBe(
      'file',
    );
    expect(unavailabilityReason(facts({ activeOfferings: 2, deliverableOfferings: 1 }))).toBe(null);
    // No offering at all says so first.
    expect(unavailabilityReason(facts({ activeOfferings: 0, deliverableOfferings: 0 }))).toBe(
      'offering',
    );
  });
});

// Issue 15: an imported product is shown but not sold before its publication or embargo date,
// or when the feed gives no US price in USD (the spec's availability texts say why).
describe('availability of imported products (issue 15)', () => {
  const now = new Date('2026-11-28T12:00:00Z');
  it('a future sale date reads as not currently available, until that day', () => {
    const later = new Date('2026-12-01T00:00:00Z');
    expect(unavailabilityReason(facts({ saleStartsAt: later, now }))).toBe('disabled');
    expect(unavailabilityReason(facts({ saleStartsAt: later, now: later }))).toBeNull();
    expect(unavailabilityReason(facts({ saleStartsAt: new Date('2026-11-01'), now }))).toBeNull();
  });
  it('a product held from sale has no offerings available, whatever it has on file', () => {
    expect(unavailabilityReason(facts({ saleHold: 'no-us-price' }))).toBe('offering');
    expect(unavailabilityReason(facts({ saleHold: 'unpriced', activeOfferings: 3 }))).toBe(
      'offering',
    );
    expect(unavailabilityReason(facts({ saleHold: null }))).toBeNull();
  });
  it('removal and territory still come first', () => {
    expect(unavailabilityReason(facts({ status: 'withdrawn', saleHold: 'unpriced' }))).toBe(
      'removed',
    );
    expect(unavailabilityReason(facts({ blockedCountries: ['US'], saleHold: 'unpriced' }))).toBe(
      'territory',
    );
  });
});
