import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import {
  listTools,
  rotateSigningKey,
  saveTool,
  type ToolSummary,
} from '#domain/access/launch-service.ts';
import { navigationFlags } from '#domain/accounts/service.ts';
import { DomainError } from '#domain/shared/errors.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/courseware-tools.ts';

// /manage/courseware-tools (issue 14, decision 017): the registry of courseware tools, for
// managers (spec 1 §6). Per courseware product or publisher: LTI version and launch URL; for
// 1.3 the client id, deployment id, login-initiation URL, redirect URIs and JWKS URL; for 1.1
// the consumer key and secret. Secrets are write-only: never shown back, blank keeps them.
const url = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v.startsWith('/') || /^https?:\/\/[^\s]+$/.test(v), 'manage.lti.error.url');
/** An optional text field: blank is null, anything else must pass `check`. */
const optional = (
  check: (value: string) => boolean = () => true,
  message = 'manage.lti.error.url',
) =>
  z
    .string()
    .trim()
    .max(2000)
    .refine((v) => v === '' || check(v), message)
    .transform((v) => (v === '' ? null : v));
const isUrl = (v: string) => v.startsWith('/') || /^https?:\/\/[^\s]+$/.test(v);

const toolSchema = z
  .object({
    intent: z.literal('save'),
    id: z
      .string()
      .regex(/^\d{0,9}$/)
      .transform((v) => (v === '' ? null : Number(v))),
    name: z.string().trim().min(1, 'manage.lti.error.required').max(200),
    productId: z
      .string()
      .regex(/^\d{0,9}$/, 'manage.lti.error.productId')
      .transform((v) => (v === '' ? null : Number(v))),
    publisher: optional(),
    ltiVersion: z.enum(['1.1', '1.3']),
    launchUrl: url,
    clientId: optional(),
    deploymentId: optional(),
    loginUrl: optional(isUrl),
    redirectUris: z
      .string()
      .max(10_000)
      .transform((v) =>
        v
          .split(/\s+/)
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(url).max(20)),
    jwksUrl: optional(isUrl),
    consumerKey: optional(),
    secret: optional((v) => v.length >= 16, 'manage.lti.error.secret'),
  })
  .superRefine((v, ctx) => {
    const need = (field: string, ok: boolean) => {
      if (!ok)
        ctx.addIssue({ code: 'custom', path: [field], message: 'manage.lti.error.required' });
    };
    need('productId', (v.productId === null) !== (v.publisher === null));
    if (v.ltiVersion === '1.3') {
      need('clientId', v.clientId !== null);
      need('deploymentId', v.deploymentId !== null);
      need('loginUrl', v.loginUrl !== null);
      need('redirectUris', v.redirectUris.length > 0);
    } else {
      need('consumerKey', v.consumerKey !== null);
      if (v.id === null) need('secret', v.secret !== null);
    }
  });

function requireManager(request: Request, context: Route.LoaderArgs['context']) {
  const user = requireUser(request, context);
  if (!navigationFlags(user, context.rc.site).isManager) throw data(null, { status: 403 });
  return user;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireManager(request, context);
  const query = new URL(request.url).searchParams;
  const tools = await listTools(context.rc.db);
  const editId = Number(query.get('edit'));
  return {
    tools,
    editing: tools.find((tool) => tool.id === editId) ?? null,
    saved: query.get('saved') === '1',
    rotated: query.get('rotated') === '1',
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireManager(request, context);
  const form = Object.fromEntries(await request.formData());
  if (form.intent === 'rotate') {
    await rotateSigningKey(context.rc);
    return redirect('/manage/courseware-tools?rotated=1');
  }
  const parsed = toolSchema.safeParse(form);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'form');
      errors[field] ??= issue.message.startsWith('manage.')
        ? issue.message
        : 'manage.lti.error.invalid';
    }
    return data({ errors }, { status: 400 });
  }
  const { intent: _intent, ...tool } = parsed.data;
  try {
    await saveTool(
      context.rc.db,
      context.rc.keys.lti,
      { ...tool, publicKey: null },
      context.rc.now,
    );
  } catch (error) {
    if (error instanceof DomainError) throw data(null, { status: error.status });
    // A product that does not exist, or already has a tool, or a client id taken.
    const code =
      (error as { code?: string; cause?: { code?: string } }).cause?.code ??
      (error as { code?: string }).code;
    if (code !== '23505' && code !== '23503' && code !== '23514') throw error;
    return data({ errors: { form: 'manage.lti.error.conflict' } }, { status: 409 });
  }
  return redirect('/manage/courseware-tools?saved=1');
}

function ToolForm({ tool }: { tool: ToolSummary | null }) {
  const t = useT();
  const csrfToken = useCsrfToken();
  const result = useActionData<{ errors?: Record<string, string> }>();
  const errors = result?.errors ?? {};
  const field = (name: keyof ToolSummary | 'secret', props: Record<string, unknown> = {}) => (
    <TextField
      name={name}
      label={t(`manage.lti.field.${name}`)}
      error={errors[name]}
      defaultValue={
        name === 'secret' || !tool ? '' : String((tool as Record<string, unknown>)[name] ?? '')
      }
      {...props}
    />
  );
  return (
    <Form method="post" className="stack" key={tool?.id ?? 'new'}>
      <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="id" value={tool?.id ?? ''} />
      <h2>{tool ? t('manage.lti.edit', { name: tool.name }) : t('manage.lti.add')}</h2>
      {errors.form ? (
        <p className="alert alert--error" role="alert">
          {t(errors.form)}
        </p>
      ) : null}
      {field('name', { required: true })}
      {field('productId', { inputMode: 'numeric' })}
      {field('publisher')}
      <div className="field">
        <label htmlFor="ltiVersion">{t('manage.lti.field.ltiVersion')}</label>
        <select id="ltiVersion" name="ltiVersion" defaultValue={tool?.ltiVersion ?? '1.3'}>
          <option value="1.3">LTI 1.3</option>
          <option value="1.1">LTI 1.1</option>
        </select>
      </div>
      {field('launchUrl', { required: true })}
      <fieldset className="stack-sm">
        <legend>LTI 1.3</legend>
        {field('clientId')}
        {field('deploymentId')}
        {field('loginUrl')}
        <div className="field">
          <label htmlFor="redirectUris">{t('manage.lti.field.redirectUris')}</label>
          <textarea
            id="redirectUris"
            name="redirectUris"
            rows={2}
            defaultValue={tool?.redirectUris.join('\n') ?? ''}
            aria-invalid={errors.redirectUris ? true : undefined}
            aria-describedby={errors.redirectUris ? 'redirectUris-error' : undefined}
          />
          {errors.redirectUris ? (
            <p className="field__error" id="redirectUris-error">
              {t(errors.redirectUris)}
            </p>
          ) : null}
        </div>
        {field('jwksUrl')}
      </fieldset>
      <fieldset className="stack-sm">
        <legend>LTI 1.1</legend>
        {field('consumerKey')}
        {field('secret', {
          type: 'password',
          autoComplete: 'new-password',
          placeholder: tool?.hasSecret ? t('manage.lti.secretKept') : '',
        })}
      </fieldset>
      <p>
        <button type="submit" className="button button--primary">
          {t('manage.lti.save')}
        </button>
      </p>
    </Form>
  );
}

export default function CoursewareToolsPage() {
  const { tools, editing, saved, rotated } = useLoaderData<typeof loader>();
  const t = useT();
  const csrfToken = useCsrfToken();
  return (
    <section className="stack">
      <h1>{t('manage.lti.title')}</h1>
      <p>
        <Link to="/manage/campus-sign-in">{t('manage.campus.link')}</Link>
      </p>
      {saved ? <output>{t('manage.lti.saved')}</output> : null}
      {rotated ? <output>{t('manage.lti.rotated')}</output> : null}
      <TableScroll label={t('manage.lti.caption')}>
        <table className="analytics-table">
          <caption>{t('manage.lti.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('manage.lti.field.name')}</th>
              <th scope="col">{t('manage.lti.for')}</th>
              <th scope="col">{t('manage.lti.field.ltiVersion')}</th>
              <th scope="col">{t('manage.lti.field.launchUrl')}</th>
              <th scope="col">{t('manage.lti.credentials')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('manage.lti.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tools.map((tool) => (
              <tr key={tool.id}>
                <th scope="row">{tool.name}</th>
                <td>{tool.productTitle ?? tool.publisher}</td>
                <td>{tool.ltiVersion}</td>
                <td>{tool.launchUrl}</td>
                <td>
                  {tool.ltiVersion === '1.3'
                    ? tool.clientId
                    : `${tool.consumerKey} · ${t(tool.hasSecret ? 'manage.lti.secretStored' : 'manage.lti.secretMissing')}`}
                </td>
                <td>
                  <Link
                    to={`?edit=${tool.id}`}
                    aria-label={t('manage.lti.edit', { name: tool.name })}
                  >
                    {t('manage.lti.editShort')}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <ToolForm tool={editing} />
      <Form method="post">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
        <input type="hidden" name="intent" value="rotate" />
        <p>{t('manage.lti.rotateHelp')}</p>
        <button type="submit" className="button button--secondary">
          {t('manage.lti.rotate')}
        </button>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'manage.lti.title');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
