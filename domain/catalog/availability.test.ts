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
