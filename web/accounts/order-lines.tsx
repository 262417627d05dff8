import { offeringNameWords } from '#domain/catalog/offering-terms.ts';
import type { OrderSummary } from '#domain/commerce/my-orders.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { OrderAmounts } from '#web/commerce/order-amounts.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';

/**
 * An order's items, each with the offering bought in words ("180-day rental", "Print copy,
 * shipped"), and its amounts: subtotal, platform fee, tax when there is some, total (issue 20).
 * The orders list and the receipt both show an order through this one component.
 */
export function OrderLines({
  order,
}: {
  order: Pick<OrderSummary, 'number' | 'items' | 'amounts'>;
}) {
  const t = useT();
  const locale = useLocale();
  const money = (cents: number) => formatMoney(locale, cents, 'USD');
  return (
    <>
      <table className="receipt-lines">
        <caption className="visually-hidden">
          {t('orders.itemsOf', { number: order.number })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('receipt.item')}</th>
            <th scope="col">{t('receipt.amount')}</th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item, index) => {
            return (
              <tr key={`${item.productId}-${index}`}>
                <td>
                  <span className="cart-line__title">{item.title}</span>
                  <br />
                  <span className="cart-line__term">{offeringNameWords(t, item.term)}</span>
                </td>
                <td>{money(item.priceCents)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <OrderAmounts rows={order.amounts} />
    </>
  );
}
