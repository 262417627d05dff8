import { Link, useLoaderData } from 'react-router';
import { completedOrder } from '#domain/commerce/checkout.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useLocale, useT, useTimeZone } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/checkout-complete.ts';

// /checkout/complete/{order_id}: what was bought and where to find it; its owner only.
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
  return (
    <section className="narrow stack">
      <h1>{t('checkout.complete.title')}</h1>
      <p>{t('checkout.complete.intro')}</p>
      <ul className="stack cart-lines">
        {order.items.map((item) => (
          <li key={item.productId} className="cart-line">
            <div className="stack-sm">
              <Link to={`/product-detail/${item.productId}`}>{item.title}</Link>
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
      <dl className="totals">
        {order.feeCents > 0 ? (
          <>
            <div>
              <dt>{t('cart.subtotal')}</dt>
              <dd>{formatMoney(locale, order.subtotalCents, 'USD')}</dd>
            </div>
            <div>
              <dt>{t('checkout.fee')}</dt>
              <dd>{formatMoney(locale, order.feeCents, 'USD')}</dd>
            </div>
          </>
        ) : null}
        <div className="totals__total">
          <dt>{t('checkout.total')}</dt>
          <dd>
            <strong>{formatMoney(locale, order.totalCents, 'USD')}</strong>
          </dd>
        </div>
      </dl>
      <p>
        <Link to="/shelf" className="button button--primary">
          {t('library.toShelf')}
        </Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'checkout.complete.title');
