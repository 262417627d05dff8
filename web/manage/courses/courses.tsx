import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import {
  courseList,
  createCourse,
  organisationChoices,
} from '#domain/courses/course-admin-service.ts';
import { courseTypeLabel } from '#domain/courses/section-rules.ts';
import { parseId } from '#domain/shared/id.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { fieldErrors } from '#web/forms/fields.ts';
import { useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/courses.ts';
import { CourseForm, doneOf, typedValues } from './course-forms.ts';
import { CourseManagerNav } from './course-manager-nav.tsx';
import { DoneNotice } from './done-notice.tsx';
import { courseTypeOptions } from './section-form.tsx';
import { SelectField } from './select-field.tsx';

type ActionResult = { errors: Record<string, string | undefined>; values: Record<string, string> };

// Issue 39, Course Manager: the courses of the person's organisation (a manager: of every one,
// filtered by one) and a form to make one.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const { scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const orgFilter = parseId(new URL(request.url).searchParams.get('org'));
  const [orgs, courses] = await Promise.all([
    organisationChoices(context.rc),
    courseList(context.rc, { orgId: orgFilter }),
  ]);
  return {
    orgs,
    storeWide: scope.kind === 'all',
    orgFilter,
    courses,
    done: doneOf(request.url),
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const { user } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const form = Object.fromEntries(await request.formData());
  const values = typedValues(form);
  const orgId = parseId(form.orgId) ?? (form.orgId === undefined ? user.orgId : null);
  const parsed = CourseForm.safeParse(form);
  if (!parsed.success || orgId === null) {
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    if (orgId === null) errors.orgId = 'ops.courses.error.choice';
    return data<ActionResult>({ errors, values }, { status: 400 });
  }
  const saved = await createCourse(context.rc, { ...parsed.data, orgId });
  if (!saved.ok) return data<ActionResult>({ errors: saved.errors, values }, { status: 400 });
  return redirect(`/manage/course-manager/courses/${saved.id}?done=courseCreated`);
});

export default function CoursesPage() {
  const { orgs, storeWide, orgFilter, courses, done, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<ActionResult>();
  const t = useT();
  const errors = result?.errors ?? {};
  const values = result?.values ?? {};
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{t('ops.courses.courses.heading')}</h1>
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
      {courses.length === 0 ? (
        <p>{t('ops.courses.courses.none')}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">{t('ops.courses.courses.heading')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ops.courses.course')}</th>
                {storeWide ? <th scope="col">{t('ops.courses.field.organisation')}</th> : null}
                <th scope="col">{t('ops.courses.field.courseType')}</th>
                <th scope="col">{t('ops.courses.sections')}</th>
              </tr>
            </thead>
            <tbody>
              {courses.map((course) => (
                <tr key={course.id}>
                  <th scope="row">
                    <Link to={`/manage/course-manager/courses/${course.id}`}>
                      {`${course.department} ${course.number}`}
                    </Link>{' '}
                    {course.name}
                  </th>
                  {storeWide ? <td>{course.orgTitle}</td> : null}
                  <td>{t(courseTypeLabel(course.courseType))}</td>
                  <td>{course.sectionCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section className="stack" aria-labelledby="new-course">
        <h2 id="new-course">{t('ops.courses.courses.new')}</h2>
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
            name="name"
            label={t('ops.courses.field.courseName')}
            defaultValue={values.name ?? ''}
            error={errors.name}
            required
            maxLength={200}
          />
          <TextField
            name="department"
            label={t('ops.courses.field.department')}
            hint={t('ops.courses.hint.department')}
            defaultValue={values.department ?? ''}
            error={errors.department}
            required
            maxLength={20}
          />
          <TextField
            name="number"
            label={t('ops.courses.field.courseNumber')}
            defaultValue={values.number ?? ''}
            error={errors.number}
            required
            maxLength={20}
          />
          <SelectField
            name="courseType"
            label={t('ops.courses.field.courseType')}
            defaultValue={values.courseType ?? 'inclusive_access'}
            error={errors.courseType}
            options={courseTypeOptions(t, null)}
          />
          <p>
            <button type="submit" className="button button--primary">
              {t('ops.courses.courses.create')}
            </button>
          </p>
        </Form>
      </section>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'ops.courses.courses.pageTitle');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
