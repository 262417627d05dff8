import type { Locale } from '#domain/accounts/language.ts';

// Building an Intl.NumberFormat costs far more than using one: one per locale and currency.
const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount as the shopper reads it (spec 2 §9: USD only, $0,0.00). In English "$52.99". In
 * Canadian French a bare "52,99 $" reads as Canadian dollars, so the currency is named the way
 * Intl writes it there: "52,99 $ US" (issue 38). Every page, mail, receipt and PDF says money
 * through this one function.
 */
export function formatMoney(locale: Locale, cents: number, currency = 'USD'): string {
  const key = `${locale}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale === 'fr-CA' ? 'fr-CA' : 'en-US', {
      style: 'currency',
      currency,
      currencyDisplay: 'symbol',
    });
    moneyFormats.set(key, format);
  }
  return format.format(cents / 100);
}
