import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { createTerm, organisationChoices, termList } from '#domain/courses/course-admin-service.ts';
import { TERM_TYPES } from '#domain/courses/section-rules.ts';
import { parseId } from '#domain/shared/id.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { fieldErrors } from '#web/forms/fields.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/terms.ts';
import { doneOf, TermForm, typedValues } from './course-forms.ts';
import { CourseManagerNav } from './course-manager-nav.tsx';
import { DoneNotice } from './done-notice.tsx';
import { SelectField } from './select-field.tsx';

type ActionResult = { errors: Record<string, string | undefined>; values: Record<string, string> };

// Issue 39, Course Manager (/manage/course-manager) and Course Admin (/manage/course-admin):
// the terms of the person's organisation (a manager: of every organisation, filtered by one),
// newest first, and a form to make one. Opens for whom either menu item shows to.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const { scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const orgFilter = parseId(new URL(request.url).searchParams.get('org'));
  const [orgs, terms] = await Promise.all([
    organisationChoices(context.rc),
    termList(context.rc, { orgId: orgFilter }),
  ]);
  return {
    orgs,
    storeWide: scope.kind === 'all',
    orgFilter,
    terms,
    done: doneOf(request.url),
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const { user } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const form = Object.fromEntries(await request.formData());
  const values = typedValues(form);
  const orgId = parseId(form.orgId) ?? (form.orgId === undefined ? user.orgId : null);
  const parsed = TermForm.safeParse(form);
  if (!parsed.success || orgId === null) {
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    if (orgId === null) errors.orgId = 'ops.courses.error.choice';
    return data<ActionResult>({ errors, values }, { status: 400 });
  }
  const saved = await createTerm(context.rc, { ...parsed.data, orgId });
  if (!saved.ok) return data<ActionResult>({ errors: saved.errors, values }, { status: 400 });
  return redirect(`/manage/course-manager/terms/${saved.id}?done=termCreated`);
});

export default function TermsPage() {
  const { orgs, storeWide, orgFilter, terms, done, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<ActionResult>();
  const t = useT();
  const locale = useLocale();
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const errors = result?.errors ?? {};
  const values = result?.values ?? {};
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{t('ops.courses.terms.heading')}</h1>
        <CourseManagerNav />
      </header>
      <DoneNotice done={done} />
      {storeWide ? (
        <Form method="get" className="cluster">
          <SelectField
            name="org"
            label={t('ops.courses.field.organisation')}
            defaultValue={orgFilter === null ? '' : String(orgFilter)}
            options={[
              { value: '', label: t('ops.courses.allOrganisations') },
              ...orgs.map((o) => ({ value: String(o.id), label: o.title })),
            ]}
          />
          <button type="submit" className="button button--secondary">
            {t('ops.courses.filter')}
          </button>
        </Form>
      ) : null}
      {terms.length === 0 ? (
        <p>{t('ops.courses.terms.none')}</p>
      ) : (
        <div className="table-scroll">
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
                    {t('ops.courses.dateRange', {
                      start: day.format(new Date(`${term.startDate}T00:00:00Z`)),
                      end: day.format(new Date(`${term.endDate}T00:00:00Z`)),
                    })}
                  </td>
                  <td>{term.sectionCount}</td>
                  <td>{term.endedAt ? t('ops.courses.ended') : t('ops.courses.running')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section className="stack" aria-labelledby="new-term">
        <h2 id="new-term">{t('ops.courses.terms.new')}</h2>
        <Form method="post" className="stack narrow" noValidate>
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          {storeWide ? (
            <SelectField
              name="orgId"
              label={t('ops.courses.field.organisation')}
              defaultValue={values.orgId ?? (orgFilter === null ? '' : String(orgFilter))}
              error={errors.orgId}
              options={[
                { value: '', label: t('ops.courses.chooseOrganisation') },
                ...orgs.map((o) => ({ value: String(o.id), label: o.title })),
              ]}
            />
          ) : null}
          <TextField
            name="title"
            label={t('ops.courses.field.termTitle')}
            defaultValue={values.title ?? ''}
            error={errors.title}
            required
            maxLength={200}
          />
          <SelectField
            name="termType"
            label={t('ops.courses.field.termType')}
            defaultValue={values.termType ?? 'term'}
            error={errors.termType}
            options={TERM_TYPES.map((type) => ({
              value: type,
              label: t(`ops.courses.termType.${type}`),
            }))}
          />
          <TextField
            name="startDate"
            type="date"
            label={t('ops.courses.field.startDate')}
            defaultValue={values.startDate ?? ''}
            error={errors.startDate}
            required
          />
          <TextField
            name="endDate"
            type="date"
            label={t('ops.courses.field.endDate')}
            defaultValue={values.endDate ?? ''}
            error={errors.endDate}
            required
          />
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
