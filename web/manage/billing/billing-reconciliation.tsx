import { data, Form, Link, useActionData, useLoaderData } from 'react-router';
import {
  BILLING_TOOLS,
  PAID_UPLOAD_LIMIT_MEGABYTES,
} from '#domain/operations/billing/billing-limits.ts';
import { termReconciliation } from '#domain/operations/billing/billing-service.ts';
import { reconcileWithPaidUpload } from '#domain/operations/billing/paid-upload.ts';
import type { Reconciliation } from '#domain/operations/billing/reconciliation.ts';
import { formatMoney } from '#i18n/translate.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { uploadedFiles } from '#web/manage/catalog-upload.server.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/billing-reconciliation.ts';
import { pathId } from './path-id.ts';

type ActionResult =
  | { kind: 'paid'; reconciliation: Reconciliation; rows: number }
  | { kind: 'error'; message: string; line?: number };

// /manage/billing/terms/{id}/reconciliation (issue 39): billed (net of credits) vs what the
// billing rule expects now vs, when the campus's paid file is uploaded, what was paid; every
// difference by student with its reason. The upload is streamed to a temporary file by the
// edge within its limit (server/edge.ts, a larger one is a 413 page saying the limit), read from
// there a line at a time and deleted: it changes nothing. The form reloads the document, so
// that page replaces this one rather than failing a client-side fetch.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { scope } = requireTool(request, context, ...BILLING_TOOLS);
  const { term, reconciliation } = await termReconciliation(
    context.rc,
    scope,
    pathId(params.termId),
    null,
  );
  return { term, reconciliation, csrfToken: context.csrfToken };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  const { scope } = requireTool(request, context, ...BILLING_TOOLS);
  const form = await request.formData();
  const upload = uploadedFiles(context, form).find((f) => f.field === 'paid') ?? null;
  const outcome = await reconcileWithPaidUpload(context.rc, scope, pathId(params.termId), upload);
  if (!outcome.ok) {
    return data<ActionResult>(
      { kind: 'error', message: outcome.message, line: outcome.line },
      { status: outcome.status },
    );
  }
  return data<ActionResult>({
    kind: 'paid',
    reconciliation: outcome.reconciliation,
    rows: outcome.rows,
  });
});

export default function BillingReconciliationPage() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<ActionResult>();
  const t = useT();
  const locale = useLocale();
  const money = (cents: number | null) => (cents === null ? '—' : formatMoney(locale, cents));
  const reconciliation = result?.kind === 'paid' ? result.reconciliation : loaded.reconciliation;
  const { term, csrfToken } = loaded;
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <p>
          <Link to={`/manage/billing/terms/${term.id}`}>
            {t('ops.billing.charge.back', { term: term.title })}
          </Link>
        </p>
        <h1>{t('ops.billing.recon.heading', { term: term.title })}</h1>
      </header>
      <dl className="cluster">
        <div>
          <dt>{t('ops.billing.recon.expected')}</dt>
          <dd>{money(reconciliation.expectedCents)}</dd>
        </div>
        <div>
          <dt>{t('ops.billing.recon.billed')}</dt>
          <dd>{money(reconciliation.billedCents)}</dd>
        </div>
        <div>
          <dt>{t('ops.billing.recon.paid')}</dt>
          <dd>{money(reconciliation.paidCents)}</dd>
        </div>
      </dl>
      <Form method="post" encType="multipart/form-data" reloadDocument className="stack-sm">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
        <div className="field">
          <label htmlFor="paid-file">{t('ops.billing.paid.label')}</label>
          <p className="field__hint" id="paid-file-hint">
            {t('ops.billing.paid.hint', { max: PAID_UPLOAD_LIMIT_MEGABYTES })}
          </p>
          <input
            id="paid-file"
            name="paid"
            type="file"
            accept=".csv,text/csv"
            required
            aria-invalid={result?.kind === 'error' ? true : undefined}
            aria-describedby={
              result?.kind === 'error' ? 'paid-file-hint paid-file-error' : 'paid-file-hint'
            }
          />
          {result?.kind === 'error' ? (
            <p className="field__error" id="paid-file-error" role="alert">
              {t(result.message, { line: result.line ?? 1, max: PAID_UPLOAD_LIMIT_MEGABYTES })}
            </p>
          ) : null}
        </div>
        <p>
          <button type="submit" className="button button--secondary">
            {t('ops.billing.paid.submit')}
          </button>
        </p>
      </Form>
      {result?.kind === 'paid' ? (
        <output className="alert alert--success">
          {t('ops.billing.paid.read', { count: result.rows })}
        </output>
      ) : null}
      <section className="stack" aria-labelledby="recon-differences">
        <h2 id="recon-differences">{t('ops.billing.recon.differences')}</h2>
        {reconciliation.differences.length === 0 ? (
          <p>{t('ops.billing.recon.none')}</p>
        ) : (
          <TableScroll label={t('ops.billing.recon.differences')}>
            <table className="data-table">
              <caption className="visually-hidden">{t('ops.billing.recon.differences')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('ops.billing.col.campusId')}</th>
                  <th scope="col">{t('ops.billing.col.student')}</th>
                  <th scope="col">{t('ops.billing.col.section')}</th>
                  <th scope="col" className="num">
                    {t('ops.billing.recon.expected')}
                  </th>
                  <th scope="col" className="num">
                    {t('ops.billing.recon.billed')}
                  </th>
                  <th scope="col" className="num">
                    {t('ops.billing.recon.paid')}
                  </th>
                  <th scope="col">{t('ops.billing.recon.reason')}</th>
                </tr>
              </thead>
              <tbody>
                {reconciliation.differences.map((d) => (
                  <tr key={`${d.campusId}-${d.place}-${d.reason}`}>
                    <th scope="row">{d.campusId ?? t('ops.billing.recon.noCampusId')}</th>
                    <td>{d.name}</td>
                    <td>{d.place}</td>
                    <td className="num">{money(d.expectedCents)}</td>
                    <td className="num">{money(d.billedCents)}</td>
                    <td className="num">{money(d.paidCents)}</td>
                    <td>{t(d.reason)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, 'ops.billing.recon.pageTitle', { term: loaderData.term.title })
    : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
