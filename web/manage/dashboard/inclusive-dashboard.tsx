import { data, useLoaderData } from 'react-router';
import { termDashboard } from '#domain/operations/dashboard/service.ts';
import type { Figures } from '#domain/operations/dashboard/term-figures.ts';
import { sectionTitle } from '#domain/shelf/sections.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { sectionTitleText } from '#web/shelf/section-title-text.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/inclusive-dashboard.ts';
import { DashboardFilters } from './dashboard-filters.tsx';
import { dashboardQuery } from './dashboard-query.ts';
import { OptOutChart } from './opt-out-chart.tsx';

// /manage/inclusive-dashboard (issue 39): the term at a glance for the campus's staff. Opens
// for whom the menu shows Inclusive Dashboard (navigation.ts); shows the organisations of
// their scope only (another campus's organisation or term id: not found).
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const { scope } = requireTool(request, context, 'inclusiveDashboard');
  const query = dashboardQuery(new URL(request.url));
  if (!query) throw data({ messageKey: 'ops.dashboard.error.filter' }, { status: 400 });
  const view = await termDashboard(context.rc, scope, query);
  return {
    query,
    choosesOrg: scope.kind === 'all',
    orgs: view.orgs,
    org: view.org,
    terms: view.terms,
    term: view.term,
    departments: view.departments,
    totals: view.totals,
    optOuts: view.optOuts,
    rows: view.rows.map((row) => ({
      id: row.section.id,
      title: sectionTitle({
        department: row.section.department,
        courseNumber: row.section.courseNumber,
        courseCode: row.section.courseCode,
        sectionNumber: row.section.sectionNumber,
      }),
      students: row.students,
      optedIn: row.optedIn,
      optedOut: row.optedOut,
      undecided: row.undecided,
      expectedBillingCents: row.expectedBillingCents,
      daysToDeadline: row.daysToDeadline,
    })),
  };
});

function FigureCells({ figures }: { figures: Figures }) {
  return (
    <>
      <td className="num">{figures.students}</td>
      <td className="num">{figures.optedIn}</td>
      <td className="num">{figures.optedOut}</td>
      <td className="num">{figures.undecided}</td>
    </>
  );
}

export default function InclusiveDashboardPage() {
  const view = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const money = (cents: number) => formatMoney(locale, cents);
  return (
    <section className="stack-lg term-dashboard">
      <header className="stack-sm">
        <h1>{t('menu.inclusiveDashboard')}</h1>
        <p>
          {view.term
            ? t('ops.dashboard.subtitle', { org: view.org?.title ?? '', term: view.term.title })
            : t('ops.dashboard.noTerms')}
        </p>
      </header>
      <DashboardFilters
        layout="dashboard"
        orgs={view.orgs}
        orgId={view.org?.id ?? null}
        choosesOrg={view.choosesOrg && view.orgs.length > 1}
        terms={view.terms}
        termId={view.term?.id ?? null}
        departments={view.departments}
        department={view.query.department}
        courseType={view.query.courseType}
      />
      {view.term ? (
        <>
          <section className="stack" aria-labelledby="dashboard-sections">
            <h2 id="dashboard-sections">{t('ops.dashboard.sections')}</h2>
            <p className="field__hint" id="dashboard-help">
              {t('ops.dashboard.help.undecided')} {t('ops.dashboard.help.billing')}
            </p>
            {view.rows.length === 0 ? (
              <p>{t('ops.dashboard.noSections')}</p>
            ) : (
              <TableScroll label={t('ops.dashboard.caption', { term: view.term.title })}>
                <table className="data-table" aria-describedby="dashboard-help">
                  <caption className="visually-hidden">
                    {t('ops.dashboard.caption', { term: view.term.title })}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('ops.dashboard.col.section')}</th>
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
                      <th scope="col">{t('ops.dashboard.col.deadline')}</th>
                      <th scope="col" className="num">
                        {t('ops.dashboard.col.billing')}
                      </th>
                      <th scope="col">{t('ops.dashboard.col.csv')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {view.rows.map((row) => {
                      const title = sectionTitleText(t, row.title);
                      return (
                        <tr key={row.id}>
                          <th scope="row">{title}</th>
                          <FigureCells figures={row} />
                          <td>
                            {row.daysToDeadline === null
                              ? t('ops.dashboard.deadlinePassed')
                              : t('ops.dashboard.daysLeft', { count: row.daysToDeadline })}
                          </td>
                          <td className="num">{money(row.expectedBillingCents)}</td>
                          <td>
                            <a
                              href={`/manage/sections/${row.id}/opt-status.csv`}
                              download
                              aria-label={t('ops.dashboard.csvLabel', { section: title })}
                            >
                              {t('ops.dashboard.csv')}
                            </a>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                  <tfoot>
                    <tr>
                      <th scope="row">{t('ops.dashboard.total')}</th>
                      <FigureCells figures={view.totals} />
                      <td />
                      <td className="num">{money(view.totals.expectedBillingCents)}</td>
                      <td />
                    </tr>
                  </tfoot>
                </table>
              </TableScroll>
            )}
          </section>
          <section className="stack" aria-labelledby="dashboard-chart">
            <h2 id="dashboard-chart">{t('ops.dashboard.chart.title')}</h2>
            <p className="field__hint">{t('ops.dashboard.help.chart')}</p>
            <OptOutChart points={view.optOuts} />
          </section>
        </>
      ) : null}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'ops.dashboard.pageTitle');

// Forbidden, a filter no form sends, another campus's organisation: the site's error page.
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
