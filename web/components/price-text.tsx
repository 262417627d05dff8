import { PRICE_LABEL_MESSAGE, type PriceLabel } from '#domain/catalog/price-label.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';

export function PriceText({ price }: { price: PriceLabel }) {
  const t = useT();
  const locale = useLocale();
  return (
    <span className="price">
      {price.kind === 'price'
        ? formatMoney(locale, price.cents, price.currency)
        : t(PRICE_LABEL_MESSAGE[price.kind])}
    </span>
  );
}
