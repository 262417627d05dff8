import { useActionData, useLoaderData } from 'react-router';
import { createSection } from '#domain/courses/course-admin-service.ts';
import { courseView } from '#domain/courses/course-admin-views.ts';
import { courseCodeLabel } from '#domain/courses/course-code.ts';
import { courseTypeHasFee, courseTypeLabel } from '#domain/courses/section-rules.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/new-section.ts';
import { answerForm } from './answer-form.server.ts';
import { type FormAnswer, pathId, SectionForm as SectionFields } from './course-forms.ts';
import { CourseManagerNav } from './course-manager-nav.tsx';
import { SectionForm } from './section-form.tsx';

// Issue 39, Course Manager: a new section of a course, with its dates, deadlines on the
// course's clock, fee (where the type has one) and code. A refusal keeps what was typed.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  requireTool(request, context, 'courseManager', 'courseAdmin');
  const { course, terms } = await courseView(context.rc, pathId(params.courseId));
  return {
    course,
    terms: terms.filter((term) => term.endedAt === null),
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  requireTool(request, context, 'courseManager', 'courseAdmin');
  const courseId = pathId(params.courseId);
  const form = Object.fromEntries(await request.formData());
  return answerForm(
    form,
    SectionFields,
    (input) => createSection(context.rc, courseId, input),
    (id) => `/manage/course-manager/sections/${id}?done=sectionCreated`,
  );
});

export default function NewSectionPage() {
  const { course, terms, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<FormAnswer>();
  const t = useT();
  const code = courseCodeLabel(course);
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{t('ops.courses.section.newHeading', { course: code })}</h1>
        <CourseManagerNav />
        <p>{t(courseTypeLabel(course.courseType))}</p>
      </header>
      {result ? (
        <div className="alert alert--error" role="alert">
          {t('ops.courses.error.summary')}
        </div>
      ) : null}
      <SectionForm
        values={result?.values ?? { name: course.name }}
        errors={result?.errors ?? {}}
        terms={terms}
        hasFee={courseTypeHasFee(course.courseType)}
        csrfToken={csrfToken}
        submitLabel={t('ops.courses.section.create')}
      />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, 'ops.courses.section.newPageTitle', {
        course: courseCodeLabel(loaderData.course),
      })
    : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
