import { useLocale } from './use-t.ts';

export type LangAttributes = { lang?: string; dir?: 'auto' };

// BCP 47 as HTML's lang takes it: a 2-3 letter language, then subtags (script, region…).
const TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
const primary = (tag: string) => tag.split('-')[0]!.toLowerCase();

/**
 * The `lang` (and `dir`) of a product's own text — its title, subtitle, description, a
 * publisher's feature or summary — on a page in `pageLocale` (WCAG 3.1.2 Language of Parts,
 * issue 13): the product's language where it is another language than the page's, so that a
 * screen reader reads an English title on a French page with an English voice; nothing where
 * the languages are the same (fr on a fr-CA page) or the product's language is not a tag.
 * `dir="auto"` isolates the foreign text and lets the browser take its direction from the text
 * itself (a title in Arabic reads right to left), without a table of scripts in every page's
 * JavaScript.
 */
export function contentLang(
  language: string | null | undefined,
  pageLocale: string,
): LangAttributes {
  const tag = language?.trim() ?? '';
  if (!TAG.test(tag) || primary(tag) === primary(pageLocale)) return {};
  return { lang: tag, dir: 'auto' };
}

/** contentLang for the current page: spread its result on the element holding the text. */
export function useContentLang(): (language: string | null | undefined) => LangAttributes {
  const locale = useLocale();
  return (language) => contentLang(language, locale);
}
