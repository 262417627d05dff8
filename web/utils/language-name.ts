/** 'en' shown as 'English' (or 'anglais' in French); an unknown code as itself. */
export function languageName(locale: string, code: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
