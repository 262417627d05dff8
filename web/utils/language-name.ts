import { UNDETERMINED_LANGUAGE } from '#domain/catalog/onix/language.ts';

// Pages name the language in their loader, on the server: the browser's first Intl.DisplayNames
// loads its language names, about 70 ms of main thread while a page hydrates (issue 13). The
// product side sheet, a dialog opened on demand, names it in the browser.

/**
 * 'en' shown as 'English' (or 'anglais' in French); an unknown code as itself; 'und' (a feed
 * that names no language) as nothing, so that no page claims one.
 */
export function languageName(locale: string, code: string): string | null {
  if (code === UNDETERMINED_LANGUAGE) return null;
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
