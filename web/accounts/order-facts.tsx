import type { OrderSummary } from '#domain/commerce/my-orders.ts';
import { paidWithMessage } from '#domain/commerce/payment-card.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useLocale, useT, useTimeZone } from '#web/i18n/use-t.ts';

/**
 * When an order was placed (in the account's time zone), its state, the card that paid (brand
 * and last four digits) and its refunds (issue 20). `withTime` adds the time, as a receipt does.
 */
export function OrderFacts({
  order,
  withTime = false,
}: {
  order: OrderSummary;
  withTime?: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const when = (at: Date | string, time: boolean) =>
    new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      // A time says its zone (the account's): "November 27, 2026 at 11:19 AM EST".
      ...(time ? { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' } : {}),
      timeZone,
    }).format(new Date(at));
  const paidWith = order.card ? paidWithMessage(order.card) : null;
  return (
    <>
      <ul className="stack-sm order-facts">
        <li>
          {withTime
            ? t('receipt.dateTime', { date: when(order.placedAt, true) })
            : t('order.date', { date: when(order.placedAt, false) })}
        </li>
        <li>{t('orders.status', { status: t(`orders.status.${order.status}`) })}</li>
        {paidWith ? <li>{t(paidWith.key, paidWith.params)}</li> : null}
      </ul>
      {order.refunds.length > 0 ? (
        <div className="stack-sm">
          <h3>{t('orders.refunds')}</h3>
          <ul className="order-facts">
            {order.refunds.map((refund, index) => (
              <li key={`${new Date(refund.at).toISOString()}-${index}`}>
                {t('orders.refund', {
                  amount: formatMoney(locale, refund.amountCents, 'USD'),
                  date: when(refund.at, false),
                })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
