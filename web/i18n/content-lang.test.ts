import { describe, expect, it } from 'vitest';
import { contentLang } from './content-lang.ts';

// WCAG 2.2 SC 3.1.2 Language of Parts (issue 13): a product's own text in another language
// than the page's says which, so screen readers switch voice.
describe('contentLang', () => {
  it('marks an English title on a French page, and a French one on an English page', () => {
    expect(contentLang('en', 'fr-CA')).toEqual({ lang: 'en' });
    expect(contentLang('fr', 'en')).toEqual({ lang: 'fr' });
    expect(contentLang('en-GB', 'fr-CA')).toEqual({ lang: 'en-GB' });
  });

  it('leaves text in the page’s language unmarked, whatever its region', () => {
    expect(contentLang('en', 'en')).toEqual({});
    expect(contentLang('fr', 'fr-CA')).toEqual({});
    expect(contentLang('fr-FR', 'fr-CA')).toEqual({});
  });

  it('gives the direction of a right-to-left language', () => {
    expect(contentLang('ar', 'fr-CA')).toEqual({ lang: 'ar', dir: 'rtl' });
    expect(contentLang('he', 'en')).toEqual({ lang: 'he', dir: 'rtl' });
  });

  it('says nothing of a language that is not a tag', () => {
    expect(contentLang('', 'fr-CA')).toEqual({});
    expect(contentLang(null, 'fr-CA')).toEqual({});
    expect(contentLang('English', 'fr-CA')).toEqual({});
  });
});
