import { describe, expect, it } from 'vitest';
import { resolveLocale, showLanguagePicker, storedChoiceOf } from './language.ts';

const allowed = ['en', 'fr-CA'];

describe('language (spec 1 §2 footer language picker; spec 2 §9 default English)', () => {
  it('defaults to English, also when logged out', () => {
    expect(resolveLocale({ allowed })).toBe('en');
  });

  it("the user's stored choice wins over the cookie and the browser", () => {
    expect(
      resolveLocale({ userChoice: 'fr-CA', cookie: 'en', acceptLanguage: 'en', allowed }),
    ).toBe('fr-CA');
  });

  it('the LANG cookie wins over the browser', () => {
    expect(resolveLocale({ cookie: 'fr-CA', acceptLanguage: 'en-US', allowed })).toBe('fr-CA');
  });

  it('any French in Accept-Language reads French', () => {
    expect(resolveLocale({ acceptLanguage: 'de;q=0.9, fr-FR;q=0.8', allowed })).toBe('fr-CA');
  });

  it('ignores languages the site does not allow and unknown codes', () => {
    expect(resolveLocale({ userChoice: 'fr-CA', allowed: ['en'] })).toBe('en');
    expect(resolveLocale({ cookie: 'xx', allowed })).toBe('en');
  });

  it('the language button shows only when more than one language is allowed', () => {
    expect(showLanguagePicker(['en', 'fr-CA'])).toBe(true);
    expect(showLanguagePicker(['en'])).toBe(false);
  });
});

describe('storedChoiceOf (issue 39, decision 039: Switch Account reads in the manager’s language)', () => {
  it('a person reads in their own stored choice', () => {
    expect(storedChoiceOf({ languageCode: 'fr-CA', isImpersonating: false })).toBe('fr-CA');
    expect(storedChoiceOf({ languageCode: null, isImpersonating: false })).toBeNull();
    expect(storedChoiceOf(null)).toBeNull();
  });
  it('a manager acting as a person reads in the manager’s choice, never the person’s', () => {
    const acting = { languageCode: 'en', isImpersonating: true };
    expect(storedChoiceOf({ ...acting, impersonatorLanguage: 'fr-CA' })).toBe('fr-CA');
    // The manager stored none: their browser decides (cookie, Accept-Language), not the person.
    expect(storedChoiceOf({ ...acting, impersonatorLanguage: null })).toBeNull();
  });
});
