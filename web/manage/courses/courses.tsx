import { Form, Link, useActionData, useLoaderData } from 'react-router';
import { courseList, createCourse } from '#domain/courses/course-admin-service.ts';
import { courseCodeLabel } from '#domain/courses/course-code.ts';
import { courseTypeLabel } from '#domain/courses/section-rules.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/courses.ts';
import { CourseFields } from './course-fields.tsx';
import { CourseForm, type FormAnswer } from './course-forms.ts';
import { CourseManagerNav } from './course-manager-nav.tsx';
import { DoneNotice } from './done-notice.tsx';
import { OrganisationField } from './organisation-field.tsx';
import { OrganisationFilter } from './organisation-filter.tsx';
import { createInOrganisation, organisationList } from './organisation-list.server.ts';

// Issue 39, Course Manager: the courses of the person's organisation (a manager: of every one,
// filtered by one) and a form to make one.
export const loader = withDomainErrors(({ request, context }: Route.LoaderArgs) =>
  organisationList(request, context, (orgId) => courseList(context.rc, { orgId })),
);

export const action = withDomainErrors(({ request, context }: Route.ActionArgs) =>
  createInOrganisation(
    request,
    context,
    CourseForm,
    (input) => createCourse(context.rc, input),
    (id) => `/manage/course-manager/courses/${id}?done=courseCreated`,
  ),
);

export default function CoursesPage() {
  const {
    orgs,
    storeWide,
    orgFilter,
    rows: courses,
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
        <h1>{t('ops.courses.courses.heading')}</h1>
        <CourseManagerNav />
      </header>
      <DoneNotice done={done} />
      {storeWide ? <OrganisationFilter orgs={orgs} orgFilter={orgFilter} /> : null}
      {courses.length === 0 ? (
        <p>{t('ops.courses.courses.none')}</p>
      ) : (
        <TableScroll label={t('ops.courses.courses.heading')}>
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
                      {courseCodeLabel(course)}
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
        </TableScroll>
      )}
      <section className="stack" aria-labelledby="new-course">
        <h2 id="new-course">{t('ops.courses.courses.new')}</h2>
        <Form method="post" className="stack narrow" noValidate>
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          {storeWide ? (
            <OrganisationField
              orgs={orgs}
              defaultValue={values.orgId ?? (orgFilter === null ? '' : String(orgFilter))}
              error={errors.orgId}
            />
          ) : null}
          <CourseFields values={values} errors={errors} currentType={null} />
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
