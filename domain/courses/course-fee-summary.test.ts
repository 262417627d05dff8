import { describe, expect, it } from 'vitest';
import { courseFeeSummary, type FeeMaterial, separatePriceCents } from './course-fee-summary.ts';

// Issue 19, "Opting blind": the fee, what it includes, the price of the same materials bought
// separately (each one's cheapest digital offering) and the saving (spec 1 §4 Opting, Course fee).

const digital = (priceCents: number) => ({ type: 'digital', priceCents, currencyCode: 'USD' });
const print = (priceCents: number) => ({ type: 'physical', priceCents, currencyCode: 'USD' });

const book: FeeMaterial = {
  productId: 1,
  title: 'Cell Biology',
  productType: 'book',
  sellable: true,
  offerings: [digital(6499), digital(4399), print(2999)],
};
const courseware: FeeMaterial = {
  productId: 2,
  title: 'Biology Online Courseware',
  productType: 'courseware',
  sellable: true,
  offerings: [digital(5999)],
};
const codeOnly: FeeMaterial = {
  productId: 3,
  title: 'Lab Manual',
  productType: 'book',
  sellable: true,
  offerings: [],
};

describe('the separate price of one material (issue 19)', () => {
  it('is its cheapest digital offering; print and combo offerings do not count', () => {
    expect(separatePriceCents(book)).toBe(4399);
    expect(
      separatePriceCents({ ...book, offerings: [print(999), { ...digital(1999), type: 'combo' }] }),
    ).toBeNull();
  });

  it('is none for a material without a digital offering, or one not sold (withdrawn, disabled)', () => {
    expect(separatePriceCents(codeOnly)).toBeNull();
    expect(separatePriceCents({ ...book, sellable: false })).toBeNull();
  });
});

describe('the course fee summary (issue 19, spec 1 §4 Course fee)', () => {
  it('lists what the fee includes, by title and type, in the section order, each once', () => {
    const summary = courseFeeSummary({ feeCents: 8900, materials: [book, courseware, book] });
    expect(summary.included).toEqual([
      { productId: 1, title: 'Cell Biology', productType: 'book', separateCents: 4399 },
      {
        productId: 2,
        title: 'Biology Online Courseware',
        productType: 'courseware',
        separateCents: 5999,
      },
    ]);
    expect(summary.feeCents).toBe(8900);
    expect(summary.currencyCode).toBe('USD');
  });

  it('issue 38: a physical copy is no part of the fee: not listed, not in the saving', () => {
    const goggles: FeeMaterial = {
      productId: 4,
      title: 'Lab Safety Goggles',
      productType: 'physical_product',
      sellable: true,
      offerings: [{ type: 'physical', priceCents: 1999, currencyCode: 'USD' }],
    };
    const printCopy: FeeMaterial = {
      productId: 5,
      title: 'Cell Biology (print)',
      productType: 'book',
      sellable: true,
      offerings: [print(3999)],
    };
    const summary = courseFeeSummary({
      feeCents: 5000,
      materials: [goggles, book, printCopy, courseware],
    });
    expect(summary.included.map((m) => m.productId)).toEqual([1, 2]);
    expect(summary.separateTotalCents).toBe(4399 + 5999);
    expect(summary.savingCents).toBe(4399 + 5999 - 5000);
    // A book with no offering at all is still the course's to give (a code-only title).
    expect(courseFeeSummary({ feeCents: 0, materials: [codeOnly] }).included).toHaveLength(1);
  });

  it('sums the separate prices, and the parts sum to the total', () => {
    const summary = courseFeeSummary({ feeCents: 8900, materials: [book, courseware, codeOnly] });
    expect(summary.separateTotalCents).toBe(4399 + 5999);
    expect(summary.separateTotalCents).toBe(
      summary.included.reduce((sum, m) => sum + (m.separateCents ?? 0), 0),
    );
    expect(summary.soldSeparatelyCount).toBe(2);
    // The lab manual is not sold separately: it is named, not priced.
    expect(summary.included.find((m) => m.productId === 3)?.separateCents).toBeNull();
  });

  it('the saving is the separate total less the fee, only when the fee costs less', () => {
    expect(courseFeeSummary({ feeCents: 8900, materials: [book, courseware] }).savingCents).toBe(
      4399 + 5999 - 8900,
    );
    expect(
      courseFeeSummary({ feeCents: 20_000, materials: [book, courseware] }).savingCents,
    ).toBeNull();
    expect(courseFeeSummary({ feeCents: 10_398, materials: [book, courseware] }).savingCents).toBe(
      null,
    );
  });

  it('without a fee on file, or with nothing sold separately, there is no saving to claim', () => {
    const noFee = courseFeeSummary({ feeCents: null, materials: [book] });
    expect(noFee.feeCents).toBeNull();
    expect(noFee.savingCents).toBeNull();
    expect(noFee.separateTotalCents).toBe(4399);
    const nothingSold = courseFeeSummary({ feeCents: 100, materials: [codeOnly] });
    expect(nothingSold.separateTotalCents).toBe(0);
    expect(nothingSold.soldSeparatelyCount).toBe(0);
    expect(nothingSold.savingCents).toBeNull();
  });

  it('a negative or fractional fee is not a fee (integer cents, never negative)', () => {
    expect(courseFeeSummary({ feeCents: -1, materials: [] }).feeCents).toBeNull();
    expect(courseFeeSummary({ feeCents: 10.5, materials: [] }).feeCents).toBeNull();
  });

  it('a section without materials includes nothing and costs nothing separately', () => {
    const summary = courseFeeSummary({ feeCents: 5000, materials: [] });
    expect(summary.included).toEqual([]);
    expect(summary.separateTotalCents).toBe(0);
    expect(summary.savingCents).toBeNull();
  });
});
