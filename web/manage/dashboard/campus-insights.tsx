import { data, useLoaderData } from 'react-router';
import { campusInsights } from '#domain/operations/dashboard/service.ts';
import { adoptionPercent } from '#domain/operations/dashboard/term-figures.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/campus-insights.ts';
import { DashboardFilters } from './dashboard-filters.tsx';
import { dashboardQuery } from './dashboard-query.ts';

// /manage/campus-insights (issue 39, Campus Insights Beta): the term's figures of the
// Inclusive Dashboard grouped by department, with each department's adoption (the share of
// its students opted in). Same scope, same rules, same query.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const { scope } = requireTool(request, context, 'campusInsights');
  const query = dashboardQuery(new URL(request.url));
  if (!query) throw data({ messageKey: 'ops.dashboard.error.filter' }, { status: 400 });
  const view = await campusInsights(context.rc, scope, query);
  const adoption = (figures: Parameters<typeof adoptionPercent>[0]) => adoptionPercent(figures);
  return {
    choosesOrg: scope.kind === 'all',
    orgs: view.orgs,
    org: view.org,
    terms: view.terms,
    term: view.term,
    totals: { ...view.totals, adoption: adoption(view.totals) },
    sectionCount: view.sectionCount,
    departments: view.departments.map((d) => ({ ...d, adoption: adoption(d) })),
  };
});

export default function CampusInsightsPage() {
  const view = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const percent = (value: number | null) =>
    value === null ? '—' : new Intl.NumberFormat(locale, { style: 'percent' }).format(value / 100);
  const money = (cents: number) => formatMoney(locale, cents);
  const cells = (f: (typeof view.departments)[number] | typeof view.totals) => (
    <>
      <td className="num">{f.students}</td>
      <td className="num">{f.optedIn}</td>
      <td className="num">{f.optedOut}</td>
      <td className="num">{f.undecided}</td>
      <td className="num">{percent(f.adoption)}</td>
      <td className="num">{money(f.expectedBillingCents)}</td>
    </>
  );
  return (
    <section className="stack-lg term-dashboard">
      <header className="stack-sm">
        <h1>{t('menu.campusInsights')}</h1>
        <p>
          {view.term
            ? t('ops.dashboard.subtitle', { org: view.org?.title ?? '', term: view.term.title })
            : t('ops.dashboard.noTerms')}
        </p>
      </header>
      <DashboardFilters
        layout="insights"
        orgs={view.orgs}
        orgId={view.org?.id ?? null}
        choosesOrg={view.choosesOrg && view.orgs.length > 1}
        terms={view.terms}
        termId={view.term?.id ?? null}
        departments={[]}
        department={null}
        courseType={null}
      />
      {view.term ? (
        <section className="stack" aria-labelledby="insights-departments">
          <h2 id="insights-departments">{t('ops.dashboard.insights.heading')}</h2>
          <p className="field__hint" id="insights-help">
            {t('ops.dashboard.insights.help')} {t('ops.dashboard.help.undecided')}
          </p>
          {view.departments.length === 0 ? (
            <p>{t('ops.dashboard.noSections')}</p>
          ) : (
            <TableScroll label={t('ops.dashboard.insights.caption', { term: view.term.title })}>
              <table className="data-table" aria-describedby="insights-help">
                <caption className="visually-hidden">
                  {t('ops.dashboard.insights.caption', { term: view.term.title })}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{t('ops.dashboard.col.department')}</th>
                    <th scope="col" className="num">
                      {t('ops.dashboard.col.sectionCount')}
                    </th>
                    <th scope="col" className="num">
                      {t('ops.dashboard.col.students')}
                    </th>
                    <th scope="col" className="num">
                      {t('ops.dashboard.col.optedIn')}
                    </th>
                    <th scope="col" className="num">
                      {t('ops.dashboard.col.optedOut')}
                    </th>
                    <th scope="col" className="num">
                      {t('ops.dashboard.col.undecided')}
                    </th>
                    <th scope="col" className="num">
                      {t('ops.dashboard.col.adoption')}
                    </th>
                    <th scope="col" className="num">
                      {t('ops.dashboard.col.billing')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {view.departments.map((d) => (
                    <tr key={d.department}>
                      <th scope="row">{d.department}</th>
                      <td className="num">{d.sections}</td>
                      {cells(d)}
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">{t('ops.dashboard.total')}</th>
                    <td className="num">{view.sectionCount}</td>
                    {cells(view.totals)}
                  </tr>
                </tfoot>
              </table>
            </TableScroll>
          )}
        </section>
      ) : null}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'ops.dashboard.insights.pageTitle');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
