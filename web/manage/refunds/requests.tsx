import { Link, useLoaderData } from 'react-router';
import { refundRequestQueue } from '#domain/commerce/refunds-views.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/requests.ts';

// /manage/refund-requests (issue 39): the buyers' refund requests beyond the Refund Policy,
// oldest first, for support to answer on each order's page. Same people as the order page;
// only the requests of buyers inside the staff member's organisations.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const { user, scope } = requireTool(request, context, 'users', 'myUsers');
  return { requests: await refundRequestQueue(context.rc, scope), timeZone: user.timeZone };
});

export default function RefundRequestsPage() {
  const { requests, timeZone } = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{t('ops.refunds.queue.heading')}</h1>
        <p>{t('ops.refunds.queue.intro')}</p>
      </header>
      {requests.length === 0 ? (
        <p>{t('ops.refunds.queue.empty')}</p>
      ) : (
        <TableScroll label={t('ops.refunds.queue.heading')}>
          <table className="data-table">
            <caption className="visually-hidden">{t('ops.refunds.queue.heading')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ops.refunds.queue.requested')}</th>
                <th scope="col">{t('ops.refunds.queue.order')}</th>
                <th scope="col">{t('ops.refunds.queue.buyer')}</th>
                <th scope="col">{t('ops.refunds.order.item')}</th>
                <th scope="col">{t('ops.refunds.order.amount')}</th>
                <th scope="col">{t('ops.refunds.queue.why')}</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((request) => (
                <tr key={request.orderItemId}>
                  <td>{when.format(new Date(request.createdAt))}</td>
                  <td>
                    <Link to={`/manage/orders/${request.orderId}`}>{request.number}</Link>
                  </td>
                  <td>{request.buyerEmail}</td>
                  <td>{request.title}</td>
                  <td>{formatMoney(locale, request.amountCents, 'USD')}</td>
                  <td>{request.rule ? t(request.rule) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'ops.refunds.queue.pageTitle');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
