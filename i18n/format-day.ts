import type { Locale } from '#domain/accounts/language.ts';

/** The two ways a calendar day is written in words: month spelled out, or shortened. */
export type DayStyle = 'long' | 'medium';

const formats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(locale: Locale, style: DayStyle): Intl.DateTimeFormat {
  const key = `${locale}:${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: style === 'long' ? 'long' : 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * A calendar day in words, the store's one way of writing a date-only value: "May 1, 2026" or
 * "Sep 1, 2031" (medium); in French « 1er mai 2026 », « 1er sept. 2031 », as French writes the
 * first of a month (an ordinal, which Intl does not write). The value is the day as the domain
 * keeps it, YYYY-MM-DD (that day, wherever the reader is), or a time in milliseconds (its day
 * in UTC); any other text is shown as it is.
 */
export function formatDay(
  locale: Locale,
  value: string | number,
  style: DayStyle = 'long',
): string {
  const at =
    typeof value === 'number'
      ? value
      : /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? Date.parse(`${value}T00:00:00Z`)
        : Number.NaN;
  if (!Number.isFinite(at)) return String(value);
  const format = dayFormat(locale, style);
  if (!locale.startsWith('fr') || new Date(at).getUTCDate() !== 1) return format.format(at);
  return format
    .formatToParts(at)
    .map((part) => (part.type === 'day' ? `${part.value}er` : part.value))
    .join('');
}
