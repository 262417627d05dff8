import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { endSection, updateSection } from '#domain/courses/course-admin-service.ts';
import { sectionView } from '#domain/courses/course-admin-views.ts';
import { deadlineText } from '#domain/courses/opting.ts';
import {
  addMember,
  adoptMaterial,
  changeMemberRole,
  removeMaterial,
  removeMember,
  setMaterialRequired,
} from '#domain/courses/section-people-service.ts';
import { courseTypeHasFee, MEMBER_ROLES } from '#domain/courses/section-rules.ts';
import { sectionTitle } from '#domain/shelf/sections.ts';
import { translate } from '#i18n/translate.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { emailField, fieldErrors, idField } from '#web/forms/fields.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { AuditTrail } from '#web/manage/audit-trail.tsx';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { sectionTitleText } from '#web/shelf/section-title-text.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/section.ts';
import { doneOf, pathId, SectionForm as SectionFields, typedValues } from './course-forms.ts';
import { CourseManagerNav } from './course-manager-nav.tsx';
import { DoneNotice } from './done-notice.tsx';
import { SectionForm } from './section-form.tsx';
import { SelectField } from './select-field.tsx';

const role = z.enum(MEMBER_ROLES, { error: 'ops.courses.error.choice' });
const required = z.enum(['required', 'optional'], { error: 'ops.courses.error.choice' });
const SectionAction = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('end') }),
  z.object({ intent: z.literal('member-add'), email: emailField, role }),
  z.object({ intent: z.literal('member-role'), memberId: idField, role }),
  z.object({ intent: z.literal('member-remove'), memberId: idField }),
  z.object({
    intent: z.literal('material-add'),
    reference: z.string().max(40, 'ops.courses.error.reference'),
    required,
  }),
  z.object({ intent: z.literal('material-required'), adoptionId: idField, required }),
  z.object({ intent: z.literal('material-remove'), adoptionId: idField }),
]);

type FormName = 'section' | 'member' | 'material';
type ActionResult = {
  form: FormName;
  errors: Record<string, string | undefined>;
  values: Record<string, string>;
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
    const parsed = SectionFields.safeParse(form);
    if (!parsed.success) {
      return data<ActionResult>(
        { form: 'section', errors: fieldErrors(parsed.error), values },
        { status: 400 },
      );
    }
    const saved = await updateSection(context.rc, sectionId, parsed.data);
    if (!saved.ok) {
      return data<ActionResult>({ form: 'section', errors: saved.errors, values }, { status: 400 });
    }
    return redirect(`${here}?done=sectionSaved`);
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
  switch (input.intent) {
    case 'end':
      await endSection(context.rc, sectionId);
      return redirect(`${here}?done=sectionEnded`);
    case 'member-add': {
      const added = await addMember(context.rc, sectionId, input);
      if (!added.ok) {
        return data<ActionResult>(
          { form: 'member', errors: { [added.field]: added.error }, values },
          { status: 400 },
        );
      }
      return redirect(`${here}?done=memberAdded`);
    }
    case 'member-role':
      await changeMemberRole(context.rc, sectionId, input);
      return redirect(`${here}?done=memberRole`);
    case 'member-remove':
      await removeMember(context.rc, sectionId, input.memberId);
      return redirect(`${here}?done=memberRemoved`);
    case 'material-add': {
      const adopted = await adoptMaterial(context.rc, sectionId, {
        reference: input.reference,
        required: input.required === 'required',
      });
      if (!adopted.ok) {
        return data<ActionResult>(
          { form: 'material', errors: { [adopted.field]: adopted.error }, values },
          { status: 400 },
        );
      }
      return redirect(`${here}?done=materialAdded`);
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
  const result = useActionData<ActionResult>();
  const t = useT();
  const locale = useLocale();
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' });
  const errorsOf = (form: FormName) => (result?.form === form ? result.errors : {});
  const valuesOf = (form: FormName) => (result?.form === form ? result.values : null);
  const ended = section.endedAt !== null;
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{title}</h1>
        <CourseManagerNav />
        <p className="product__subtitle">
          {[course.name, section.name, t(`ops.courses.type.${course.courseType}`)]
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
      <DoneNotice done={done} />
      {result ? (
        <div className="alert alert--error" role="alert">
          {t('ops.courses.error.summary')}
        </div>
      ) : null}
      <section className="stack" aria-labelledby="section-facts">
        <h2 id="section-facts">{t('ops.courses.section.facts')}</h2>
        <dl className="stack-sm">
          <div>
            <dt>{t('ops.courses.field.optOut')}</dt>
            <dd>{view.optOutText}</dd>
          </div>
          {view.dropText ? (
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
            <dd>{ended ? t('ops.courses.ended') : t('ops.courses.running')}</dd>
          </div>
        </dl>
      </section>

      <section className="stack" aria-labelledby="section-members">
        <h2 id="section-members">{t('ops.courses.members')}</h2>
        {members.length === 0 ? (
          <p>{t('ops.courses.members.none')}</p>
        ) : (
          <div className="table-scroll">
            <table className="data-table">
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
                        {name} &lt;{m.email}&gt;
                      </th>
                      <td>{t(`ops.courses.role.${m.role}`)}</td>
                      <td>
                        {m.role === 'student' ? t(`ops.courses.opt.${m.optStatus}`) : '—'}
                        {m.isCourseFee ? ` · ${t('ops.courses.onCourseFee')}` : ''}
                      </td>
                      {ended ? null : (
                        <td>
                          <div className="cluster">
                            <Form method="post" className="cluster">
                              <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
                              <input type="hidden" name="intent" value="member-role" />
                              <input type="hidden" name="memberId" value={m.id} />

                              <select
                                id={`role-${m.id}`}
                                name="role"
                                defaultValue={m.role}
                                aria-label={t('ops.courses.roleOf', { name })}
                              >
                                {MEMBER_ROLES.map((r) => (
                                  <option key={r} value={r}>
                                    {t(`ops.courses.role.${r}`)}
                                  </option>
                                ))}
                              </select>
                              <button
                                type="submit"
                                className="button button--secondary"
                                aria-label={t('ops.courses.changeRoleOf', { name })}
                              >
                                {t('ops.courses.changeRole')}
                              </button>
                            </Form>
                            <Form method="post">
                              <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
                              <input type="hidden" name="intent" value="member-remove" />
                              <input type="hidden" name="memberId" value={m.id} />
                              <button
                                type="submit"
                                className="button button--secondary"
                                aria-label={t('ops.courses.removeMemberLabel', { name })}
                              >
                                {t('ops.courses.remove')}
                              </button>
                            </Form>
                          </div>
                        </td>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {ended ? null : (
          <Form method="post" className="stack narrow" noValidate>
            <h3>{t('ops.courses.members.add')}</h3>
            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
            <input type="hidden" name="intent" value="member-add" />
            <TextField
              name="email"
              type="email"
              label={t('ops.courses.field.email')}
              hint={t('ops.courses.hint.email')}
              defaultValue={valuesOf('member')?.email ?? ''}
              error={errorsOf('member').email}
              required
              maxLength={254}
              autoComplete="off"
            />
            <SelectField
              name="role"
              label={t('ops.courses.field.role')}
              defaultValue={valuesOf('member')?.role ?? 'student'}
              error={errorsOf('member').role}
              options={MEMBER_ROLES.map((r) => ({ value: r, label: t(`ops.courses.role.${r}`) }))}
            />
            <p>
              <button type="submit" className="button button--primary">
                {t('ops.courses.members.addButton')}
              </button>
            </p>
          </Form>
        )}
      </section>

      <section className="stack" aria-labelledby="section-materials">
        <h2 id="section-materials">{t('ops.courses.materials')}</h2>
        {materials.length === 0 ? (
          <p>{t('ops.courses.materials.none')}</p>
        ) : (
          <div className="table-scroll">
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
                          <Form method="post" className="cluster">
                            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
                            <input type="hidden" name="intent" value="material-required" />
                            <input type="hidden" name="adoptionId" value={m.id} />
                            <select
                              name="required"
                              defaultValue={m.isRequired ? 'required' : 'optional'}
                              aria-label={t('ops.courses.requiredOf', { title: m.title })}
                            >
                              <option value="required">{t('ops.courses.required')}</option>
                              <option value="optional">{t('ops.courses.optional')}</option>
                            </select>
                            <button
                              type="submit"
                              className="button button--secondary"
                              aria-label={t('ops.courses.setRequiredOf', { title: m.title })}
                            >
                              {t('ops.courses.setRequired')}
                            </button>
                          </Form>
                          <Form method="post">
                            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
                            <input type="hidden" name="intent" value="material-remove" />
                            <input type="hidden" name="adoptionId" value={m.id} />
                            <button
                              type="submit"
                              className="button button--secondary"
                              aria-label={t('ops.courses.removeMaterialLabel', { title: m.title })}
                            >
                              {t('ops.courses.remove')}
                            </button>
                          </Form>
                        </div>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {ended ? null : (
          <Form method="post" className="stack narrow" noValidate>
            <h3>{t('ops.courses.materials.add')}</h3>
            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
            <input type="hidden" name="intent" value="material-add" />
            <TextField
              name="reference"
              label={t('ops.courses.field.reference')}
              hint={t('ops.courses.hint.reference')}
              defaultValue={valuesOf('material')?.reference ?? ''}
              error={errorsOf('material').reference}
              required
              maxLength={40}
              autoComplete="off"
            />
            <SelectField
              name="required"
              label={t('ops.courses.field.required')}
              defaultValue={valuesOf('material')?.required ?? 'required'}
              error={errorsOf('material').required}
              options={[
                { value: 'required', label: t('ops.courses.required') },
                { value: 'optional', label: t('ops.courses.optional') },
              ]}
            />
            <p>
              <button type="submit" className="button button--primary">
                {t('ops.courses.materials.addButton')}
              </button>
            </p>
          </Form>
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
          <Form method="post">
            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
            <input type="hidden" name="intent" value="end" />
            <button type="submit" className="button button--secondary">
              {t('ops.courses.section.end')}
            </button>
          </Form>
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
