import { describe, expect, it } from 'vitest';
import { shownIsbn } from './shown-isbn.ts';

describe('shown ISBN (spec 1 §3 Catalog item)', () => {
  it('prefers EISBN13 over ISBN13 over the ten-digit ones and PCARD', () => {
    expect(
      shownIsbn([
        { type: 'ISBN10', value: '0306406152' },
        { type: 'ISBN13', value: '9780306406157' },
        { type: 'EISBN13', value: '9781234567897' },
      ]),
    ).toBe('9781234567897');
    expect(
      shownIsbn([
        { type: 'PCARD_10', value: '1234567890' },
        { type: 'ISBN10', value: '0306406152' },
      ]),
    ).toBe('0306406152');
  });
  it('ignores classroom and collection ISBNs', () => {
    expect(shownIsbn([{ type: 'CLASSROOM_ISBN', value: '9780306406157' }])).toBeNull();
  });
});
