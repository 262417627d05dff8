import { Form, Link, useActionData, useLoaderData } from 'react-router';
import { createTerm, termList } from '#domain/courses/course-admin-service.ts';
import { runningStatusLabel } from '#domain/courses/running-status.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/terms.ts';
import { type FormAnswer, TermForm } from './course-forms.ts';
import { CourseManagerNav } from './course-manager-nav.tsx';
import { DoneNotice } from './done-notice.tsx';
import { OrganisationField } from './organisation-field.tsx';
import { OrganisationFilter } from './organisation-filter.tsx';
import { createInOrganisation, organisationList } from './organisation-list.server.ts';
import { TermFields } from './term-fields.tsx';

// Issue 39, Course Manager (/manage/course-manager) and Course Admin (/manage/course-admin):
// the terms of the person's organisation (a manager: of every organisation, filtered by one),
// newest first, and a form to make one. Opens for whom either menu item shows to.
export const loader = withDomainErrors(({ request, context }: Route.LoaderArgs) =>
  organisationList(request, context, (orgId) => termList(context.rc, { orgId })),
);

export const action = withDomainErrors(({ request, context }: Route.ActionArgs) =>
  createInOrganisation(
    request,
    context,
    TermForm,
    (input) => createTerm(context.rc, input),
    (id) => `/manage/course-manager/terms/${id}?done=termCreated`,
  ),
);

export default function TermsPage() {
  const {
    orgs,
    storeWide,
    orgFilter,
    rows: terms,
    done,
    csrfToken,
  } = useLoaderData<typeof loader>();
  const result = useActionData<FormAnswer>();
  const t = useT();
  const errors = result?.errors ?? {};
  const values = result?.values ?? {};
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{t('ops.courses.terms.heading')}</h1>
        <CourseManagerNav />
      </header>
      <DoneNotice done={done} />
      {storeWide ? <OrganisationFilter orgs={orgs} orgFilter={orgFilter} /> : null}
      {terms.length === 0 ? (
        <p>{t('ops.courses.terms.none')}</p>
      ) : (
        <TableScroll label={t('ops.courses.terms.heading')}>
          <table className="data-table">
            <caption className="visually-hidden">{t('ops.courses.terms.heading')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ops.courses.field.termTitle')}</th>
                {storeWide ? <th scope="col">{t('ops.courses.field.organisation')}</th> : null}
                <th scope="col">{t('ops.courses.field.termType')}</th>
                <th scope="col">{t('ops.courses.dates')}</th>
                <th scope="col">{t('ops.courses.sections')}</th>
                <th scope="col">{t('ops.courses.status')}</th>
              </tr>
            </thead>
            <tbody>
              {terms.map((term) => (
                <tr key={term.id}>
                  <th scope="row">
                    <Link to={`/manage/course-manager/terms/${term.id}`}>{term.title}</Link>
                  </th>
                  {storeWide ? <td>{term.orgTitle}</td> : null}
                  <td>{t(`ops.courses.termType.${term.termType}`)}</td>
                  <td>
                    {t('ops.courses.dateRange', { start: term.startDate, end: term.endDate })}
                  </td>
                  <td>{term.sectionCount}</td>
                  <td>{t(runningStatusLabel(term.status))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <section className="stack" aria-labelledby="new-term">
        <h2 id="new-term">{t('ops.courses.terms.new')}</h2>
        <Form method="post" className="stack narrow" noValidate>
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          {storeWide ? (
            <OrganisationField
              orgs={orgs}
              defaultValue={values.orgId ?? (orgFilter === null ? '' : String(orgFilter))}
              error={errors.orgId}
            />
          ) : null}
          <TermFields values={values} errors={errors} />
          <p>
            <button type="submit" className="button button--primary">
              {t('ops.courses.terms.create')}
            </button>
          </p>
        </Form>
      </section>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'ops.courses.terms.pageTitle');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
