import { IntlMessageFormat } from 'intl-messageformat';
import type { Locale } from '#domain/accounts/language.ts';
import { en, type MessageId } from './messages/en.ts';
import { frCA } from './messages/fr-CA.ts';

export type { MessageId };
export type MessageParams = Record<string, string | number>;

const catalogs: Record<Locale, Record<MessageId, string>> = { en, 'fr-CA': frCA };
const compiled = new Map<string, IntlMessageFormat>();

export function isMessageId(key: string): key is MessageId {
  return Object.hasOwn(en, key);
}

/** Formats a catalog message; an unknown id (a bug) shows the generic error text. */
export function translate(locale: Locale, id: string, params?: MessageParams): string {
  const key: MessageId = isMessageId(id) ? id : 'error.generic';
  const text = catalogs[locale][key];
  // Most messages are plain text: no ICU syntax to interpret (a hundred cards ask for four each).
  if (!text.includes('{') && !text.includes("'")) return text;
  const cacheKey = `${locale}\u0000${key}`;
  let format = compiled.get(cacheKey);
  if (!format) {
    format = new IntlMessageFormat(text, locale, undefined, { ignoreTag: true });
    compiled.set(cacheKey, format);
  }
  return String(format.format(params));
}

// Building an Intl.NumberFormat costs far more than using one: one per locale and currency.
const moneyFormats = new Map<string, Intl.NumberFormat>();

export function formatMoney(locale: Locale, cents: number, currency = 'USD'): string {
  const key = `${locale}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    // spec 2 §9: USD only, $0,0.00.
    format = new Intl.NumberFormat(locale === 'fr-CA' ? 'fr-CA' : 'en-US', {
      style: 'currency',
      currency,
      currencyDisplay: locale === 'fr-CA' ? 'narrowSymbol' : 'symbol',
    });
    moneyFormats.set(key, format);
  }
  return format.format(cents / 100);
}
