import { Link, useLoaderData } from 'react-router';
import { pageNumber } from '#domain/catalog/pagination.ts';
import { myOrders } from '#domain/commerce/my-orders.ts';
import { Pagination } from '#web/components/pagination.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/orders.ts';
import { OrderFacts } from './order-facts.tsx';
import { OrderLines } from './order-lines.tsx';

// /account/orders (issue 20, Orders and receipts): the signed-in user's orders, newest first,
// ten a page: date, items with their offering, amounts, card, status, refunds, and the receipt.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  requireUser(request, context);
  const page = pageNumber(new URL(request.url).searchParams.get('page'));
  return await myOrders(context.rc, page);
});

export default function OrdersPage() {
  const { orders, page, pages, count } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="narrow stack">
      <p>
        <Link to="/account">{t('orders.backToAccount')}</Link>
      </p>
      <h1>{t('orders.title')}</h1>
      {count === 0 ? (
        <p>{t('orders.empty')}</p>
      ) : (
        <>
          <p>
            {t('orders.intro')} {t('orders.count', { count })}
          </p>
          <ul className="stack order-list">
            {orders.map((order) => (
              <li key={order.id} className="stack-sm order-card">
                <h2>{t('order.number', { number: order.number })}</h2>
                <OrderFacts order={order} />
                <OrderLines order={order} />
                <p>
                  <Link
                    to={`/account/orders/${order.id}`}
                    aria-label={t('orders.receiptOf', { number: order.number })}
                  >
                    {t('orders.receipt')}
                  </Link>
                </p>
              </li>
            ))}
          </ul>
          <Pagination
            page={page}
            pages={pages}
            href={(target) => `/account/orders?page=${target}`}
          />
        </>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'orders.title');
