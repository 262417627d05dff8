import { isMessageWording, type Wording } from '#domain/shared/wording.ts';
import { useContentLang } from './content-lang.ts';
import { useT } from './use-t.ts';

/**
 * Shows a Wording (domain/shared/wording.ts): the store's words as the catalog message in the
 * page's language, a source's own text as given, marked with the source's language when it is
 * not the page's (`language`: the product's language code).
 */
export function WordingText({ wording, language }: { wording: Wording; language: string }) {
  const t = useT();
  const langOf = useContentLang();
  if (isMessageWording(wording)) return t(wording.message, wording.values);
  const lang = langOf(language);
  return lang.lang ? <span {...lang}>{wording.text}</span> : wording.text;
}
