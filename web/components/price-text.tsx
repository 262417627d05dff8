import type { Locale } from '#domain/accounts/language.ts';
import { PRICE_LABEL_MESSAGE, type PriceLabel } from '#domain/catalog/price-label.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';

export function PriceText({ price }: { price: PriceLabel }) {
  return <PriceWords price={price} t={useT()} locale={useLocale()} />;
}

/** The price in words a list already asked for (no hooks per card: a hundred cards hydrate). */
export function PriceWords({
  price,
  t,
  locale,
}: {
  price: PriceLabel;
  t: (id: string) => string;
  locale: Locale;
}) {
  return (
    <span className="price">
      {price.kind === 'price'
        ? formatMoney(locale, price.cents, price.currency)
        : t(PRICE_LABEL_MESSAGE[price.kind])}
    </span>
  );
}
