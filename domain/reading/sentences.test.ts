import { describe, expect, it } from 'vitest';
import { SENTENCE_MAX_CHARACTERS, sentencesOf } from './sentences.ts';

// Issue 16, read aloud: "the spoken sentence highlighted and followed across pages".

describe('the sentences read aloud', () => {
  const text = 'The cell is the unit of life.  Darwin said so! Is it? Yes';

  it('are the language’s sentences, each with its place in the text', () => {
    const sentences = sentencesOf(text, 'en');
    expect(sentences.map((s) => s.text)).toEqual([
      'The cell is the unit of life.',
      'Darwin said so!',
      'Is it?',
      'Yes',
    ]);
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('start with the sentence the page starts in', () => {
    const from = text.indexOf('said so');
    expect(sentencesOf(text, 'en', from)[0]!.text).toBe('Darwin said so!');
    expect(sentencesOf(text, 'en', text.length)).toEqual([]);
  });

  it('in French too', () => {
    expect(sentencesOf('Bonjour. Ça va ? Oui !', 'fr').map((s) => s.text)).toEqual([
      'Bonjour.',
      'Ça va ?',
      'Oui !',
    ]);
  });

  it('a sentence too long for one breath is cut at spaces, nothing lost', () => {
    const long = `${'word '.repeat(150).trim()}.`;
    const sentences = sentencesOf(long, 'en');
    expect(sentences.length).toBeGreaterThan(1);
    for (const s of sentences) {
      expect(s.text.length).toBeLessThanOrEqual(SENTENCE_MAX_CHARACTERS);
      expect(long.slice(s.start, s.end)).toBe(s.text);
    }
    expect(sentences.map((s) => s.text).join(' ')).toBe(long);
  });
});
