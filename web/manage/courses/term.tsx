import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { endTerm, updateTerm } from '#domain/courses/course-admin-service.ts';
import { termToEnd, termView } from '#domain/courses/course-admin-views.ts';
import { runningStatusLabel } from '#domain/courses/running-status.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { AuditTrail } from '#web/manage/audit-trail.tsx';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/term.ts';
import { answerForm } from './answer-form.server.ts';
import { ConfirmStep } from './confirm-step.tsx';
import { doneOf, type FormAnswer, pathId, TermForm } from './course-forms.ts';
import { CourseManagerNav } from './course-manager-nav.tsx';
import { DoneNotice } from './done-notice.tsx';
import { PostButton } from './post-button.tsx';
import { SectionTable } from './section-table.tsx';
import { TermFields } from './term-fields.tsx';

// Ending asks first: the first post answers with the question, the second carries 'yes'.
const Intent = z.object({
  intent: z.enum(['save', 'end']),
  confirm: z.literal('yes').optional(),
});

/** The question the first 'end' post answers with: the term's title, to name it. */
type EndQuestion = { confirmEnd: { title: string } };

// Issue 39, Course Manager: one term — its dates, its sections, edit and end, and its audit.
// Another campus's term is not found.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { user } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const view = await termView(context.rc, pathId(params.termId));
  return {
    ...view,
    timeZone: user.timeZone,
    done: doneOf(request.url),
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  requireTool(request, context, 'courseManager', 'courseAdmin');
  const termId = pathId(params.termId);
  const form = Object.fromEntries(await request.formData());
  const intent = Intent.safeParse(form);
  if (!intent.success) throw data({ messageKey: 'error.invalid' }, { status: 400 });
  if (intent.data.intent === 'end') {
    if (!intent.data.confirm) {
      return data<EndQuestion>({ confirmEnd: await termToEnd(context.rc, termId) });
    }
    await endTerm(context.rc, termId);
    return redirect(`/manage/course-manager/terms/${termId}?done=termEnded`);
  }
  return answerForm(
    form,
    TermForm,
    (input) => updateTerm(context.rc, termId, input),
    () => `/manage/course-manager/terms/${termId}?done=termSaved`,
  );
});

export default function TermPage() {
  const { term, status, sections, audit, actingAsNames, timeZone, done, csrfToken } =
    useLoaderData<typeof loader>();
  const answered = useActionData<FormAnswer | EndQuestion>();
  const result = answered && 'errors' in answered ? answered : undefined;
  const question = answered && 'confirmEnd' in answered ? answered.confirmEnd : null;
  const t = useT();
  const errors = result?.errors ?? {};
  const values: Record<string, string> = result?.values ?? {
    title: term.title,
    termType: term.termType,
    startDate: term.startDate,
    endDate: term.endDate,
  };
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{t('ops.courses.term.heading', { title: term.title })}</h1>
        <CourseManagerNav />
        <dl>
          <div>
            <dt>{t('ops.courses.status')}</dt>
            <dd>{t(runningStatusLabel(status))}</dd>
          </div>
        </dl>
        {term.endedAt ? <p>{t('ops.courses.term.endedNote')}</p> : null}
      </header>
      {/* The confirmation posts to this URL, ?done= of the last save included: a question
          answered is no time to repeat that save's notice. */}
      {question ? null : <DoneNotice done={done} />}
      {question && !term.endedAt ? (
        <ConfirmStep
          heading={t('ops.courses.confirm.endTerm', { title: question.title })}
          text={t('ops.courses.confirm.endTermText')}
          intent="end"
          csrfToken={csrfToken}
          confirmLabel={t('ops.courses.term.end')}
          cancelTo={`/manage/course-manager/terms/${term.id}`}
        />
      ) : null}
      <section className="stack" aria-labelledby="term-sections">
        <h2 id="term-sections">{t('ops.courses.sections')}</h2>
        <SectionTable sections={sections} caption={t('ops.courses.sections')} />
      </section>
      {term.endedAt ? null : (
        <section className="stack" aria-labelledby="term-edit">
          <h2 id="term-edit">{t('ops.courses.term.edit')}</h2>
          <Form method="post" className="stack narrow" noValidate>
            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
            <input type="hidden" name="intent" value="save" />
            <TermFields values={values} errors={errors} />
            <p>
              <button type="submit" className="button button--primary">
                {t('ops.courses.save')}
              </button>
            </p>
          </Form>
          {question ? null : (
            <PostButton intent="end" csrfToken={csrfToken} label={t('ops.courses.term.end')} />
          )}
        </section>
      )}
      <p>
        <Link to="/manage/course-manager">{t('ops.courses.nav.terms')}</Link>
      </p>
      <AuditTrail lines={audit} timeZone={timeZone} actingAsNames={actingAsNames} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, 'ops.courses.term.pageTitle', { term: loaderData.term.title })
    : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
