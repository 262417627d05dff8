// Pages name the language in their loader, on the server: the browser's first Intl.DisplayNames
// loads its language names, about 70 ms of main thread while a page hydrates (issue 13). The
// product side sheet, a dialog opened on demand, names it in the browser.

/** 'en' shown as 'English' (or 'anglais' in French); an unknown code as itself. */
export function languageName(locale: string, code: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
