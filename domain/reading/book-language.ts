// The language a book is written in, for the reader's text (issue 13): screen readers pick
// their voice from `lang`, and a right-to-left book needs `dir`, whatever the page's own
// language is (an English book read on a French page). The book's own metadata wins (EPUB
// dc:language and its spine's page-progression-direction), then the product's language.

export type BookLanguage = { lang: string; dir: 'ltr' | 'rtl' };

// BCP 47 as HTML's lang takes it: a 2-3 letter language, then subtags (script, region…).
const TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
// Languages written right to left (their usual script), and right-to-left scripts.
const RTL_LANGUAGES = new Set([
  'ar',
  'arc',
  'ckb',
  'dv',
  'fa',
  'he',
  'iw',
  'ks',
  'ps',
  'sd',
  'syr',
  'ug',
  'ur',
  'yi',
]);
const RTL_SCRIPTS = new Set([
  'arab',
  'hebr',
  'thaa',
  'syrc',
  'nkoo',
  'adlm',
  'rohg',
  'mand',
  'samr',
]);
const LTR_SCRIPTS = new Set(['latn', 'cyrl', 'grek', 'deva', 'hans', 'hant', 'jpan', 'kore']);

function direction(tag: string): 'ltr' | 'rtl' {
  const [language = '', ...subtags] = tag.toLowerCase().split('-');
  const script = subtags.find((subtag) => /^[a-z]{4}$/.test(subtag));
  if (script && RTL_SCRIPTS.has(script)) return 'rtl';
  if (script && LTR_SCRIPTS.has(script)) return 'ltr';
  return RTL_LANGUAGES.has(language) ? 'rtl' : 'ltr';
}

/** The book's language and direction, or null when neither source names a valid language. */
export function bookLanguage(input: {
  /** The EPUB's dc:language (its first), if any. */
  metadataLanguage?: string | null;
  /** The EPUB spine's page-progression-direction, if given. */
  pageProgression?: string | null;
  /** The product's language code. */
  productLanguage?: string | null;
}): BookLanguage | null {
  const lang = [input.metadataLanguage, input.productLanguage]
    .map((value) => value?.trim() ?? '')
    .find((value) => TAG.test(value));
  if (!lang) return null;
  const progression = input.pageProgression?.trim().toLowerCase();
  const dir = progression === 'rtl' || progression === 'ltr' ? progression : direction(lang);
  return { lang, dir };
}
