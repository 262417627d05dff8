import { data, redirect, useActionData, useLoaderData } from 'react-router';
import { createSection } from '#domain/courses/course-admin-service.ts';
import { courseView } from '#domain/courses/course-admin-views.ts';
import { courseTypeHasFee, courseTypeLabel } from '#domain/courses/section-rules.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { fieldErrors } from '#web/forms/fields.ts';
import { useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/new-section.ts';
import { pathId, SectionForm as SectionFields, typedValues } from './course-forms.ts';
import { CourseManagerNav } from './course-manager-nav.tsx';
import { SectionForm } from './section-form.tsx';

type ActionResult = { errors: Record<string, string | undefined>; values: Record<string, string> };

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
  const values = typedValues(form);
  const parsed = SectionFields.safeParse(form);
  if (!parsed.success) {
    return data<ActionResult>({ errors: fieldErrors(parsed.error), values }, { status: 400 });
  }
  const saved = await createSection(context.rc, courseId, parsed.data);
  if (!saved.ok) return data<ActionResult>({ errors: saved.errors, values }, { status: 400 });
  return redirect(`/manage/course-manager/sections/${saved.id}?done=sectionCreated`);
});

export default function NewSectionPage() {
  const { course, terms, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<ActionResult>();
  const t = useT();
  const code = `${course.department} ${course.number}`;
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
        course: `${loaderData.course.department} ${loaderData.course.number}`,
      })
    : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
