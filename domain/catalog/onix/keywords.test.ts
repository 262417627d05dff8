import { describe, expect, it } from 'vitest';
import { MAX_KEYWORD_LENGTH, MAX_KEYWORDS, onixKeywords } from './keywords.ts';

// Issue 15: subjects "(BISAC, Thema, keywords)" are read into the catalog. Keywords are
// Subject scheme 20 of EDITEUR code list 27: words or phrases, several separated by semicolons.
describe('onixKeywords (issue 15; ONIX code list 27, scheme 20)', () => {
  it('issue 15: splits a heading on semicolons and trims each keyword', () => {
    expect(onixKeywords([' photosynthesis ;plant biology;  light reactions '])).toEqual([
      'photosynthesis',
      'plant biology',
      'light reactions',
    ]);
  });

  it('issue 15: keeps the keywords of every scheme-20 subject, in the feed’s order', () => {
    expect(onixKeywords(['calvin cycle; chlorophyll', 'stomata'])).toEqual([
      'calvin cycle',
      'chlorophyll',
      'stomata',
    ]);
  });

  it('issue 15: collapses spaces, tabs and line breaks inside a keyword', () => {
    expect(onixKeywords(['plant \t\n  biology'])).toEqual(['plant biology']);
  });

  it('issue 15: keeps a keyword once whatever its case; the first spelling wins', () => {
    expect(onixKeywords(['DNA; dna; Photosynthesis', 'photosynthesis ; PHOTOSYNTHESIS'])).toEqual([
      'DNA',
      'Photosynthesis',
    ]);
  });

  it('issue 15: treats composed and decomposed accents as one keyword, composed', () => {
    const decomposed = 'e\u0301cologie';
    expect(onixKeywords([`${decomposed}; écologie`])).toEqual(['écologie']);
  });

  it('issue 15: skips empty keywords (doubled or trailing semicolons)', () => {
    expect(onixKeywords([';; genetics ;;', '   '])).toEqual(['genetics']);
  });

  it(`issue 15: keeps at most ${MAX_KEYWORDS} keywords, the first ones, so a feed cannot grow a row without bound`, () => {
    const many = Array.from({ length: MAX_KEYWORDS + 20 }, (_, n) => `topic ${n}`);
    const kept = onixKeywords([many.join('; ')]);
    expect(kept).toHaveLength(MAX_KEYWORDS);
    expect(kept[0]).toBe('topic 0');
    expect(kept.at(-1)).toBe(`topic ${MAX_KEYWORDS - 1}`);
  });

  it('issue 15: counts the limit after duplicates are dropped', () => {
    const repeated = Array.from({ length: MAX_KEYWORDS * 2 }, () => 'same').join(';');
    expect(onixKeywords([repeated, 'other'])).toEqual(['same', 'other']);
  });

  it(`issue 15: drops, never cuts, a "keyword" longer than ${MAX_KEYWORD_LENGTH} characters`, () => {
    const longest = 'é'.repeat(MAX_KEYWORD_LENGTH);
    const prose = `${'a'.repeat(MAX_KEYWORD_LENGTH - 10)} and so on.`;
    expect(onixKeywords([`${longest}; ${prose}; botany`])).toEqual([longest, 'botany']);
  });

  it('issue 15: no heading, no keywords', () => {
    expect(onixKeywords([])).toEqual([]);
  });
});
