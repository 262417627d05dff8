import { Link, useLoaderData } from 'react-router';
import { offeringNameWords } from '#domain/catalog/offering-terms.ts';
import { completedOrder } from '#domain/commerce/checkout.ts';
import { shippingCents } from '#domain/commerce/fulfilment-rules.ts';
import { paidWithMessage } from '#domain/commerce/payment-card.ts';
import { receiptAmounts } from '#domain/commerce/receipt-amounts.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { OrderAmounts } from '#web/commerce/order-amounts.tsx';
import { useLocale, useT, useTimeZone } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/checkout-complete.ts';

// /checkout/complete/{order_id}: what was bought and where to find it; its owner only. Issue
// 19: the order's number, date (in the buyer's time zone) and card (last four), each item's
// offering in plain words, subtotal, fee and total, and what happens next: an order without
// anything digital does not say its items are on the shelf.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  requireUser(request, context);
  return { order: await completedOrder(context.rc, params.orderId) };
});

export default function CheckoutCompletePage() {
  const { order } = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const day = (at: Date | string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone }).format(new Date(at));
  const paidWith = order.card ? paidWithMessage(order.card) : null;
  return (
    <section className="narrow stack">
      <h1>{t('checkout.complete.title')}</h1>
      {order.recovered ? (
        // An earlier press of Pay went through while its answer was lost (issue 37).
        <p className="alert alert--success">
          {t('checkout.earlier.paid', { amount: formatMoney(locale, order.totalCents, 'USD') })}
        </p>
      ) : null}
      <p>
        {t(order.next.onShelf ? 'checkout.complete.intro' : 'order.introNoDigital')}
        {order.next.printed ? ` ${t('order.printOnDemand')}` : null}
        {order.next.posted ? ` ${t('order.posted')}` : null}
      </p>
      <ul className="stack-sm order-facts">
        <li>{t('order.number', { number: order.number })}</li>
        {order.placedAt ? <li>{t('order.date', { date: day(order.placedAt) })}</li> : null}
        {paidWith ? <li>{t(paidWith.key, paidWith.params)}</li> : null}
      </ul>
      <ul className="stack cart-lines">
        {order.items.map((item) => (
          <li key={item.productId} className="cart-line">
            <div className="stack-sm">
              <Link to={`/product-detail/${item.productId}`}>{item.title}</Link>
              <p className="cart-line__term">{offeringNameWords(t, item.term)}</p>
              {item.isDigital ? (
                <p className="form-hint">
                  {t('checkout.complete.onShelf')}{' '}
                  {item.readable ? (
                    <Link
                      to={`/book/read/${item.productId}`}
                      aria-label={t('shelf.button.of', {
                        action: t('checkout.complete.read'),
                        title: item.title,
                      })}
                    >
                      {t('checkout.complete.read')}
                    </Link>
                  ) : item.noFile ? (
                    t('reading.error.noFile')
                  ) : item.fromShelf ? (
                    <Link
                      to="/shelf"
                      aria-label={t('shelf.button.of', {
                        action: t('library.toShelf'),
                        title: item.title,
                      })}
                    >
                      {t('library.toShelf')}
                    </Link>
                  ) : null}
                </p>
              ) : null}
              {item.shipment?.status ? (
                <p className="form-hint">
                  {item.shipment.trackingNumber
                    ? t('checkout.complete.tracking', {
                        carrier: item.shipment.carrier ?? '',
                        number: item.shipment.trackingNumber,
                      })
                    : t('checkout.complete.ships')}
                  {item.shipment.rentalDueAt
                    ? ` ${t('checkout.complete.rentalDue', { date: day(item.shipment.rentalDueAt) })}`
                    : null}
                </p>
              ) : null}
              {item.printOrder?.earliestDeliveryAt && item.printOrder.latestDeliveryAt ? (
                <p className="form-hint">
                  {t('checkout.complete.printed', {
                    from: day(item.printOrder.earliestDeliveryAt),
                    to: day(item.printOrder.latestDeliveryAt),
                  })}
                </p>
              ) : null}
            </div>
            <span>{formatMoney(locale, item.priceCents, 'USD')}</span>
          </li>
        ))}
      </ul>
      <OrderAmounts
        rows={receiptAmounts({
          lineCents: order.items.map((item) => item.priceCents),
          feeCents: order.feeCents,
          shippingCents: shippingCents(
            order.items.map((item) => item.term.type),
            order.shippingCents,
          ),
        })}
      />
      <p className="cluster">
        <Link to="/shelf" className="button button--primary">
          {t('library.toShelf')}
        </Link>
        {/* Issue 20: the order's receipt on My Account. */}
        <Link to={`/account/orders/${order.id}`} className="button button--secondary">
          {t('checkout.complete.receipt')}
        </Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'checkout.complete.title');
