import { Link, useLoaderData } from 'react-router';
import { completedOrder } from '#domain/commerce/checkout.ts';
import { formatMoney } from '#i18n/translate.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
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
  return (
    <section className="narrow stack">
      <h1>{t('checkout.complete.title')}</h1>
      <p>{t('checkout.complete.intro')}</p>
      <ul className="stack cart-lines">
        {order.items.map((item) => (
          <li key={item.productId} className="cart-line">
            <Link to={`/product-detail/${item.productId}`}>{item.title}</Link>
            <span>{formatMoney(locale, item.priceCents, 'USD')}</span>
          </li>
        ))}
      </ul>
      <p className="cart-subtotal">
        {t('checkout.total')}: <strong>{formatMoney(locale, order.totalCents, 'USD')}</strong>
      </p>
      <p>
        <Link to="/library" className="button button--primary">
          {t('library.toShelf')}
        </Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'checkout.complete.title');
