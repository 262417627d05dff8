import { describe, expect, it } from 'vitest';
import {
  digitalAccessEndsAt,
  offeringGroup,
  offeringTerm,
  offeringTermMessage,
} from './offering-terms.ts';

const digital = (durationDays: number | null) => ({
  type: 'digital',
  durationDays,
  isRental: false,
});

describe('offering terms in plain words (issue 19, spec 1 §3 Offering)', () => {
  it('issue 19: a digital offering with a duration is a rental of that many days', () => {
    expect(offeringTerm(digital(180))).toEqual({ kind: 'rental', days: 180 });
    expect(offeringTermMessage(digital(365))).toEqual({ key: 'offering.term.rental', days: 365 });
  });
  it('issue 19: a digital offering without a duration is lifetime access', () => {
    expect(offeringTerm(digital(null))).toEqual({ kind: 'lifetime' });
    expect(offeringTermMessage(digital(null))).toEqual({ key: 'offering.term.lifetime' });
  });
  it('issue 19: print on demand and a physical copy are a print copy, shipped', () => {
    expect(offeringTerm({ type: 'print', durationDays: null, isRental: false })).toEqual({
      kind: 'print',
    });
    expect(offeringTerm({ type: 'physical', durationDays: null, isRental: false })).toEqual({
      kind: 'print',
    });
  });
  it('spec 1 §5: a physical rental is a print rental (due back after the add/drop date)', () => {
    expect(offeringTerm({ type: 'physical', durationDays: null, isRental: true })).toEqual({
      kind: 'printRental',
    });
  });
  it('issue 19: a physical product is shipped; a combo is the ebook and a posted copy', () => {
    expect(offeringTerm({ type: 'physical_product', durationDays: null, isRental: false })).toEqual(
      { kind: 'shipped' },
    );
    expect(offeringTermMessage({ type: 'combo', durationDays: null, isRental: false })).toEqual({
      key: 'offering.term.combo',
    });
    expect(offeringTermMessage({ type: 'combo', durationDays: 180, isRental: false })).toEqual({
      key: 'offering.term.comboRental',
      days: 180,
    });
  });
  it('issue 19: print is shown apart from digital', () => {
    expect(offeringGroup('digital')).toBe('digital');
    expect(offeringGroup('combo')).toBe('combo');
    for (const type of ['print', 'physical', 'physical_product']) {
      expect(offeringGroup(type)).toBe('print');
    }
  });
  it('issue 19: a 180-day rental bought today ends 180 days from now, as fulfilment counts it', () => {
    const now = new Date('2026-11-27T10:00:00Z');
    expect(digitalAccessEndsAt(digital(180), now)).toEqual(new Date('2027-05-26T10:00:00Z'));
    expect(digitalAccessEndsAt({ type: 'combo', durationDays: 365, isRental: false }, now)).toEqual(
      new Date('2027-11-27T10:00:00Z'),
    );
  });
  it('issue 19: lifetime access and print copies have no end date', () => {
    const now = new Date('2026-11-27T10:00:00Z');
    expect(digitalAccessEndsAt(digital(null), now)).toBeNull();
    expect(
      digitalAccessEndsAt({ type: 'print', durationDays: 180, isRental: false }, now),
    ).toBeNull();
    expect(
      digitalAccessEndsAt({ type: 'physical', durationDays: null, isRental: true }, now),
    ).toBeNull();
  });
});
