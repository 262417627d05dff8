import { describe, expect, it } from 'vitest';
import { allowanceLimit, decideAllowance, printLimit, shownDrmPercent } from './drm.ts';

describe('shownDrmPercent (spec 1 §5, spec 2 §9: shown only when above 0, rounded to 0 decimals)', () => {
  it('spec 2 §9: a percentage above 0 is shown rounded to 0 decimals', () => {
    expect(shownDrmPercent(10)).toBe(10);
    expect(shownDrmPercent(12.5)).toBe(13);
    expect(shownDrmPercent(12.49)).toBe(12);
    expect(shownDrmPercent(100)).toBe(100);
  });

  it('spec 1 §5: 0, nothing and nonsense are not shown', () => {
    expect(shownDrmPercent(0)).toBeNull();
    expect(shownDrmPercent(null)).toBeNull();
    expect(shownDrmPercent(-5)).toBeNull();
    expect(shownDrmPercent(Number.NaN)).toBeNull();
  });

  it('spec 1 §5: above 0 is shown even when it rounds to 0', () => {
    expect(shownDrmPercent(0.4)).toBe(0);
  });
});

describe('allowanceLimit (spec 1 §3 drm copyPercentage, printAllowancePercent)', () => {
  it('the exact stored percentage of the book, rounded down to whole units', () => {
    expect(allowanceLimit(10, 9237)).toBe(923);
    expect(allowanceLimit(12.5, 1000)).toBe(125);
    expect(allowanceLimit(12.5, 999)).toBe(124);
    expect(allowanceLimit(25, 3)).toBe(0);
    expect(allowanceLimit(100, 3)).toBe(3);
  });

  it('uses the stored percentage, not the rounded one shown', () => {
    // 12.5 is shown as 13 %, but 13 % of 1000 would allow 130.
    expect(allowanceLimit(12.5, 1000)).not.toBe(allowanceLimit(shownDrmPercent(12.5), 1000));
  });

  it('no percentage, 0 or an empty book allow nothing; above 100 is 100', () => {
    expect(allowanceLimit(null, 1000)).toBe(0);
    expect(allowanceLimit(0, 1000)).toBe(0);
    expect(allowanceLimit(20, 0)).toBe(0);
    expect(allowanceLimit(150, 40)).toBe(40);
  });

  it('never allows more than the book, for any percentage and size', () => {
    for (let hundredths = 0; hundredths <= 10_000; hundredths += 37) {
      for (const total of [1, 7, 99, 1024, 123_457]) {
        const limit = allowanceLimit(hundredths / 100, total);
        expect(limit).toBeGreaterThanOrEqual(0);
        expect(limit).toBeLessThanOrEqual(total);
        expect(limit).toBeLessThanOrEqual((total * hundredths) / 10_000);
      }
    }
  });
});

describe('decideAllowance (issue 5: copies and prints counted against the limit)', () => {
  it('allows what fits and says what is left', () => {
    expect(decideAllowance('copy', { limit: 923, used: 900 }, 23)).toEqual({
      allowed: true,
      used: 923,
      remaining: 0,
    });
  });

  it('refuses a copy past the limit with the copy message and what is left', () => {
    expect(decideAllowance('copy', { limit: 923, used: 900 }, 24)).toEqual({
      allowed: false,
      reason: 'reading.copy.refused',
      remaining: 23,
    });
    expect(decideAllowance('print', { limit: 2, used: 2 }, 1)).toEqual({
      allowed: false,
      reason: 'reading.print.refused',
      remaining: 0,
    });
  });

  it('refuses nothing-sized requests and never reports a negative remainder', () => {
    expect(decideAllowance('copy', { limit: 10, used: 3 }, 0).allowed).toBe(false);
    expect(decideAllowance('copy', { limit: 10, used: 30 }, 1)).toMatchObject({ remaining: 0 });
  });

  it('successive allowed requests never add up past the limit', () => {
    let state = { limit: 1000, used: 0 };
    for (const size of [300, 300, 300, 300, 100, 50, 1]) {
      const decision = decideAllowance('copy', state, size);
      if (decision.allowed) state = { ...state, used: decision.used };
    }
    expect(state.used).toBe(1000);
  });
});

describe('printLimit (issue 13: a book that allows printing lets a student print)', () => {
  it('spec 1 §3 printAllowancePercent: the share of the pages, rounded down', () => {
    expect(printLimit(25, 100)).toBe(25);
    expect(printLimit(12.5, 9)).toBe(1);
    expect(printLimit(50, 7)).toBe(3);
  });

  it('a positive percentage never rounds to no page: 25 % of a 3-page PDF is 1 page', () => {
    expect(allowanceLimit(25, 3)).toBe(0);
    expect(printLimit(25, 3)).toBe(1);
    expect(printLimit(0.01, 1)).toBe(1);
  });

  it('0, no percentage or a book without pages allow no printing', () => {
    expect(printLimit(0, 300)).toBe(0);
    expect(printLimit(null, 300)).toBe(0);
    expect(printLimit(50, 0)).toBe(0);
  });

  it('for any percentage above 0 and any book: at least one page, never more than the book', () => {
    for (let hundredths = 1; hundredths <= 10_000; hundredths += 53) {
      for (const pages of [1, 2, 3, 7, 40, 999]) {
        const limit = printLimit(hundredths / 100, pages);
        expect(limit).toBeGreaterThanOrEqual(1);
        expect(limit).toBeLessThanOrEqual(pages);
        expect(limit).toBeLessThanOrEqual(Math.max(1, (pages * hundredths) / 10_000));
      }
    }
  });
});

describe('decideAllowance for a book that allows none', () => {
  it('says the book does not allow it, not that it has been used up', () => {
    expect(decideAllowance('print', { limit: 0, used: 0 }, 1)).toEqual({
      allowed: false,
      reason: 'reading.print.notAllowed',
      remaining: 0,
    });
    expect(decideAllowance('copy', { limit: 0, used: 0 }, 5)).toMatchObject({
      reason: 'reading.copy.notAllowed',
    });
  });
});
