import { describe, expect, it } from 'vitest';
import { isMessageWording, type Wording } from '#domain/shared/wording.ts';
import { en } from '#i18n/messages/en.ts';
import { frCA } from '#i18n/messages/fr-CA.ts';
import { translate } from '#i18n/translate.ts';
import { featureWording, promisedFeatures, STORE_FEATURES } from './product-features.ts';

const shown = (wording: Wording | null, locale: 'en' | 'fr-CA') =>
  wording === null
    ? null
    : isMessageWording(wording)
      ? translate(locale, wording.message, wording.values)
      : wording.text;

// spec 1 §2 ('eBook Features' tab, classroom, supplemental, collection and courseware features;
// spec 1 §3 Product feature), issue 13: the store's own features in the page's language.
describe('product features', () => {
  it('describes every store feature in English and in French', () => {
    for (const code of STORE_FEATURES) {
      for (const part of ['name', 'detail']) {
        const id = `feature.${code}.${part}`;
        expect(Object.hasOwn(en, id), id).toBe(true);
        expect(Object.hasOwn(frCA, id), id).toBe(true);
      }
    }
  });

  it('words a store feature in the page’s language', () => {
    const wording = featureWording({
      code: 'offline',
      name: 'Offline Reading',
      detail: 'Download the book and read without a connection.',
    });
    expect(shown(wording.name, 'en')).toBe('Offline Reading');
    expect(shown(wording.detail, 'en')).toBe('Download the book and read without a connection.');
    expect(shown(wording.name, 'fr-CA')).toBe('Lecture hors ligne');
    expect(shown(wording.detail, 'fr-CA')).toBe('Téléchargez le livre et lisez sans connexion.');
  });

  it('shows a feature without a store code as its source wrote it', () => {
    expect(featureWording({ code: null, name: 'Lab Simulations', detail: null })).toEqual({
      name: { text: 'Lab Simulations' },
      detail: null,
    });
    expect(
      featureWording({ code: 'hologram', name: 'Holograms', detail: 'In 3D.' }).detail,
    ).toEqual({ text: 'In 3D.' });
  });

  it('issue 19: a page promises only what our reader does: no offline reading, read aloud, highlights, flashcards or citations', () => {
    const row = (code: string | null, name = code ?? 'Publisher feature') => ({
      code,
      name,
      detail: null,
    });
    const rows = [
      row('read-aloud'),
      row('search'),
      row('highlights'),
      row('offline'),
      row('flashcards'),
      row('citations'),
      row('printing'),
      row(null, 'Glossary'),
      row('section-discussions'),
    ];
    expect(promisedFeatures(rows).map((f) => f.name)).toEqual([
      'search',
      'printing',
      'Glossary',
      'section-discussions',
    ]);
  });
});
