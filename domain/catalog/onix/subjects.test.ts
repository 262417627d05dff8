import { describe, expect, it } from 'vitest';
import { bisacOfThema, categoryCodes } from './subjects.ts';

// Issue 15: subjects (BISAC, Thema) to the store's categories, main subject first.
describe('subjects to categories', () => {
  it('maps a Thema category to its BISAC discipline by the longest prefix', () => {
    expect(bisacOfThema('FFP')).toBe('FIC000000');
    expect(bisacOfThema('JNF')).toBe('EDU000000');
    expect(bisacOfThema('JBSF')).toBe('SOC000000');
    expect(bisacOfThema('QDH')).toBeNull();
  });

  it('browses children’s fiction as Juvenile Fiction, school books as Education, and guesses no other Y', () => {
    expect(bisacOfThema('YFH')).toBe('JUV000000');
    expect(bisacOfThema('YBC')).toBe('JUV000000');
    expect(bisacOfThema('YPCK')).toBe('EDU000000');
    expect(bisacOfThema('YPZ')).toBe('EDU000000');
    // Session 23: a real feed's children's non-fiction was browsed as Juvenile Fiction.
    expect(bisacOfThema('YN')).toBeNull();
    expect(bisacOfThema('YNNH')).toBeNull();
    expect(bisacOfThema('YR')).toBeNull();
  });

  it('keeps a known BISAC code, falls back to its discipline, and lists each once', () => {
    const known = (code: string) => ['FIC000000', 'FIC022000', 'EDU000000'].includes(code);
    expect(
      categoryCodes(
        [
          { scheme: 'bisac', code: 'FIC022000' },
          { scheme: 'bisac', code: 'FIC099999' },
          { scheme: 'thema', code: 'FFP' },
          { scheme: 'thema', code: 'YPCK' },
          { scheme: 'bisac', code: 'XYZ000000' },
        ],
        known,
      ),
    ).toEqual(['FIC022000', 'FIC000000', 'EDU000000']);
  });
});
