import type { Locale } from '#domain/accounts/language.ts';

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
