import { useEffect, useRef } from 'react';
import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { auditActorOf, auditTrail } from '#domain/operations/audit.ts';
import { billingMapping, saveBillingMapping } from '#domain/operations/billing/billing-service.ts';
import {
  BILLING_FIELDS,
  type BillingField,
  checkMapping,
  MAX_BILLING_COLUMNS,
  MAX_HEADER_LENGTH,
} from '#domain/operations/billing/charge-file.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { AuditTrail } from '#web/manage/audit-trail.tsx';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/billing-mapping.ts';
import { pathId } from './path-id.ts';

const ROWS = Array.from({ length: MAX_BILLING_COLUMNS }, (_, i) => i);

// Each row: a field of ours ('' leaves the row out) and the campus's header for it.
const MappingForm = z.object(
  Object.fromEntries(
    ROWS.flatMap((i) => [
      [`field${i}`, z.union([z.literal(''), z.enum(BILLING_FIELDS)], { error: 'error.invalid' })],
      [
        `header${i}`,
        z
          .string({ error: 'error.invalid' })
          .max(MAX_HEADER_LENGTH * 2, 'ops.billing.mapping.error.headerTooLong'),
      ],
    ]),
  ) as Record<string, z.ZodType<string>>,
);

type Row = { field: string; header: string };
type ActionResult = {
  rows: Row[];
  errors: Record<number, string>;
  missing: string[];
  form?: string;
};

// /manage/billing/mapping/{orgId} (issue 39): which of our fields go in which column of the
// campus's charge file, under which header, in which order; the header line previewed.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { user, scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const mapping = await billingMapping(context.rc, scope, pathId(params.orgId));
  return {
    ...mapping,
    saved: new URL(request.url).searchParams.has('saved'),
    audit: await auditTrail(context.rc.db, 'billing_mapping', mapping.orgId),
    timeZone: user.timeZone,
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  const { user, scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const orgId = pathId(params.orgId);
  await billingMapping(context.rc, scope, orgId);
  const form = Object.fromEntries(await request.formData());
  const typed: Row[] = ROWS.map((i) => ({
    field: typeof form[`field${i}`] === 'string' ? String(form[`field${i}`]).slice(0, 40) : '',
    header:
      typeof form[`header${i}`] === 'string'
        ? String(form[`header${i}`])
            .replaceAll('\u0000', '')
            .slice(0, MAX_HEADER_LENGTH * 2)
        : '',
  }));
  const parsed = MappingForm.safeParse(form);
  if (!parsed.success) {
    return data<ActionResult>(
      { rows: typed, errors: {}, missing: [], form: 'error.invalid' },
      { status: 400 },
    );
  }
  const check = checkMapping(
    ROWS.map((i) => ({
      field: parsed.data[`field${i}`] === '' ? null : (parsed.data[`field${i}`] as BillingField),
      header: parsed.data[`header${i}`] ?? '',
    })),
  );
  if (!check.ok)
    return data<ActionResult>(
      { rows: typed, errors: check.rows, missing: check.missing },
      { status: 400 },
    );
  await saveBillingMapping(context.rc, scope, auditActorOf(user), {
    orgId,
    columns: check.columns,
  });
  return redirect(`/manage/billing/mapping/${orgId}?saved`);
});

export default function BillingMappingPage() {
  const { orgTitle, columns, header, saved, audit, timeZone, csrfToken } =
    useLoaderData<typeof loader>();
  const result = useActionData<ActionResult>();
  const t = useT();
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result || saved) notice.current?.focus();
  }, [result, saved]);
  const rows: Row[] =
    result?.rows ??
    ROWS.map((i) => ({ field: columns[i]?.field ?? '', header: columns[i]?.header ?? '' }));
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <p>
          <Link to="/manage/billing">{t('ops.billing.terms.back')}</Link>
        </p>
        <h1>{t('ops.billing.mapping.heading', { campus: orgTitle })}</h1>
        <p>{t('ops.billing.mapping.intro')}</p>
      </header>
      <div ref={notice} tabIndex={-1}>
        {saved && !result ? (
          <output className="alert alert--success">{t('ops.billing.mapping.saved')}</output>
        ) : null}
        {result ? (
          <div className="alert alert--error" role="alert">
            <p>{t(result.form ?? 'ops.billing.mapping.error.summary')}</p>
            {result.missing.map((m) => (
              <p key={m}>{t(`ops.billing.mapping.error.missing.${m}`)}</p>
            ))}
          </div>
        ) : null}
      </div>
      <section className="stack-sm" aria-labelledby="mapping-header">
        <h2 id="mapping-header">{t('ops.billing.mapping.header')}</h2>
        <pre
          className="billing-header-line"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a header line wider than the screen scrolls from the keyboard only when it takes focus (WCAG 2.1.1)
          tabIndex={0}
        >
          {header.trimEnd()}
        </pre>
      </section>
      <Form method="post" className="stack">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
        <ol className="stack billing-mapping">
          {rows.map((row, i) => {
            const error = result?.errors[i];
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions, fixed in number
              <li key={i} className="cluster">
                <div className="field">
                  <label htmlFor={`mapping-field-${i}`}>
                    {t('ops.billing.mapping.field', { n: i + 1 })}
                  </label>
                  <select id={`mapping-field-${i}`} name={`field${i}`} defaultValue={row.field}>
                    <option value="">{t('ops.billing.mapping.none')}</option>
                    {BILLING_FIELDS.map((f) => (
                      <option key={f} value={f}>
                        {t(`ops.billing.field.${f}`)}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor={`mapping-header-${i}`}>
                    {t('ops.billing.mapping.headerOf', { n: i + 1 })}
                  </label>
                  <input
                    id={`mapping-header-${i}`}
                    name={`header${i}`}
                    type="text"
                    maxLength={MAX_HEADER_LENGTH}
                    defaultValue={row.header}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `mapping-header-${i}-error` : undefined}
                  />
                  {error ? (
                    <p className="field__error" id={`mapping-header-${i}-error`}>
                      {t(error, { max: MAX_HEADER_LENGTH })}
                    </p>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ol>
        <p>
          <button type="submit" className="button button--primary">
            {t('ops.billing.mapping.save')}
          </button>
        </p>
      </Form>
      <AuditTrail lines={audit} timeZone={timeZone} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, 'ops.billing.mapping.pageTitle', { campus: loaderData.orgTitle })
    : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
