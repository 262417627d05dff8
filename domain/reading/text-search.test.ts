import { describe, expect, it } from 'vitest';
import { findOccurrences, foldForSearch } from './text-search.ts';

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

  it('ignores accents both ways, and shows the text as written', () => {
    const text = 'L’Évolution des espèces. Une evolution lente. Naïve et naive.';
    expect(findOccurrences(text, 'évolution').map((hit) => hit.match)).toEqual([
      'Évolution',
      'evolution',
    ]);
    expect(findOccurrences(text, 'EVOLUTION')).toHaveLength(2);
    expect(findOccurrences(text, 'especes')[0]!.match).toBe('espèces');
    expect(findOccurrences(text, 'naive').map((hit) => hit.match)).toEqual(['Naïve', 'naive']);
  });

  it('folding never changes a text’s length, so offsets stay the text’s', () => {
    for (const text of ['İstanbul', 'ﬁne straße', 'Ǆ 𝒜 é', 'Ω ω ǅ']) {
      expect(foldForSearch(text)).toHaveLength(text.length);
    }
  });

  it('an empty query finds nothing', () => {
    expect(findOccurrences('anything', '   ')).toEqual([]);
  });
});
