import { describe, expect, it } from 'vitest';
import { findOccurrences } from './text-search.ts';

describe('findOccurrences (issue 5: search in the book)', () => {
  it('ignores case and matches any white space with any other', () => {
    const hits = findOccurrences('The Cell.\n    the  cell wall', 'the cell');
    expect(hits.map((h) => [h.occurrence, h.match])).toEqual([
      [0, 'The Cell'],
      [1, 'the cell'],
    ]);
    expect(hits[1]?.after).toBe(' wall');
  });

  it('keeps some text around each hit, and at most max hits', () => {
    const text = `${'a '.repeat(100)}needle${' b'.repeat(100)}`;
    const [hit] = findOccurrences(text, 'needle');
    expect(hit?.before.length).toBeLessThanOrEqual(60);
    expect(hit?.after.length).toBeLessThanOrEqual(60);
    expect(findOccurrences('x x x x', 'x', 2)).toHaveLength(2);
  });

  it('an empty query finds nothing', () => {
    expect(findOccurrences('anything', '   ')).toEqual([]);
  });
});
