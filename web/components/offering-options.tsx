import type { OfferingPanel } from '#domain/catalog/offering-selection.ts';
import type { ProductOffering } from '#domain/catalog/service.ts';
import { offeringPriceCents } from '#domain/commerce/cart-button.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';

// The offering options panel of the product page sidebar (spec 1 §2, §4): a choice of
// offerings, cheapest first, labelled 'DURATION' or 'PURCHASE OPTIONS'.
export function OfferingOptions({
  offerings,
  panel,
  selectedId,
  locked = false,
  onSelect,
}: {
  offerings: ProductOffering[];
  panel: OfferingPanel;
  selectedId: number | null;
  /** In the cart already (spec 1 §4: selection is disabled once the item is in the cart). */
  locked?: boolean;
  onSelect?: (offeringId: number) => void;
}) {
  const t = useT();
  const locale = useLocale();
  if (!panel.visible) return null;
  return (
    <fieldset className="offerings" disabled={panel.disabled || locked}>
      <legend className="offerings__label">{t(panel.labelKey)}</legend>
      {offerings.map((offering) => {
        const length =
          offering.type === 'digital'
            ? offering.durationDays
              ? t('offering.days', { days: offering.durationDays })
              : t('offering.perpetual')
            : offering.isRental
              ? t('offering.rental')
              : null;
        return (
          <label key={offering.id} className="offerings__option">
            <input
              type="radio"
              name="offeringId"
              value={offering.id}
              // Controlled where a form follows the choice; a display-only list stays free.
              {...(onSelect
                ? { checked: offering.id === selectedId, onChange: () => onSelect(offering.id) }
                : { defaultChecked: offering.id === selectedId })}
            />
            <span className="offerings__name">
              {t(`offering.type.${offering.type}`)}
              {length ? ` · ${length}` : null}
            </span>
            <span className="offerings__price">
              {formatMoney(locale, offeringPriceCents(offering), offering.currencyCode)}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
