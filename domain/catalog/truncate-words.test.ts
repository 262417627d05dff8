import { describe, expect, it } from 'vitest';
import { CARD_DESCRIPTION_WORDS, truncateWords } from './truncate-words.ts';

describe('description cuts (spec 2 §9)', () => {
  it('cuts a card description to 30 words with an ellipsis', () => {
    const text = Array.from({ length: 45 }, (_, i) => `w${i}`).join(' ');
    const cut = truncateWords(text, CARD_DESCRIPTION_WORDS);
    expect(cut.split(' ')).toHaveLength(30);
    expect(cut.endsWith('w29…')).toBe(true);
  });
  it('leaves a short description whole and tidies spaces', () => {
    expect(truncateWords('  one   two\nthree ', 30)).toBe('one two three');
  });
});
