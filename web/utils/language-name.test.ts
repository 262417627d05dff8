import { describe, expect, it } from 'vitest';
import { UNDETERMINED_LANGUAGE } from '#domain/catalog/onix/language.ts';
import { languageName } from './language-name.ts';

// Spec 1 §2's details table names the product's language in the visitor's; issue 15 (session
// 23): a product whose feed names none shows no Language row rather than "English".
describe('the language a product page names', () => {
  it('names a language in the visitor’s language', () => {
    expect(languageName('en', 'fr')).toBe('French');
    expect(languageName('fr-CA', 'en')).toBe('anglais');
  });

  it('claims none for a feed that named none', () => {
    expect(languageName('en', UNDETERMINED_LANGUAGE)).toBeNull();
    expect(languageName('fr-CA', UNDETERMINED_LANGUAGE)).toBeNull();
  });
});
