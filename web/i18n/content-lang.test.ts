import { describe, expect, it } from 'vitest';
import { contentLang } from './content-lang.ts';

// WCAG 2.2 SC 3.1.2 Language of Parts (issue 13): a product's own text in another language
// than the page's says which, so screen readers switch voice.
describe('contentLang', () => {
  it('marks an English title on a French page, and a French one on an English page', () => {
    expect(contentLang('en', 'fr-CA')).toEqual({ lang: 'en', dir: 'auto' });
    expect(contentLang('fr', 'en')).toEqual({ lang: 'fr', dir: 'auto' });
    expect(contentLang(' en-GB ', 'fr-CA')).toEqual({ lang: 'en-GB', dir: 'auto' });
  });

  it('leaves text in the page’s language unmarked, whatever its region', () => {
    expect(contentLang('en', 'en')).toEqual({});
    expect(contentLang('fr', 'fr-CA')).toEqual({});
    expect(contentLang('FR-fr', 'fr-CA')).toEqual({});
  });

  it('lets the browser take a foreign text’s direction from the text (an Arabic title)', () => {
    expect(contentLang('ar', 'fr-CA')).toEqual({ lang: 'ar', dir: 'auto' });
  });

  it('says nothing of a language that is not a tag', () => {
    expect(contentLang('', 'fr-CA')).toEqual({});
    expect(contentLang(null, 'fr-CA')).toEqual({});
    expect(contentLang('English', 'fr-CA')).toEqual({});
  });
});
