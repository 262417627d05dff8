import { data, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { endSection, updateSection } from '#domain/courses/course-admin-service.ts';
import { memberToRemove, sectionToEnd, sectionView } from '#domain/courses/course-admin-views.ts';
import { deadlineText } from '#domain/courses/opting.ts';
import { runningStatusLabel } from '#domain/courses/running-status.ts';
import {
  addMember,
  adoptMaterial,
  type Changed,
  changeMemberRole,
  removeMaterial,
  removeMember,
  setMaterialRequired,
} from '#domain/courses/section-people-service.ts';
import { courseTypeHasFee, courseTypeLabel, MEMBER_ROLES } from '#domain/courses/section-rules.ts';
import { sectionTitle } from '#domain/shelf/sections.ts';
import { translate } from '#i18n/translate.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { emailField, fieldErrors, idField } from '#web/forms/fields.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { AuditTrail } from '#web/manage/audit-trail.tsx';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { sectionTitleText } from '#web/shelf/section-title-text.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/section.ts';
import { AddLineForm } from './add-line-form.tsx';
import { answerForm } from './answer-form.server.ts';
import { ConfirmStep } from './confirm-step.tsx';
import {
  type Done,
  doneOf,
  type FormAnswer,
  pathId,
  SectionForm as SectionFields,
  typedValues,
} from './course-forms.ts';
import { CourseManagerNav } from './course-manager-nav.tsx';
import { DoneNotice } from './done-notice.tsx';
import { PostButton } from './post-button.tsx';
import { RowChoiceForm } from './row-choice-form.tsx';
import { SectionForm } from './section-form.tsx';

const role = z.enum(MEMBER_ROLES, { error: 'ops.courses.error.choice' });
const required = z.enum(['required', 'optional'], { error: 'ops.courses.error.choice' });
// Ending the section and removing a member ask first: the first post answers with the
// question (Question), the second carries 'yes'.
const confirmed = z.literal('yes').optional();
const SectionAction = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('end'), confirm: confirmed }),
  z.object({ intent: z.literal('member-add'), email: emailField, role }),
  z.object({ intent: z.literal('member-role'), memberId: idField, role }),
  z.object({ intent: z.literal('member-remove'), memberId: idField, confirm: confirmed }),
  z.object({
    intent: z.literal('material-add'),
    reference: z.string().max(40, 'ops.courses.error.reference'),
    required,
  }),
  z.object({ intent: z.literal('material-required'), adoptionId: idField, required }),
  z.object({ intent: z.literal('material-remove'), adoptionId: idField }),
]);

type FormName = 'section' | 'member' | 'material';
type ActionResult = FormAnswer & { form: FormName };
type Question = {
  question: { intent: 'end' } | { intent: 'member-remove'; memberId: number; name: string };
};

const FORM_OF: Record<string, FormName> = {
  'member-add': 'member',
  'material-add': 'material',
};

// Issue 39, Course Manager: one section — its fields (edit, end), its members (add by e-mail
// with a role, change a role, remove), the materials adopted for it (by product id or ISBN,
// required or optional), links to its opt-status CSV and places, and its audit. Another
// campus's section is not found, by URL or by form.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { user } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const view = await sectionView(context.rc, pathId(params.sectionId));
  const { section, course } = view;
  const locale = context.rc.locale;
  return {
    ...view,
    title: sectionTitleText(
      (id, values) => translate(locale, id, values),
      sectionTitle({
        department: course.department,
        courseNumber: course.number,
        courseCode: course.code,
        sectionNumber: section.number,
      }),
    ),
    optOutText: deadlineText(section.addDropAt, section.timeZone, locale),
    dropText: section.dropPeriodEndsAt
      ? deadlineText(section.dropPeriodEndsAt, section.timeZone, locale)
      : null,
    hasFee: courseTypeHasFee(course.courseType),
    timeZone: user.timeZone,
    done: doneOf(request.url),
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  requireTool(request, context, 'courseManager', 'courseAdmin');
  const sectionId = pathId(params.sectionId);
  const here = `/manage/course-manager/sections/${sectionId}`;
  const form = Object.fromEntries(await request.formData());
  const values = typedValues(form);
  if (form.intent === 'section') {
    return answerForm(
      form,
      SectionFields,
      (input) => updateSection(context.rc, sectionId, input),
      () => `${here}?done=sectionSaved`,
      { answer: { form: 'section' } },
    );
  }
  const parsed = SectionAction.safeParse(form);
  if (!parsed.success) {
    const formName = FORM_OF[String(form.intent)];
    if (!formName) throw data({ messageKey: 'error.invalid' }, { status: 400 });
    return data<ActionResult>(
      { form: formName, errors: fieldErrors(parsed.error), values },
      { status: 400 },
    );
  }
  const input = parsed.data;
  // A line added: refused beside its field with what was typed, or saved with its notice.
  const answerLine = (formName: FormName, changed: Changed<string>, done: Done) =>
    changed.ok
      ? redirect(`${here}?done=${done}`)
      : data<ActionResult>(
          { form: formName, errors: { [changed.field]: changed.error }, values },
          { status: 400 },
        );
  switch (input.intent) {
    case 'end':
      if (!input.confirm) {
        await sectionToEnd(context.rc, sectionId);
        return data<Question>({ question: { intent: 'end' } });
      }
      await endSection(context.rc, sectionId);
      return redirect(`${here}?done=sectionEnded`);
    case 'member-add':
      return answerLine('member', await addMember(context.rc, sectionId, input), 'memberAdded');
    case 'member-role':
      await changeMemberRole(context.rc, sectionId, input);
      return redirect(`${here}?done=memberRole`);
    case 'member-remove':
      if (!input.confirm) {
        const member = await memberToRemove(context.rc, sectionId, input.memberId);
        const name = `${member.name} <${member.email}>`;
        return data<Question>({ question: { intent: 'member-remove', memberId: member.id, name } });
      }
      await removeMember(context.rc, sectionId, input.memberId);
      return redirect(`${here}?done=memberRemoved`);
    case 'material-add': {
      const adopted = await adoptMaterial(context.rc, sectionId, {
        reference: input.reference,
        required: input.required === 'required',
      });
      return answerLine('material', adopted, 'materialAdded');
    }
    case 'material-required':
      await setMaterialRequired(context.rc, sectionId, {
        adoptionId: input.adoptionId,
        required: input.required === 'required',
      });
      return redirect(`${here}?done=materialRequired`);
    case 'material-remove':
      await removeMaterial(context.rc, sectionId, input.adoptionId);
      return redirect(`${here}?done=materialRemoved`);
  }
});

export default function SectionPage() {
  const view = useLoaderData<typeof loader>();
  const { section, course, members, materials, terms, title, done, csrfToken } = view;
  const answered = useActionData<ActionResult | Question>();
  const result = answered && 'errors' in answered ? answered : undefined;
  const question = answered && 'question' in answered ? answered.question : null;
  const t = useT();
  const locale = useLocale();
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' });
  const errorsOf = (form: FormName) => (result?.form === form ? result.errors : {});
  const valuesOf = (form: FormName) => (result?.form === form ? result.values : null);
  // Ended by staff (the section or its term): nothing on it changes any more.
  const ended = view.closed;
  const here = `/manage/course-manager/sections/${section.id}`;
  const roleOptions = MEMBER_ROLES.map((r) => ({ value: r, label: t(`ops.courses.role.${r}`) }));
  const requiredOptions = [
    { value: 'required', label: t('ops.courses.required') },
    { value: 'optional', label: t('ops.courses.optional') },
  ];
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{title}</h1>
        <CourseManagerNav />
        <p className="product__subtitle">
          {[course.name, section.name, t(courseTypeLabel(course.courseType))]
            .filter((part, i, all) => all.indexOf(part) === i)
            .join(' · ')}
        </p>
        <p className="cluster">
          <Link to={`/manage/course-manager/courses/${course.id}`}>
            {t('ops.courses.section.course')}
          </Link>
          <a href={`/manage/sections/${section.id}/opt-status.csv`} download>
            {t('ops.courses.section.optStatus')}
          </a>
          <Link to={`/manage/sections/${section.id}/places`}>
            {t('ops.courses.section.places')}
          </Link>
        </p>
      </header>
      {/* The confirmation posts to this URL, ?done= of the last save included: a question
          answered is no time to repeat that save's notice. */}
      {question ? null : <DoneNotice done={done} />}
      {question && !ended ? (
        question.intent === 'end' ? (
          <ConfirmStep
            heading={t('ops.courses.confirm.endSection', { section: title })}
            text={t('ops.courses.confirm.endSectionText')}
            intent="end"
            csrfToken={csrfToken}
            confirmLabel={t('ops.courses.section.end')}
            cancelTo={here}
          />
        ) : (
          <ConfirmStep
            heading={t('ops.courses.confirm.removeMember', { name: question.name })}
            text={t('ops.courses.confirm.removeMemberText')}
            intent="member-remove"
            fields={{ memberId: question.memberId }}
            csrfToken={csrfToken}
            confirmLabel={t('ops.courses.confirm.removeMemberButton')}
            cancelTo={here}
          />
        )
      ) : null}
      {result ? (
        <div className="alert alert--error" role="alert">
          {t('ops.courses.error.summary')}
        </div>
      ) : null}
      <section className="stack" aria-labelledby="section-facts">
        <h2 id="section-facts">{t('ops.courses.section.facts')}</h2>
        <dl className="stack-sm">
          {view.hasFee ? (
            <div>
              <dt>{t('ops.courses.field.optOut')}</dt>
              <dd>{view.optOutText}</dd>
            </div>
          ) : null}
          {view.hasFee && view.dropText ? (
            <div>
              <dt>{t('ops.courses.field.dropPeriod')}</dt>
              <dd>{view.dropText}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('ops.courses.field.fee')}</dt>
            <dd>
              {section.courseFeeCents === null
                ? t('ops.courses.noFee')
                : money.format(section.courseFeeCents / 100)}
            </dd>
          </div>
          <div>
            <dt>{t('ops.courses.status')}</dt>
            <dd>{t(runningStatusLabel(view.status))}</dd>
          </div>
        </dl>
      </section>

      <section className="stack" aria-labelledby="section-members">
        <h2 id="section-members">{t('ops.courses.members')}</h2>
        {members.length === 0 ? (
          <p>{t('ops.courses.members.none')}</p>
        ) : (
          <TableScroll label={t('ops.courses.members')}>
            <table className="data-table data-table--stack">
              <caption className="visually-hidden">{t('ops.courses.members')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('ops.courses.member')}</th>
                  <th scope="col">{t('ops.courses.field.role')}</th>
                  <th scope="col">{t('ops.courses.optStatus')}</th>
                  {ended ? null : <th scope="col">{t('ops.courses.actions')}</th>}
                </tr>
              </thead>
              <tbody>
                {members.map((m) => {
                  const name = `${m.firstName} ${m.lastName}`.trim() || m.email;
                  return (
                    <tr key={m.id}>
                      <th scope="row">
                        {name} <span className="data-table__email">&lt;{m.email}&gt;</span>
                      </th>
                      <td data-label={t('ops.courses.field.role')}>
                        {t(`ops.courses.role.${m.role}`)}
                      </td>
                      <td data-label={t('ops.courses.optStatus')}>
                        {m.role === 'student' ? t(`ops.courses.opt.${m.optStatus}`) : '—'}
                        {m.isCourseFee ? ` · ${t('ops.courses.onCourseFee')}` : ''}
                      </td>
                      {ended ? null : (
                        <td>
                          <div className="cluster">
                            <RowChoiceForm
                              intent="member-role"
                              idName="memberId"
                              id={m.id}
                              csrfToken={csrfToken}
                              name="role"
                              defaultValue={m.role}
                              options={roleOptions}
                              choiceLabel={t('ops.courses.roleOf', { name })}
                              buttonText={t('ops.courses.changeRole')}
                              buttonLabel={t('ops.courses.changeRoleOf', { name })}
                            />
                            <PostButton
                              intent="member-remove"
                              fields={{ memberId: m.id }}
                              csrfToken={csrfToken}
                              label={t('ops.courses.remove')}
                              ariaLabel={t('ops.courses.removeMemberLabel', { name })}
                            />
                          </div>
                        </td>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
        )}
        {ended ? null : (
          <AddLineForm
            heading={t('ops.courses.members.add')}
            intent="member-add"
            csrfToken={csrfToken}
            text={{
              name: 'email',
              type: 'email',
              label: t('ops.courses.field.email'),
              hint: t('ops.courses.hint.email'),
              defaultValue: valuesOf('member')?.email ?? '',
              error: errorsOf('member').email,
              maxLength: 254,
            }}
            choice={{
              name: 'role',
              label: t('ops.courses.field.role'),
              defaultValue: valuesOf('member')?.role ?? 'student',
              error: errorsOf('member').role,
              options: roleOptions,
            }}
            submitLabel={t('ops.courses.members.addButton')}
          />
        )}
      </section>

      <section className="stack" aria-labelledby="section-materials">
        <h2 id="section-materials">{t('ops.courses.materials')}</h2>
        {materials.length === 0 ? (
          <p>{t('ops.courses.materials.none')}</p>
        ) : (
          <TableScroll label={t('ops.courses.materials')}>
            <table className="data-table">
              <caption className="visually-hidden">{t('ops.courses.materials')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('ops.courses.material')}</th>
                  <th scope="col">{t('ops.courses.isbn')}</th>
                  <th scope="col">{t('ops.courses.field.required')}</th>
                  {ended ? null : <th scope="col">{t('ops.courses.actions')}</th>}
                </tr>
              </thead>
              <tbody>
                {materials.map((m) => (
                  <tr key={m.id}>
                    <th scope="row">{m.title}</th>
                    <td>{m.isbn ?? '—'}</td>
                    <td>{m.isRequired ? t('ops.courses.required') : t('ops.courses.optional')}</td>
                    {ended ? null : (
                      <td>
                        <div className="cluster">
                          <RowChoiceForm
                            intent="material-required"
                            idName="adoptionId"
                            id={m.id}
                            csrfToken={csrfToken}
                            name="required"
                            defaultValue={m.isRequired ? 'required' : 'optional'}
                            options={requiredOptions}
                            choiceLabel={t('ops.courses.requiredOf', { title: m.title })}
                            buttonText={t('ops.courses.setRequired')}
                            buttonLabel={t('ops.courses.setRequiredOf', { title: m.title })}
                          />
                          <PostButton
                            intent="material-remove"
                            fields={{ adoptionId: m.id }}
                            csrfToken={csrfToken}
                            label={t('ops.courses.remove')}
                            ariaLabel={t('ops.courses.removeMaterialLabel', { title: m.title })}
                          />
                        </div>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {ended ? null : (
          <AddLineForm
            heading={t('ops.courses.materials.add')}
            intent="material-add"
            csrfToken={csrfToken}
            text={{
              name: 'reference',
              label: t('ops.courses.field.reference'),
              hint: t('ops.courses.hint.reference'),
              defaultValue: valuesOf('material')?.reference ?? '',
              error: errorsOf('material').reference,
              maxLength: 40,
            }}
            choice={{
              name: 'required',
              label: t('ops.courses.field.required'),
              defaultValue: valuesOf('material')?.required ?? 'required',
              error: errorsOf('material').required,
              options: requiredOptions,
            }}
            submitLabel={t('ops.courses.materials.addButton')}
          />
        )}
      </section>

      {ended ? null : (
        <section className="stack" aria-labelledby="section-edit">
          <h2 id="section-edit">{t('ops.courses.section.edit')}</h2>
          <SectionForm
            values={valuesOf('section') ?? view.form}
            errors={errorsOf('section')}
            terms={terms}
            hasFee={view.hasFee}
            csrfToken={csrfToken}
            submitLabel={t('ops.courses.save')}
          />
          {question?.intent === 'end' ? null : (
            <PostButton intent="end" csrfToken={csrfToken} label={t('ops.courses.section.end')} />
          )}
        </section>
      )}
      <AuditTrail lines={view.audit} timeZone={view.timeZone} actingAsNames={view.actingAsNames} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, 'ops.courses.section.pageTitle', { section: loaderData.title })
    : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
