import { Link, useLoaderData } from 'react-router';
import { billingTerms } from '#domain/operations/billing/billing-service.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/billing-terms.ts';

// /manage/billing (issue 39): the terms a campus's programme staff may bill (decision 037:
// the same people as Course Manager), each leading to its runs, preview and reconciliation.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  return { terms: await billingTerms(context.rc, scope), manyOrgs: scope.kind === 'all' };
}

export default function BillingTermsPage() {
  const { terms, manyOrgs } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{t('ops.billing.terms.heading')}</h1>
        <p>{t('ops.billing.terms.intro')}</p>
      </header>
      {terms.length === 0 ? (
        <p>{t('ops.billing.terms.none')}</p>
      ) : (
        <TableScroll label={t('ops.billing.terms.heading')}>
          <table className="data-table">
            <caption className="visually-hidden">{t('ops.billing.terms.heading')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ops.billing.terms.term')}</th>
                {manyOrgs ? <th scope="col">{t('ops.billing.terms.campus')}</th> : null}
                <th scope="col">{t('ops.billing.terms.starts')}</th>
                <th scope="col" className="num">
                  {t('ops.billing.terms.runs')}
                </th>
              </tr>
            </thead>
            <tbody>
              {terms.map((term) => (
                <tr key={term.id}>
                  <th scope="row">
                    <Link to={`/manage/billing/terms/${term.id}`}>{term.title}</Link>
                  </th>
                  {manyOrgs ? <td>{term.orgTitle}</td> : null}
                  <td>{term.startDate}</td>
                  <td className="num">{term.runs}</td>
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
  pageMeta(matches, 'ops.billing.terms.pageTitle');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
