import { describe, expect, it } from 'vitest';
import { courseFeeCovers } from './fee-covers.ts';

// Issue 38, "What the course fee covers is one list"; spec 1 §4 Course fee: digital gives Start
// Reading (the fee opens it), physical gives Add To Cart (the member buys it).
describe('what a course fee covers', () => {
  it('every digital material the course lists: a book, an ebundle, courseware, a classroom, a collection', () => {
    for (const productType of ['book', 'ebundle', 'courseware', 'classroom', 'collection']) {
      expect(courseFeeCovers({ productType, offeringTypes: ['digital'] })).toBe(true);
    }
    expect(courseFeeCovers({ productType: 'book', offeringTypes: ['digital', 'physical'] })).toBe(
      true,
    );
    expect(courseFeeCovers({ productType: 'book', offeringTypes: ['combo'] })).toBe(true);
    expect(courseFeeCovers({ productType: 'courseware', offeringTypes: [] })).toBe(true);
  });
  it('never a physical product, nor a title sold only as print', () => {
    expect(courseFeeCovers({ productType: 'physical_product', offeringTypes: ['physical'] })).toBe(
      false,
    );
    expect(courseFeeCovers({ productType: 'physical_product', offeringTypes: [] })).toBe(false);
    expect(courseFeeCovers({ productType: 'book', offeringTypes: ['physical', 'print'] })).toBe(
      false,
    );
  });
  it('nothing of an unknown type', () => {
    expect(courseFeeCovers({ productType: 'gift_card', offeringTypes: ['digital'] })).toBe(false);
  });
});
