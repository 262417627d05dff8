import { Form, Link, useActionData, useLoaderData } from 'react-router';
import { updateCourse } from '#domain/courses/course-admin-service.ts';
import { courseView } from '#domain/courses/course-admin-views.ts';
import { courseCodeLabel } from '#domain/courses/course-code.ts';
import { courseTypeLabel } from '#domain/courses/section-rules.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { AuditTrail } from '#web/manage/audit-trail.tsx';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/course.ts';
import { answerForm } from './answer-form.server.ts';
import { CourseFields } from './course-fields.tsx';
import { CourseEditForm, doneOf, type FormAnswer, pathId } from './course-forms.ts';
import { CourseManagerNav } from './course-manager-nav.tsx';
import { DoneNotice } from './done-notice.tsx';
import { SectionTable } from './section-table.tsx';

// Issue 39, Course Manager: one course — edit it, its sections, a link to make one, its audit.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { user } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const view = await courseView(context.rc, pathId(params.courseId));
  return {
    ...view,
    timeZone: user.timeZone,
    done: doneOf(request.url),
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  requireTool(request, context, 'courseManager', 'courseAdmin');
  const courseId = pathId(params.courseId);
  const form = Object.fromEntries(await request.formData());
  return answerForm(
    form,
    CourseEditForm,
    (input) => updateCourse(context.rc, courseId, input),
    () => `/manage/course-manager/courses/${courseId}?done=courseSaved`,
  );
});

export default function CoursePage() {
  const { course, sections, audit, actingAsNames, timeZone, done, csrfToken } =
    useLoaderData<typeof loader>();
  const result = useActionData<FormAnswer>();
  const t = useT();
  const errors = result?.errors ?? {};
  const values: Record<string, string> = result?.values ?? {
    name: course.name,
    department: course.department,
    number: course.number,
    courseType: course.courseType,
    sectionFee: '',
  };
  const code = courseCodeLabel(course);
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{t('ops.courses.course.heading', { course: code, name: course.name })}</h1>
        <CourseManagerNav />
        <p>{t(courseTypeLabel(course.courseType))}</p>
      </header>
      <DoneNotice done={done} />
      <section className="stack" aria-labelledby="course-sections">
        <h2 id="course-sections">{t('ops.courses.sections')}</h2>
        <SectionTable sections={sections} caption={t('ops.courses.sections')} />
        <p>
          <Link
            className="button button--primary"
            to={`/manage/course-manager/courses/${course.id}/new-section`}
          >
            {t('ops.courses.section.new')}
          </Link>
        </p>
      </section>
      <section className="stack" aria-labelledby="course-edit">
        <h2 id="course-edit">{t('ops.courses.course.edit')}</h2>
        <Form method="post" className="stack narrow" noValidate>
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          <CourseFields values={values} errors={errors} currentType={course.courseType} />
          <p>
            <button type="submit" className="button button--primary">
              {t('ops.courses.save')}
            </button>
          </p>
        </Form>
      </section>
      <AuditTrail lines={audit} timeZone={timeZone} actingAsNames={actingAsNames} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, 'ops.courses.course.pageTitle', {
        course: courseCodeLabel(loaderData.course),
      })
    : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
