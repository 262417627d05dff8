import { describe, expect, it } from 'vitest';
import { academicTermOf, compareTerms, parseTermKey, termDateRange } from './academic-term.ts';

describe('academic term of a section, from its start date (issue 19: Find by course)', () => {
  it('issue 19: a section starting from August to December is in the fall term of its year', () => {
    expect(academicTermOf('2026-08-01')).toEqual({ key: '2026-fall', season: 'fall', year: 2026 });
    expect(academicTermOf('2026-10-23').key).toBe('2026-fall');
    expect(academicTermOf('2026-12-31').key).toBe('2026-fall');
  });

  it('issue 19: January to May is Winter/Spring, June and July are Summer', () => {
    expect(academicTermOf('2027-01-01')).toEqual({
      key: '2027-winter-spring',
      season: 'winter-spring',
      year: 2027,
    });
    expect(academicTermOf('2027-05-31').key).toBe('2027-winter-spring');
    expect(academicTermOf('2026-06-01')).toEqual({
      key: '2026-summer',
      season: 'summer',
      year: 2026,
    });
    expect(academicTermOf('2026-07-31').key).toBe('2026-summer');
  });

  it('issue 19: a term key reads back, and anything else is no term', () => {
    expect(parseTermKey('2026-fall')).toEqual({ key: '2026-fall', season: 'fall', year: 2026 });
    expect(parseTermKey('2027-winter-spring')?.season).toBe('winter-spring');
    for (const bad of ['', 'fall', '2026-autumn', '26-fall', '2026-fall ', '0999-fall', null]) {
      expect(parseTermKey(bad)).toBeNull();
    }
  });

  it('issue 19: the start dates a term holds, first and last day included', () => {
    expect(termDateRange(parseTermKey('2026-fall')!)).toEqual({
      from: '2026-08-01',
      to: '2026-12-31',
    });
    expect(termDateRange(parseTermKey('2027-winter-spring')!)).toEqual({
      from: '2027-01-01',
      to: '2027-05-31',
    });
    expect(termDateRange(parseTermKey('2026-summer')!)).toEqual({
      from: '2026-06-01',
      to: '2026-07-31',
    });
  });

  it('issue 19: every start date lies in the range of its own term', () => {
    for (let day = Date.UTC(2025, 0, 1); day < Date.UTC(2027, 0, 1); day += 86_400_000) {
      const date = new Date(day).toISOString().slice(0, 10);
      const range = termDateRange(academicTermOf(date));
      expect(date >= range.from && date <= range.to).toBe(true);
    }
  });

  it('issue 19: terms sort latest first (a spring term after the fall before it)', () => {
    const keys = ['2026-fall', '2027-winter-spring', '2026-summer', '2026-winter-spring'];
    const sorted = keys.map((k) => parseTermKey(k)!).sort(compareTerms);
    expect(sorted.map((t) => t.key)).toEqual([
      '2027-winter-spring',
      '2026-fall',
      '2026-summer',
      '2026-winter-spring',
    ]);
  });
});
