import { describe, expect, it } from 'vitest';
import { plainDescription } from './description.ts';

// Issue 15: a publisher's description as the store keeps it, plain text in paragraphs, from
// what real feeds send (session 23: Macmillan Australia, a DILICOM feed).
describe('a description from a feed', () => {
  it('reads declared HTML by its markup', () => {
    expect(plainDescription('<p>One <b>bold</b> claim.</p><p>Two.</p>', '02')).toBe(
      'One bold claim.\n\nTwo.',
    );
  });

  it('keeps the blank-line paragraphs of text with a few inline tags', () => {
    const text =
      'A <b>Sunday Times</b> bestseller.\n\n<i>Murder in Paradise</i>.\n\nWhat, or who, is it?';
    expect(plainDescription(text, null)).toBe(
      'A Sunday Times bestseller.\n\nMurder in Paradise.\n\nWhat, or who, is it?',
    );
    expect(plainDescription(text, '06')).toBe(
      'A Sunday Times bestseller.\n\nMurder in Paradise.\n\nWhat, or who, is it?',
    );
  });

  it('decodes characters a feed escaped twice, in plain text', () => {
    expect(
      plainDescription(
        'Ce n&#39;est pas une histoire inqui&eacute;tante.\n\nQu&rsquo;on se le dise.',
        null,
      ),
    ).toBe("Ce n'est pas une histoire inquiétante.\n\nQu’on se le dise.");
  });

  it('leaves plain text as it is: an ampersand, a less-than sign, its lines', () => {
    expect(plainDescription('AT&T, R&D & more: a < b.\nSecond line.\n\nNext.', null)).toBe(
      'AT&T, R&D & more: a < b.\nSecond line.\n\nNext.',
    );
    expect(plainDescription('x &amp; y, a < b', null)).toBe('x & y, a < b');
  });
});
