import { describe, expect, it } from 'vitest';
import { translate } from '#i18n/translate.ts';
import {
  digitalAccessEndsAt,
  isFreeOffering,
  offeringGroup,
  offeringKind,
  offeringName,
  offeringNameWords,
  offeringTerm,
  offeringTermMessage,
} from './offering-terms.ts';

const digital = (durationDays: number | null) => ({
  productType: 'book',
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
    expect(
      offeringTerm({ productType: 'book', type: 'print', durationDays: null, isRental: false }),
    ).toEqual({
      kind: 'print',
    });
    expect(
      offeringTerm({ productType: 'book', type: 'physical', durationDays: null, isRental: false }),
    ).toEqual({
      kind: 'print',
    });
  });
  it('spec 1 §5: a physical rental is a print rental (due back after the add/drop date)', () => {
    expect(
      offeringTerm({ productType: 'book', type: 'physical', durationDays: null, isRental: true }),
    ).toEqual({
      kind: 'printRental',
    });
  });
  it('issue 19: a physical product is shipped; a combo is the ebook and a posted copy', () => {
    expect(
      offeringTerm({
        productType: 'book',
        type: 'physical_product',
        durationDays: null,
        isRental: false,
      }),
    ).toEqual({ kind: 'shipped' });
    expect(
      offeringTermMessage({
        productType: 'book',
        type: 'combo',
        durationDays: null,
        isRental: false,
      }),
    ).toEqual({
      key: 'offering.term.combo',
    });
    expect(
      offeringTermMessage({
        productType: 'book',
        type: 'combo',
        durationDays: 180,
        isRental: false,
      }),
    ).toEqual({
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
    expect(
      digitalAccessEndsAt(
        { productType: 'book', type: 'combo', durationDays: 365, isRental: false },
        now,
      ),
    ).toEqual(new Date('2027-11-27T10:00:00Z'));
  });
  it('issue 19: lifetime access and print copies have no end date', () => {
    const now = new Date('2026-11-27T10:00:00Z');
    expect(digitalAccessEndsAt(digital(null), now)).toBeNull();
    expect(
      digitalAccessEndsAt(
        { productType: 'book', type: 'print', durationDays: 180, isRental: false },
        now,
      ),
    ).toBeNull();
    expect(
      digitalAccessEndsAt(
        { productType: 'book', type: 'physical', durationDays: null, isRental: true },
        now,
      ),
    ).toBeNull();
  });
});

describe('one name for an offering, for the product it sells (issue 38, "Labels match the product")', () => {
  const en = (id: string, params?: Record<string, string | number>) => translate('en', id, params);
  const fr = (id: string, params?: Record<string, string | number>) =>
    translate('fr-CA', id, params);
  const offering = (productType: string, type: string, durationDays: number | null = null) => ({
    productType,
    type,
    durationDays,
    isRental: false,
  });

  it('an eBook rental is an eBook, courseware opened for a year is online access, not an eBook rental', () => {
    expect(offeringNameWords(en, offering('book', 'digital', 180))).toBe('eBook · 180-day rental');
    expect(offeringNameWords(en, offering('courseware', 'digital', 365))).toBe(
      'Online access · 365-day access',
    );
    expect(offeringNameWords(fr, offering('courseware', 'digital', 365))).toBe(
      'Accès en ligne · Accès de 365 jours',
    );
    expect(offeringTerm(offering('classroom', 'digital', 120))).toEqual({
      kind: 'access',
      days: 120,
    });
    expect(offeringNameWords(en, offering('courseware', 'digital'))).toBe(
      'Online access · Lifetime access',
    );
  });
  it('spec 1 §1: an ebundle and a collection are read as books', () => {
    expect(offeringKind(offering('ebundle', 'digital'))).toBe('ebook');
    expect(offeringKind(offering('collection', 'digital'))).toBe('ebook');
  });
  it('physical goods are an item, shipped, whatever the offering type says; a book printed is print', () => {
    for (const type of ['physical', 'physical_product', 'print']) {
      expect(offeringNameWords(en, offering('physical_product', type))).toBe(
        'Item · Shipped to you',
      );
    }
    expect(offeringTerm({ ...offering('physical_product', 'physical'), isRental: true })).toEqual({
      kind: 'shipped',
    });
    expect(offeringNameWords(en, offering('book', 'physical'))).toBe('Print · Shipped to you');
    expect(offeringNameWords(fr, offering('book', 'physical'))).toBe('Imprimé · Expédié chez vous');
    expect(offeringName(offering('book', 'print')).kind).toBe('offering.kind.printOnDemand');
    expect(offeringName(offering('book', 'combo', 180))).toEqual({
      kind: 'offering.kind.combo',
      term: { key: 'offering.term.comboRental', days: 180 },
    });
    expect(offeringKind(offering('book', 'something-new'))).toBe('item');
  });
  it('courseware opened for days ends as a rental does', () => {
    const now = new Date('2026-11-27T10:00:00Z');
    expect(digitalAccessEndsAt(offering('courseware', 'digital', 365), now)).toEqual(
      new Date('2027-11-27T10:00:00Z'),
    );
  });
  it('a price of nothing is free; a cent is not', () => {
    expect(isFreeOffering(0)).toBe(true);
    expect(isFreeOffering(1)).toBe(false);
  });
});
