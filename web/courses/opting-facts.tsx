import type { OptingFacts as OptingFactsData } from '#domain/courses/service.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';

/**
 * What the student decides on, where they decide it (issue 19, "Opting blind"): the course
 * fee, the materials it includes by title and type with each one's price bought separately
 * (or that it is not sold separately), the total bought separately, the saving, and the
 * deadline's date and time in the course's time zone. The opting banner's Learn More and the
 * dialog's details step show it.
 */
export function OptingFacts({ facts, id }: { facts: OptingFactsData; id: string }) {
  const t = useT();
  const locale = useLocale();
  const money = (cents: number) => formatMoney(locale, cents, facts.fee.currencyCode);
  const { fee } = facts;
  const total = fee.included.length;
  const partial = fee.soldSeparatelyCount < total;
  return (
    <div className="opting-facts stack-sm" id={id}>
      <p className="opting-facts__fee">
        {fee.feeCents === null
          ? t('opting.facts.noFee')
          : t('opting.facts.fee', { amount: money(fee.feeCents) })}
      </p>
      {total === 0 ? (
        <p>{t('opting.facts.none')}</p>
      ) : (
        <>
          <p>{t('opting.facts.includes')}</p>
          <ul className="opting-facts__list">
            {fee.included.map((material) => {
              const type = t('opting.facts.type', { type: material.productType });
              return (
                <li key={material.productId}>
                  {material.separateCents === null
                    ? t('opting.facts.itemNotSold', { title: material.title, type })
                    : t('opting.facts.itemPrice', {
                        title: material.title,
                        type,
                        price: money(material.separateCents),
                      })}
                </li>
              );
            })}
          </ul>
          {fee.soldSeparatelyCount > 0 ? (
            <p>
              {partial
                ? t('opting.facts.separatePartial', {
                    count: fee.soldSeparatelyCount,
                    total,
                    amount: money(fee.separateTotalCents),
                  })
                : t('opting.facts.separate', { amount: money(fee.separateTotalCents) })}
            </p>
          ) : null}
          {fee.savingCents !== null ? (
            <p>
              {t(partial ? 'opting.facts.savingAtLeast' : 'opting.facts.saving', {
                amount: money(fee.savingCents),
              })}
            </p>
          ) : null}
        </>
      )}
      <p className="opting-facts__deadline">
        {t('opting.facts.deadline', { date: facts.deadline })}
      </p>
    </div>
  );
}
