import { describe, expect, it } from 'vitest';
import { parseSearchTerms } from './search-terms.ts';

describe('search terms (spec 1 §5, spec 2 §2 Search)', () => {
  it('an empty or blank term is refused', () => {
    expect(parseSearchTerms('')).toEqual({ ok: false, reason: 'empty' });
    expect(parseSearchTerms('   ')).toEqual({ ok: false, reason: 'empty' });
    expect(parseSearchTerms(null)).toEqual({ ok: false, reason: 'empty' });
  });

  it('more than 1000 characters is refused', () => {
    expect(parseSearchTerms('a'.repeat(1001))).toEqual({ ok: false, reason: 'tooLong' });
    expect(parseSearchTerms('a'.repeat(1000)).ok).toBe(true);
  });

  it('an ISBN with hyphens also looks up its digits, and an ISBN-10 its ISBN-13', () => {
    const parsed = parseSearchTerms('0-306-40615-2');
    expect(parsed).toEqual({
      ok: true,
      text: '0-306-40615-2',
      identifiers: ['0306406152', '9780306406157'],
    });
  });

  it('an ISBN-13 also looks up its ISBN-10', () => {
    expect(parseSearchTerms('978-0-306-40615-7')).toMatchObject({
      identifiers: ['9780306406157', '0306406152'],
    });
  });

  it('words are not identifiers', () => {
    expect(parseSearchTerms('  organic   chemistry ')).toEqual({
      ok: true,
      text: 'organic chemistry',
      identifiers: [],
    });
  });
});
