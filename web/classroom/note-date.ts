import type { Locale } from '#domain/accounts/language.ts';

/** A moment in the reader's own time zone and language ('Nov 25, 2026, 3:04 PM'). */
export function noteDate(locale: Locale, timeZone: string, iso: string): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(new Date(iso));
}
