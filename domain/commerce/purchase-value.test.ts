import { describe, expect, it } from 'vitest';
import type { Entitlement } from '#domain/access/entitlement.ts';
import {
  givesAccess,
  nothingLeftToBuy,
  type PurchaseFacts,
  purchaseRefusal,
} from './purchase-value.ts';

// Issue 19, money traps: nobody pays for what they already have or cannot receive; what still
// adds something stays buyable (spec 1 §4 Course fee: the print choice; §3 userAvailability
// showPrint, printOptionAvailable).

const now = new Date('2026-03-10T15:00:00Z');
const days = (n: number) => new Date(now.getTime() + n * 86_400_000);

type Grant = Extract<Entitlement, { ok: true }>;

const grant = (over: Partial<Grant> = {}): Grant => ({
  ok: true,
  entry: 'read',
  via: 'ownership',
  until: null,
  sectionId: null,
  memberId: null,
  ...over,
});

const facts = (over: Partial<PurchaseFacts> = {}): PurchaseFacts => ({
  offering: { type: 'digital', durationDays: null },
  productType: 'book',
  hasReaderFile: true,
  held: null,
  now,
  ...over,
});

const lifetime = { type: 'digital', durationDays: null };
const rental180 = { type: 'digital', durationDays: 180 };

describe('purchaseRefusal: what the shopper already holds (issue 19)', () => {
  it('a title owned for life refuses every digital offering, a rental and a lifetime copy alike', () => {
    for (const offering of [lifetime, rental180, { type: 'combo', durationDays: null }]) {
      expect(purchaseRefusal(facts({ offering, held: grant() }))).toEqual({
        reason: 'purchase.refused.ownedForLife',
        params: {},
      });
    }
  });

  it('an owned collection that contains the title counts as owning it', () => {
    expect(purchaseRefusal(facts({ held: grant({ via: 'collection' }) }))?.reason).toBe(
      'purchase.refused.ownedForLife',
    );
  });

  it('the print copy of an owned e-book stays buyable', () => {
    for (const type of ['print', 'physical', 'physical_product']) {
      expect(
        purchaseRefusal(facts({ offering: { type, durationDays: null }, held: grant() })),
      ).toBe(null);
    }
  });

  it('a lifetime copy of a rented title stays buyable', () => {
    expect(purchaseRefusal(facts({ held: grant({ until: days(30) }) }))).toBe(null);
  });

  it('a rental ending no later than the one held is refused, with the day the held one ends', () => {
    expect(
      purchaseRefusal(facts({ offering: rental180, held: grant({ until: days(200) }) })),
    ).toEqual({ reason: 'purchase.refused.ownedUntil', params: { date: '2026-09-26' } });
    // Ending the same instant adds nothing either.
    expect(
      purchaseRefusal(facts({ offering: rental180, held: grant({ until: days(180) }) }))?.reason,
    ).toBe('purchase.refused.ownedUntil');
  });

  it('a title held through an owned collection is owned: refused as owned, until its own day', () => {
    expect(
      purchaseRefusal(
        facts({ offering: rental180, held: grant({ via: 'collection', until: days(200) }) }),
      ),
    ).toEqual({ reason: 'purchase.refused.ownedUntil', params: { date: '2026-09-26' } });
  });

  it('a rental that ends at least a day later than the one held adds time, and is buyable', () => {
    expect(purchaseRefusal(facts({ offering: rental180, held: grant({ until: days(179) }) }))).toBe(
      null,
    );
  });

  it('the same rental bought again soon after adds less than a day: refused (found by the walk)', () => {
    // Held until a year from an hour ago; the same 365-day rental now would end an hour later.
    const heldUntil = new Date(now.getTime() + 365 * 86_400_000 - 3_600_000);
    expect(
      purchaseRefusal(
        facts({
          offering: { type: 'digital', durationDays: 365 },
          held: grant({ until: heldUntil }),
        }),
      )?.reason,
    ).toBe('purchase.refused.ownedUntil');
  });

  it('access through the course refuses a rental that ends within it, naming its last day', () => {
    const course = grant({
      via: 'courseFee',
      until: new Date('2026-09-30T00:00:00Z'),
      sectionId: 3,
    });
    expect(purchaseRefusal(facts({ offering: rental180, held: course }))).toEqual({
      reason: 'purchase.refused.throughCourse',
      params: { date: '2026-09-29' },
    });
    for (const via of ['courtesy', 'cds', 'instructor'] as const) {
      expect(
        purchaseRefusal(facts({ offering: rental180, held: { ...course, via } }))?.reason,
      ).toBe('purchase.refused.throughCourse');
    }
  });

  it('a copy of one’s own outlasting the course stays buyable (a lifetime one, a longer rental)', () => {
    const course = grant({ via: 'courtesy', until: days(60), sectionId: 3 });
    expect(purchaseRefusal(facts({ offering: lifetime, held: course }))).toBe(null);
    expect(purchaseRefusal(facts({ offering: rental180, held: course }))).toBe(null);
  });

  it('a refusal, a visitor or an ended rental holds nothing: the offering is buyable', () => {
    const refused: Entitlement = {
      ok: false,
      reason: 'reading.error.expired',
      params: { date: '2026-01-01' },
      wayBack: { kind: 'buy' },
    };
    expect(purchaseRefusal(facts({ held: refused }))).toBe(null);
    expect(purchaseRefusal(facts({ held: null }))).toBe(null);
  });
});

describe('purchaseRefusal: what cannot be delivered (issue 19)', () => {
  it('a book or ebundle without a reader file is not sold digitally', () => {
    for (const productType of ['book', 'ebundle']) {
      for (const offering of [lifetime, rental180, { type: 'combo', durationDays: null }]) {
        expect(purchaseRefusal(facts({ productType, offering, hasReaderFile: false }))).toEqual({
          reason: 'purchase.refused.noFile',
          params: {},
        });
      }
    }
  });

  it('its print copy still sells, and courseware or a classroom needs no reader file', () => {
    expect(
      purchaseRefusal(
        facts({ offering: { type: 'print', durationDays: null }, hasReaderFile: false }),
      ),
    ).toBe(null);
    for (const productType of ['courseware', 'classroom', 'collection']) {
      expect(purchaseRefusal(facts({ productType, hasReaderFile: false }))).toBe(null);
    }
  });
});

describe('givesAccess', () => {
  it('digital and combo offerings give access; print and physical ones do not', () => {
    expect(givesAccess('digital')).toBe(true);
    expect(givesAccess('combo')).toBe(true);
    expect(givesAccess('print')).toBe(false);
    expect(givesAccess('physical')).toBe(false);
  });
});

describe('nothingLeftToBuy (issue 19; spec 1 §4 the select hides when owned)', () => {
  it('an owner keeps the panel while an offering adds something; a visitor always does', () => {
    expect(nothingLeftToBuy(true, 0)).toBe(true);
    expect(nothingLeftToBuy(true, 1)).toBe(false);
    expect(nothingLeftToBuy(false, 0)).toBe(false);
  });
});
