import { describe, expect, it } from 'vitest';
import {
  accessEndsAt,
  addBusinessDays,
  fulfilmentsOf,
  needsShipping,
  platformFeeCents,
  printDeliveryWindow,
  rentalDueAt,
  shippingCents,
} from './fulfilment-rules.ts';

describe('fulfilment (issue 4; spec 1 §3 Offering, spec 2 §9)', () => {
  it('owns digital, ships physical, prints print-on-demand, and owns and ships a combo', () => {
    expect(fulfilmentsOf('digital')).toEqual(['own']);
    expect(fulfilmentsOf('physical')).toEqual(['ship']);
    expect(fulfilmentsOf('physical_product')).toEqual(['ship']);
    expect(fulfilmentsOf('print')).toEqual(['print']);
    expect(fulfilmentsOf('combo')).toEqual(['own', 'ship']);
    expect(needsShipping(['digital'])).toBe(false);
    expect(needsShipping(['digital', 'print'])).toBe(true);
  });

  // Issue 37 (a surviving mutant): a combo is owned AND posted, so it needs an address too.
  it('anything posted needs a shipping address, a combo included; nothing posted needs none', () => {
    expect(needsShipping(['combo'])).toBe(true);
    expect(needsShipping(['digital', 'combo'])).toBe(true);
    expect(needsShipping(['physical'])).toBe(true);
    expect(needsShipping(['print'])).toBe(true);
    expect(needsShipping(['digital', 'digital'])).toBe(false);
    expect(needsShipping([])).toBe(false);
  });

  it('a rental is due 7 days after the add/drop date', () => {
    expect(rentalDueAt(new Date('2026-09-10T03:59:00Z')).toISOString()).toBe(
      '2026-09-17T03:59:00.000Z',
    );
  });

  it('print on demand arrives in 7 - 10 business days, weekends skipped', () => {
    // Friday 2026-11-20: 7 business days is Tuesday 12-01, 10 is Friday 12-04.
    const window = printDeliveryWindow(new Date('2026-11-20T15:00:00Z'));
    expect(window.earliest.toISOString().slice(0, 10)).toBe('2026-12-01');
    expect(window.latest.toISOString().slice(0, 10)).toBe('2026-12-04');
    expect(addBusinessDays(new Date('2026-11-21T00:00:00Z'), 1).getUTCDay()).toBe(1);
  });

  it('access lasts its duration, or for good without one', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    expect(accessEndsAt(start, 180)?.toISOString()).toBe('2026-06-30T00:00:00.000Z');
    expect(accessEndsAt(start, null)).toBeNull();
  });

  it('the platform fee is charged once, when enabled and the subtotal reaches the threshold', () => {
    const fee = { enabled: true, feeCents: 199, thresholdCents: 5000 };
    expect(platformFeeCents(fee, 5000)).toBe(199);
    expect(platformFeeCents(fee, 12_345)).toBe(199);
    expect(platformFeeCents(fee, 4999)).toBe(0);
    expect(platformFeeCents({ ...fee, enabled: false }, 9000)).toBe(0);
    expect(platformFeeCents(null, 9000)).toBe(0);
    expect(platformFeeCents({ ...fee, thresholdCents: 0 }, 0)).toBe(0);
    // A fee set below zero by mistake never pays the shopper back.
    expect(platformFeeCents({ ...fee, feeCents: -199 }, 9000)).toBe(0);
    expect(platformFeeCents({ ...fee, feeCents: 0 }, 9000)).toBe(0);
  });
});

describe('shipping (issue 38, "Shipping, tax and fees said honestly")', () => {
  it('an order that posts something pays the configured rate once; 0 is free shipping', () => {
    expect(shippingCents(['physical', 'print', 'digital'], 599)).toBe(599);
    expect(shippingCents(['combo'], 599)).toBe(599);
    expect(shippingCents(['physical'], 0)).toBe(0);
  });
  it('nothing posted pays no shipping and has no shipping line', () => {
    expect(shippingCents(['digital'], 599)).toBeNull();
    expect(shippingCents([], 599)).toBeNull();
  });
  it('a rate that is no amount of cents charges nothing', () => {
    expect(shippingCents(['physical'], -100)).toBe(0);
    expect(shippingCents(['physical'], 5.5)).toBe(0);
    expect(shippingCents(['physical'], 1)).toBe(1);
  });
});
