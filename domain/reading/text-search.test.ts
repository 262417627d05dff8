import { describe, expect, it } from 'vitest';
import { excerpt, findOccurrences, foldForSearch, wholeWords } from './text-search.ts';

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
    expect(hit?.before.replace('…', '').length).toBeLessThanOrEqual(60);
    expect(hit?.after.replace('…', '').length).toBeLessThanOrEqual(60);
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

  it('cuts the text around a hit between words, with an ellipsis where the text goes on', () => {
    const words = 'photosynthesis converts light energy into chemical energy stored in sugar';
    const text = `${words} and the cell wall ${words}`;
    const [hit] = findOccurrences(text, 'cell wall');
    expect(hit!.before).toBe('…light energy into chemical energy stored in sugar and the ');
    expect(hit!.after).toBe(' photosynthesis converts light energy into chemical energy…');
    // Nothing cut where the text starts or ends within the context.
    const [short] = findOccurrences('The cell wall is rigid.', 'wall');
    expect([short!.before, short!.after]).toEqual(['The cell ', ' is rigid.']);
    // A hit inside a word keeps the whole hit.
    expect(findOccurrences('multicellular', 'cell')[0]).toMatchObject({
      before: 'multi',
      match: 'cell',
      after: 'ular',
    });
  });

  it('an empty query finds nothing', () => {
    expect(findOccurrences('anything', '   ')).toEqual([]);
  });
});

describe('wholeWords (issue 16: quotes and snippets never cut a word)', () => {
  const text = 'The quick brown fox jumps';
  it('moves a start inside a word past it and an end inside a word back to its start', () => {
    expect(text.slice(...wholeWords(text, 5, 18))).toBe(' brown ');
    expect(text.slice(...wholeWords(text, 4, 19))).toBe('quick brown fox');
  });
  it('keeps a range that is one word or less as it was', () => {
    expect(wholeWords(text, 5, 8)).toEqual([5, 8]);
    expect(wholeWords('Antidisestablishmentarianism', 0, 10)).toEqual([0, 10]);
  });
  it('never cuts into the part to keep', () => {
    expect(wholeWords(text, 5, 18, { keep: [6, 9] })).toEqual([6, 16]);
  });
});

describe('excerpt (issue 16: a quote or note in a message)', () => {
  it('reads as one line, cut between words with an ellipsis past its length', () => {
    expect(excerpt('Chapter 2: Genetics\n    Full-colour plates', 100)).toBe(
      'Chapter 2: Genetics Full-colour plates',
    );
    expect(excerpt('one two three four', 9)).toBe('one two…');
    expect(excerpt('x'.repeat(5000), 160)).toBe(`${'x'.repeat(160)}…`);
  });
});
