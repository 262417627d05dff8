import { useId } from 'react';
import type { OfferingPanel } from '#domain/catalog/offering-selection.ts';
import {
  digitalAccessEndsAt,
  isFreeOffering,
  type OfferingGroup,
  offeringGroup,
  offeringNameWords,
} from '#domain/catalog/offering-terms.ts';
import type { ProductOffering } from '#domain/catalog/service.ts';
import { offeringPriceCents } from '#domain/commerce/cart-button.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useLocale, useT, useTimeZone } from '#web/i18n/use-t.ts';

const GROUPS: readonly OfferingGroup[] = ['digital', 'combo', 'print'];

// The offering options panel of the product page sidebar (spec 1 §2, §4): a choice of
// offerings, cheapest first, labelled 'DURATION' or 'PURCHASE OPTIONS'. Issue 19: digital apart
// from print, each saying what it gives in plain words (offering-terms.ts); a rental says the
// day it would end if bought today (in the shopper's time zone) and what happens then.
export function OfferingOptions({
  offerings,
  panel,
  selectedId,
  locked = false,
  onSelect,
  now,
}: {
  offerings: ProductOffering[];
  panel: OfferingPanel;
  selectedId: number | null;
  /** In the cart already (spec 1 §4: selection is disabled once the item is in the cart). */
  locked?: boolean;
  onSelect?: (offeringId: number) => void;
  /** "Today" for a rental's end (the page's time, so server and browser agree). */
  now?: string;
}) {
  const t = useT();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const ids = useId();
  if (!panel.visible) return null;
  const today = now ? new Date(now) : new Date();
  // Made only for a rental's end date: the page's first Intl.DateTimeFormat with a time zone
  // loads the zone's data, 5 to 14 ms of main thread while a product page hydrates (issue 13).
  let day: Intl.DateTimeFormat | null = null;
  const dayOf = (date: Date) => {
    day ??= new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone });
    return day.format(date);
  };
  const groups = GROUPS.map((group) => ({
    group,
    offerings: offerings.filter((offering) => offeringGroup(offering.type) === group),
  })).filter((entry) => entry.offerings.length > 0);
  // One group needs no heading of its own: the panel's label says it all.
  const headed = groups.length > 1;
  return (
    <fieldset className="offerings" disabled={panel.disabled || locked}>
      <legend className="offerings__label">{t(panel.labelKey)}</legend>
      {groups.map(({ group, offerings: shown }) => {
        const whenEndsId = `${ids}-${group}-ends`;
        const rents = shown.some((offering) => digitalAccessEndsAt(offering, today) !== null);
        const prints = shown.some((offering) => offering.type === 'print');
        const options = shown.map((offering) => {
          const priceCents = offeringPriceCents(offering);
          const endsAt = digitalAccessEndsAt(offering, today);
          const hintId = `${ids}-${offering.id}-hint`;
          return (
            <div key={offering.id} className="offerings__choice">
              <label className="offerings__option">
                <input
                  type="radio"
                  name="offeringId"
                  value={offering.id}
                  aria-describedby={endsAt ? `${hintId} ${whenEndsId}` : undefined}
                  // Controlled where a form follows the choice; a display-only list stays free.
                  {...(onSelect
                    ? { checked: offering.id === selectedId, onChange: () => onSelect(offering.id) }
                    : { defaultChecked: offering.id === selectedId })}
                />
                <span className="offerings__name">{offeringNameWords(t, offering)}</span>{' '}
                <span className="offerings__price">
                  {isFreeOffering(priceCents)
                    ? t('offering.free')
                    : formatMoney(locale, priceCents, offering.currencyCode)}
                </span>
              </label>
              {endsAt ? (
                <p id={hintId} className="form-hint offerings__hint">
                  {t('offering.endsOn', { date: dayOf(endsAt) })}
                </p>
              ) : null}
            </div>
          );
        });
        const notes = (
          <>
            {rents ? (
              <p id={whenEndsId} className="form-hint">
                {t('offering.whenEnds')}
              </p>
            ) : null}
            {prints ? <p className="form-hint">{t('checkout.note.printShipping')}</p> : null}
          </>
        );
        return headed ? (
          <fieldset key={group} className="offerings__group">
            <legend className="offerings__group-label">{t(`offering.group.${group}`)}</legend>
            {options}
            {notes}
          </fieldset>
        ) : (
          <div key={group} className="offerings__group">
            {options}
            {notes}
          </div>
        );
      })}
    </fieldset>
  );
}
