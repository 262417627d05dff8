import { bookLanguage } from '#domain/reading/book-language.ts';
import { useLocale } from './use-t.ts';

export type LangAttributes = { lang?: string; dir?: 'ltr' | 'rtl' };

/**
 * The `lang` (and `dir`) of a product's own text — its title, subtitle, description, a
 * publisher's feature or summary — on a page in `pageLocale` (WCAG 3.1.2 Language of Parts,
 * issue 13): the product's language where it is another language than the page's, so that a
 * screen reader reads an English title on a French page with an English voice; nothing where
 * the languages are the same (fr on a fr-CA page) or the product's language is not a tag.
 */
export function contentLang(
  language: string | null | undefined,
  pageLocale: string,
): LangAttributes {
  const content = bookLanguage({ productLanguage: language });
  const page = bookLanguage({ productLanguage: pageLocale });
  if (!content || !page) return {};
  const primary = (tag: string) => tag.split('-')[0]!.toLowerCase();
  if (primary(content.lang) === primary(page.lang)) return {};
  return content.dir === page.dir ? { lang: content.lang } : content;
}

/** contentLang for the current page: spread its result on the element holding the text. */
export function useContentLang(): (language: string | null | undefined) => LangAttributes {
  const locale = useLocale();
  return (language) => contentLang(language, locale);
}
