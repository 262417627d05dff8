import { describe, expect, it } from 'vitest';
import { isPartnerCandidate } from './partner-candidates.ts';
import type { ShelfAction } from './shelf-button.ts';

describe('partner candidates (spec 1 §4 Partner hand-off, Shelf button priority)', () => {
  it('a material the member would buy is bought from the partner store, with Buy Now', () => {
    for (const action of ['addToCart', 'viewCart', null] as const) {
      expect(isPartnerCandidate({ owned: false, action })).toBe(true);
    }
  });

  it('a free book is added to the shelf, never offered as Buy Now (spec 1 §4 priority 2)', () => {
    expect(isPartnerCandidate({ owned: false, action: 'addToShelf' })).toBe(false);
  });

  it('what the course fee covers and what is owned are not bought again', () => {
    const kept: ShelfAction[] = ['startReading', 'acquireCode'];
    for (const action of kept) expect(isPartnerCandidate({ owned: false, action })).toBe(false);
    const owned: ShelfAction[] = ['read', 'accessCourseware', 'accessClassroom'];
    for (const action of owned) expect(isPartnerCandidate({ owned: true, action })).toBe(false);
  });
});
