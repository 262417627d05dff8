import { describe, expect, it } from 'vitest';
import { bookLanguage } from './book-language.ts';

describe('bookLanguage (issue 13: the reader says which language the book is in)', () => {
  it("the EPUB's own language wins over the product's", () => {
    expect(bookLanguage({ metadataLanguage: 'en-GB', productLanguage: 'fr' })).toEqual({
      lang: 'en-GB',
      dir: 'ltr',
    });
  });

  it("the product's language when the book names none, or names one that is not a tag", () => {
    expect(bookLanguage({ productLanguage: 'en' })).toEqual({ lang: 'en', dir: 'ltr' });
    expect(bookLanguage({ metadataLanguage: 'English', productLanguage: 'fr-CA' })).toEqual({
      lang: 'fr-CA',
      dir: 'ltr',
    });
  });

  it('right-to-left languages and scripts read right to left; the spine direction wins', () => {
    expect(bookLanguage({ productLanguage: 'ar' })?.dir).toBe('rtl');
    expect(bookLanguage({ metadataLanguage: 'he-IL' })?.dir).toBe('rtl');
    expect(bookLanguage({ metadataLanguage: 'az-Arab' })?.dir).toBe('rtl');
    expect(bookLanguage({ metadataLanguage: 'ku-Latn' })?.dir).toBe('ltr');
    expect(bookLanguage({ metadataLanguage: 'ja', pageProgression: 'rtl' })?.dir).toBe('rtl');
    expect(bookLanguage({ metadataLanguage: 'ar', pageProgression: 'default' })?.dir).toBe('rtl');
  });

  it('nothing valid: no language (the page keeps its own)', () => {
    expect(bookLanguage({})).toBeNull();
    expect(bookLanguage({ metadataLanguage: ' ', productLanguage: 'x"><script>' })).toBeNull();
  });
});
