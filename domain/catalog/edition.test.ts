import { describe, expect, it } from 'vitest';
import { isMessageWording } from '#domain/shared/wording.ts';
import { translate } from '#i18n/translate.ts';
import { editionWording } from './edition.ts';

const shown = (
  product: { edition: string | null; editionNumber: number | null },
  locale: 'en' | 'fr-CA',
) => {
  const wording = editionWording(product);
  if (wording === null) return null;
  return isMessageWording(wording)
    ? translate(locale, wording.message, wording.values)
    : wording.text;
};

// spec 1 §2 additional details table and §4 product information: 'Edition' (issue 13: a
// numbered edition said in the page's language).
describe('edition', () => {
  it('says a numbered edition in English', () => {
    const said = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23].map((n) =>
      shown({ edition: null, editionNumber: n }, 'en'),
    );
    expect(said).toEqual([
      '1st Edition',
      '2nd Edition',
      '3rd Edition',
      '4th Edition',
      '11th Edition',
      '12th Edition',
      '13th Edition',
      '21st Edition',
      '22nd Edition',
      '23rd Edition',
    ]);
  });

  it('says a numbered edition in French', () => {
    expect(shown({ edition: null, editionNumber: 1 }, 'fr-CA')).toBe('1re édition');
    expect(shown({ edition: null, editionNumber: 3 }, 'fr-CA')).toBe('3e édition');
    expect(shown({ edition: null, editionNumber: 21 }, 'fr-CA')).toBe('21e édition');
  });

  it('keeps an edition that is not a number as the publisher wrote it', () => {
    expect(editionWording({ edition: 'Revised Edition', editionNumber: null })).toEqual({
      text: 'Revised Edition',
    });
    expect(editionWording({ edition: '  ', editionNumber: null })).toBeNull();
    expect(editionWording({ edition: null, editionNumber: null })).toBeNull();
  });
});
