import { describe, expect, it } from 'vitest';
import { formatDay } from './format-day.ts';

describe('formatDay', () => {
  it('writes a day in words in the reader’s language, long or medium', () => {
    expect(formatDay('en', '2031-08-26')).toBe('August 26, 2031');
    expect(formatDay('en', '2031-08-26', 'medium')).toBe('Aug 26, 2031');
    expect(formatDay('fr-CA', '2031-08-26')).toBe('26 août 2031');
    expect(formatDay('fr-CA', '2031-12-15', 'medium')).toBe('15 déc. 2031');
  });

  it('French writes the first of a month as an ordinal, « 1er »; English and other days do not', () => {
    expect(formatDay('fr-CA', '2026-05-01')).toBe('1er mai 2026');
    expect(formatDay('fr-CA', '2031-09-01', 'medium')).toBe('1er sept. 2031');
    expect(formatDay('fr-CA', Date.UTC(2026, 0, 1, 23))).toBe('1er janvier 2026');
    expect(formatDay('fr-CA', '2031-09-11', 'medium')).toBe('11 sept. 2031');
    expect(formatDay('fr-CA', '2031-09-21')).toBe('21 septembre 2031');
    expect(formatDay('en', '2031-09-01', 'medium')).toBe('Sep 1, 2031');
  });

  it('keeps the day as the domain keeps it, whatever the time zone; other text as it came', () => {
    expect(formatDay('en', '2026-01-01')).toBe('January 1, 2026');
    expect(formatDay('en', Date.UTC(2026, 0, 1, 23))).toBe('January 1, 2026');
    expect(formatDay('en', 'soon')).toBe('soon');
  });
});
