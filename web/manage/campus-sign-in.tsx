import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { DEFAULT_ATTRIBUTES, defaultSpEntityId } from '#domain/accounts/campus-settings.ts';
import {
  type CampusSettingsRow,
  campusServiceProviderUrls,
  campusSettings,
  saveCampusSettings,
} from '#domain/accounts/campus-settings-service.ts';
import { navigationFlags } from '#domain/accounts/service.ts';
import { parseId } from '#domain/shared/id.ts';
import { isUniqueViolation } from '#domain/shared/unique-violation.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { originOf } from '#web/launch/auto-post.server.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/campus-sign-in.ts';

// /manage/campus-sign-in (issue 20, decision 023 "Settings"): how each organisation signs its
// students in with their campus identity — OpenID Connect (issuer, client id, a write-only
// secret) or SAML 2.0 (the IdP's pasted metadata, or its entity id, SSO address and
// certificates), the e-mail domains that route to it and the attribute mapping — and, for a
// SAML campus, the addresses its IT registers us with. Managers only, NOT bookstore managers:
// whoever sets a campus's e-mail domains decides which existing accounts its identities may
// link to (a verified address in those domains links), so a bookstore manager who set
// 'gmail.com' could take over accounts. The rules are in domain/accounts/campus-settings.ts.

const text = (max: number) => z.string().max(max).default('');

const campusSchema = z.object({
  intent: z.literal('save'),
  id: z.string().max(20).default(''),
  orgId: z.string().max(20).default(''),
  protocol: z.string().max(10).default(''),
  emailDomains: text(10_000),
  emailAttribute: text(500),
  firstNameAttribute: text(500),
  lastNameAttribute: text(500),
  campusIdAttribute: text(500),
  oidcIssuer: text(2100),
  oidcClientId: text(500),
  oidcScopes: text(2100),
  oidcClientSecret: text(1000),
  clearClientSecret: z.literal('on').optional(),
  samlMetadata: text(600_000),
  samlIdpEntityId: text(1100),
  samlSsoUrl: text(2100),
  samlSigningCert: text(60_000),
  samlSpEntityId: text(1100),
});

type ActionErrors = Record<string, { key: string; params?: Record<string, string> }>;

function requireManager(request: Request, context: Route.LoaderArgs['context']) {
  const user = requireUser(request, context);
  if (!navigationFlags(user, context.rc.site).isManager) throw data(null, { status: 403 });
  return user;
}

export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  requireManager(request, context);
  const origin = originOf(request);
  const query = new URL(request.url).searchParams;
  const { campuses, organizations } = await campusSettings(context.rc);
  const editId = parseId(query.get('edit'));
  return {
    campuses: campuses.map((campus) => ({
      ...campus,
      sp: campus.protocol === 'saml' ? campusServiceProviderUrls(origin, campus.id) : null,
    })),
    organizations,
    editing: campuses.find((campus) => campus.id === editId) ?? null,
    defaultSpEntityId: defaultSpEntityId(origin),
    // What a blank attribute field means (the domain's defaults, said on the form).
    attributeDefaults: {
      oidc: Object.values(DEFAULT_ATTRIBUTES.oidc).join(', '),
      saml: Object.values(DEFAULT_ATTRIBUTES.saml).join(', '),
    },
    saved: query.get('saved') === '1',
  };
});

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  requireManager(request, context);
  const parsed = campusSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const errors: ActionErrors = {};
    for (const issue of parsed.error.issues) {
      errors[String(issue.path[0] ?? 'form')] ??= { key: 'manage.campus.error.invalid' };
    }
    return data({ errors }, { status: 400 });
  }
  const { id: rawId, orgId, clearClientSecret, intent: _intent, ...fields } = parsed.data;
  const id = rawId === '' ? null : parseId(rawId);
  if (rawId !== '' && id === null) {
    return data(
      { errors: { form: { key: 'manage.campus.error.invalid' } } as ActionErrors },
      { status: 400 },
    );
  }
  let result: Awaited<ReturnType<typeof saveCampusSettings>>;
  try {
    result = await saveCampusSettings(context.rc, {
      id,
      allowLoopback: context.loopbackIdentityProviders,
      form: { ...fields, orgId: parseId(orgId), clearClientSecret: clearClientSecret === 'on' },
    });
  } catch (error) {
    // Two managers saving a campus for one organisation at once: the unique index decides.
    if (!isUniqueViolation(error)) throw error;
    return data(
      { errors: { form: { key: 'manage.campus.error.conflict' } } as ActionErrors },
      { status: 409 },
    );
  }
  if (!result.ok) return data({ errors: result.errors as ActionErrors }, { status: 400 });
  // On to the saved campus: for SAML, the addresses its IT needs are shown there.
  return redirect(`/manage/campus-sign-in?saved=1&edit=${result.id}`);
});

type Editing = CampusSettingsRow | null;

function TextArea({
  name,
  label,
  help,
  error,
  defaultValue,
  rows = 4,
}: {
  name: string;
  label: string;
  help?: string;
  error?: { key: string; params?: Record<string, string> };
  defaultValue: string;
  rows?: number;
}) {
  const t = useT();
  const describedBy = [help ? `${name}-help` : null, error ? `${name}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      {help ? <p id={`${name}-help`}>{help}</p> : null}
      <textarea
        id={name}
        name={name}
        rows={rows}
        defaultValue={defaultValue}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      {error ? (
        <p className="field__error" id={`${name}-error`}>
          {t(error.key, error.params)}
        </p>
      ) : null}
    </div>
  );
}

function CampusForm({
  campus,
  organizations,
  spEntityId,
  attributeDefaults,
}: {
  campus: Editing;
  organizations: { id: number; title: string }[];
  spEntityId: string;
  attributeDefaults: { oidc: string; saml: string };
}) {
  const t = useT();
  const csrfToken = useCsrfToken();
  const result = useActionData<{ errors?: ActionErrors }>();
  const errors = result?.errors ?? {};
  const field = (
    name: keyof CampusSettingsRow | 'oidcClientSecret',
    value: string | null | undefined,
    props: Record<string, unknown> = {},
  ) => (
    <TextField
      name={name}
      label={t(`manage.campus.field.${name}`)}
      error={errors[name]?.key}
      errorParams={errors[name]?.params}
      defaultValue={value ?? ''}
      spellCheck={false}
      {...props}
    />
  );
  return (
    <Form method="post" className="stack" key={campus?.id ?? 'new'}>
      <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="id" value={campus?.id ?? ''} />
      <h2>
        {campus ? t('manage.campus.edit', { name: campus.orgTitle }) : t('manage.campus.add')}
      </h2>
      {errors.form ? (
        <p className="alert alert--error" role="alert">
          {t(errors.form.key)}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="orgId">{t('manage.campus.field.orgId')}</label>
        <select
          id="orgId"
          name="orgId"
          required
          defaultValue={campus?.orgId ?? ''}
          aria-invalid={errors.orgId ? true : undefined}
          aria-describedby={errors.orgId ? 'orgId-error' : undefined}
        >
          <option value="">{t('manage.campus.field.chooseOrg')}</option>
          {organizations.map((org) => (
            <option key={org.id} value={org.id}>
              {org.title}
            </option>
          ))}
        </select>
        {errors.orgId ? (
          <p className="field__error" id="orgId-error">
            {t(errors.orgId.key)}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="protocol">{t('manage.campus.field.protocol')}</label>
        <select
          id="protocol"
          name="protocol"
          defaultValue={campus?.protocol ?? 'oidc'}
          aria-invalid={errors.protocol ? true : undefined}
          aria-describedby={errors.protocol ? 'protocol-error' : undefined}
        >
          <option value="oidc">{t('manage.campus.protocol.oidc')}</option>
          <option value="saml">{t('manage.campus.protocol.saml')}</option>
        </select>
        {errors.protocol ? (
          <p className="field__error" id="protocol-error">
            {t(errors.protocol.key)}
          </p>
        ) : null}
      </div>
      {field('emailDomains', campus?.emailDomains.join(', '), {
        required: true,
        'aria-describedby': 'emailDomains-help',
      })}
      <p id="emailDomains-help">{t('manage.campus.help.emailDomains')}</p>
      <fieldset className="stack-sm">
        <legend>{t('manage.campus.attributes')}</legend>
        <p>{t('manage.campus.help.attributes', attributeDefaults)}</p>
        {field('emailAttribute', campus?.emailAttribute)}
        {field('firstNameAttribute', campus?.firstNameAttribute)}
        {field('lastNameAttribute', campus?.lastNameAttribute)}
        {field('campusIdAttribute', campus?.campusIdAttribute)}
      </fieldset>
      <fieldset className="stack-sm">
        <legend>{t('manage.campus.protocol.oidc')}</legend>
        {field('oidcIssuer', campus?.oidcIssuer, { inputMode: 'url' })}
        {field('oidcClientId', campus?.oidcClientId)}
        {field('oidcScopes', campus?.oidcScopes, { 'aria-describedby': 'oidcScopes-help' })}
        <p id="oidcScopes-help">{t('manage.campus.help.oidcScopes')}</p>
        {field('oidcClientSecret', '', {
          type: 'password',
          autoComplete: 'new-password',
          placeholder: campus?.hasClientSecret ? t('manage.campus.secretKept') : '',
        })}
        {campus?.hasClientSecret ? (
          <div className="field">
            <label>
              <input type="checkbox" name="clearClientSecret" />{' '}
              {t('manage.campus.field.clearClientSecret')}
            </label>
          </div>
        ) : null}
      </fieldset>
      <fieldset className="stack-sm">
        <legend>{t('manage.campus.protocol.saml')}</legend>
        <TextArea
          name="samlMetadata"
          label={t('manage.campus.field.samlMetadata')}
          help={t('manage.campus.help.samlMetadata')}
          error={errors.samlMetadata}
          defaultValue=""
          rows={6}
        />
        {field('samlIdpEntityId', campus?.samlIdpEntityId)}
        {field('samlSsoUrl', campus?.samlSsoUrl, { inputMode: 'url' })}
        <TextArea
          name="samlSigningCert"
          label={t('manage.campus.field.samlSigningCert')}
          error={errors.samlSigningCert}
          defaultValue={campus?.samlSigningCert ?? ''}
        />
        {field('samlSpEntityId', campus?.samlSpEntityId ?? spEntityId)}
      </fieldset>
      <p>
        <button type="submit" className="button button--primary">
          {t('manage.campus.save')}
        </button>
      </p>
    </Form>
  );
}

function ForCampusIt({
  sp,
  entityId,
}: {
  sp: { metadataUrl: string; acsUrl: string };
  entityId: string | null;
}) {
  const t = useT();
  return (
    <section className="stack-sm" aria-labelledby="campus-it">
      <h2 id="campus-it">{t('manage.campus.sp.heading')}</h2>
      <p>{t('manage.campus.sp.help')}</p>
      <dl className="details">
        <dt>{t('manage.campus.sp.metadataUrl')}</dt>
        <dd>
          <a href={sp.metadataUrl}>{sp.metadataUrl}</a>
        </dd>
        <dt>{t('manage.campus.sp.entityId')}</dt>
        <dd>{entityId}</dd>
        <dt>{t('manage.campus.sp.acsUrl')}</dt>
        <dd>{sp.acsUrl}</dd>
      </dl>
    </section>
  );
}

export default function CampusSignInSettingsPage() {
  const { campuses, organizations, editing, defaultSpEntityId, attributeDefaults, saved } =
    useLoaderData<typeof loader>();
  const t = useT();
  const editingSp = editing ? campuses.find((c) => c.id === editing.id)?.sp : null;
  return (
    <section className="stack">
      <h1>{t('manage.campus.title')}</h1>
      <p>{t('manage.campus.intro')}</p>
      {saved ? <output>{t('manage.campus.saved')}</output> : null}
      {campuses.length === 0 ? (
        <p>{t('manage.campus.none')}</p>
      ) : (
        <TableScroll label={t('manage.campus.caption')}>
          <table className="analytics-table">
            <caption>{t('manage.campus.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('manage.campus.col.org')}</th>
                <th scope="col">{t('manage.campus.col.protocol')}</th>
                <th scope="col">{t('manage.campus.col.domains')}</th>
                <th scope="col">{t('manage.campus.col.idp')}</th>
                <th scope="col">{t('manage.campus.col.sp')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('manage.campus.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {campuses.map((campus) => (
                <tr key={campus.id}>
                  <th scope="row">{campus.orgTitle}</th>
                  <td>{t(`manage.campus.protocol.${campus.protocol}`)}</td>
                  <td>{campus.emailDomains.join(', ')}</td>
                  <td>{campus.protocol === 'oidc' ? campus.oidcIssuer : campus.samlIdpEntityId}</td>
                  <td>
                    {campus.sp ? <a href={campus.sp.metadataUrl}>{campus.sp.metadataUrl}</a> : null}
                  </td>
                  <td>
                    <Link
                      to={`?edit=${campus.id}`}
                      aria-label={t('manage.campus.edit', { name: campus.orgTitle })}
                    >
                      {t('manage.campus.editShort')}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {editing && editingSp ? (
        <ForCampusIt sp={editingSp} entityId={editing.samlSpEntityId} />
      ) : null}
      <CampusForm
        campus={editing}
        organizations={organizations}
        spEntityId={defaultSpEntityId}
        attributeDefaults={attributeDefaults}
      />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'manage.campus.title');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
