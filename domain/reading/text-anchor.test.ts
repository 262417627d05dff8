import { describe, expect, it } from 'vitest';
import { anchorOf, CONTEXT_LENGTH, locate, MAX_QUOTE_LENGTH } from './text-anchor.ts';

const chapter =
  'The cell is the unit of life. Every cell has a membrane. ' +
  'The membrane keeps the cell apart from what is around it. ' +
  'Inside, the cell makes proteins, and the proteins do the work of the cell.';

const passage = (text: string, words: string, from = 0) => {
  const start = text.indexOf(words, from);
  if (start < 0) throw new Error(`no "${words}"`);
  return { start, end: start + words.length };
};

describe('text anchors (issue 16: highlights, notes and bookmarks kept across edits of the book)', () => {
  it('an anchor keeps the words, the words around them and where they were', () => {
    const { start, end } = passage(chapter, 'The membrane keeps');
    const anchor = anchorOf(chapter, 3, start, end);
    expect(anchor).toEqual({
      part: 3,
      start,
      end,
      exact: 'The membrane keeps',
      prefix: 'is the unit of life. Every cell has a membrane. '.slice(-CONTEXT_LENGTH),
      suffix: ' the cell apart from what is aro',
    });
    expect(anchor.prefix).toHaveLength(32);
    // At the very start of a part there is no text before.
    expect(anchorOf(chapter, 0, 0, 8).prefix).toBe('');
  });

  it('refuses what is not a passage of the text', () => {
    expect(() => anchorOf(chapter, 0, 5, 5)).toThrow(RangeError);
    expect(() => anchorOf(chapter, 0, 6, 5)).toThrow(RangeError);
    expect(() => anchorOf(chapter, 0, -1, 5)).toThrow(RangeError);
    expect(() => anchorOf(chapter, 0, 0, chapter.length + 1)).toThrow(RangeError);
    expect(() => anchorOf(chapter, 0, 1.5, 4)).toThrow(RangeError);
    expect(() => anchorOf(chapter, -1, 0, 4)).toThrow(RangeError);
    expect(() => anchorOf('a    b', 0, 1, 5)).toThrow(RangeError);
    const long = 'x'.repeat(MAX_QUOTE_LENGTH + 1);
    expect(() => anchorOf(long, 0, 0, long.length)).toThrow(RangeError);
    expect(anchorOf(long, 0, 0, MAX_QUOTE_LENGTH).exact).toHaveLength(MAX_QUOTE_LENGTH);
  });

  it('unchanged text: found where it was', () => {
    const { start, end } = passage(chapter, 'the proteins do the work');
    expect(locate(chapter, anchorOf(chapter, 0, start, end))).toEqual({ start, end, exact: true });
  });

  it('text added before it: the same words are found where they moved', () => {
    const { start, end } = passage(chapter, 'The membrane keeps the cell apart');
    const anchor = anchorOf(chapter, 0, start, end);
    const edited = `A new opening sentence for the second printing. ${chapter}`;
    const moved = passage(edited, 'The membrane keeps the cell apart');
    expect(locate(edited, anchor)).toEqual({ ...moved, exact: true });
  });

  it('the same words twice: the ones with the same words around them win, not the nearer', () => {
    // "the cell" occurs five times; anchor the one in "Inside, the cell makes".
    const { start, end } = passage(chapter, 'the cell', chapter.indexOf('Inside'));
    const anchor = anchorOf(chapter, 0, start, end);
    // A new printing inserts text just before it, so the old offsets now point at other words.
    const edited = chapter.replace('Inside,', 'Inside the membrane, in the watery inside,');
    const found = locate(edited, anchor)!;
    const makes = edited.indexOf('the cell makes');
    expect(found).toEqual({ start: makes, end: makes + 'the cell'.length, exact: true });
  });

  it('the words corrected a little: the closest passage is found and marked as not exact', () => {
    const { start, end } = passage(
      chapter,
      'The membrane keeps the cell apart from what is around it.',
    );
    const anchor = anchorOf(chapter, 0, start, end);
    const edited = chapter.replace(
      'The membrane keeps the cell apart from what is around it.',
      'The membrane keeps each cell apart from what surrounds it.',
    );
    const found = locate(edited, anchor)!;
    expect(found.exact).toBe(false);
    expect(edited.slice(found.start, found.end)).toMatch(
      /^The membrane keeps each cell apart from what surrounds it\.?$/,
    );
  });

  it('the words gone: lost, never put on other words', () => {
    const { start, end } = passage(chapter, 'Every cell has a membrane.');
    const anchor = anchorOf(chapter, 0, start, end);
    const edited = chapter.replace('Every cell has a membrane. ', '');
    expect(locate(edited, anchor)).toBeNull();
    expect(locate('', anchor)).toBeNull();
    // A short quote allows no error: one letter changed is another word.
    const short = anchorOf(
      chapter,
      0,
      ...(Object.values(passage(chapter, 'unit')) as [number, number]),
    );
    expect(locate(chapter.replace('unit', 'unif'), short)).toBeNull();
  });

  it('stays quick on a long chapter with many repeats (a thousand highlights on a long book)', () => {
    const long = `${chapter} `.repeat(400);
    const { start, end } = passage(long, 'Every cell has a membrane.', 200 * (chapter.length + 1));
    const anchor = anchorOf(long, 0, start, end);
    const shifted = `Preface. ${long}`;
    const found = locate(shifted, anchor)!;
    expect(found).toEqual({ start: start + 9, end: end + 9, exact: true });
  });
});
