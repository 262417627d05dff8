import { describe, expect, it } from 'vitest';
import { collectionIcon, coursewareAccessSteps } from './product-type-rules.ts';

describe('other product page types (spec 1 §2, spec 2 §9)', () => {
  it('the collection icon shows 9_plus when there are more than 9 items', () => {
    expect(collectionIcon(9)).toBe('9');
    expect(collectionIcon(10)).toBe('9_plus');
    expect(collectionIcon(0)).toBe('0');
  });
  it('courseware has 4 access steps, 3 when My Shelf shows Access Now', () => {
    expect(coursewareAccessSteps({ isCodeless: false, isUrlAccessCode: false })).toBe(4);
    expect(coursewareAccessSteps({ isCodeless: true, isUrlAccessCode: false })).toBe(3);
    expect(coursewareAccessSteps({ isCodeless: false, isUrlAccessCode: true })).toBe(3);
  });
});
