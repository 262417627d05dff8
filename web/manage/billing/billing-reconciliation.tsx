import { data, Form, Link, useActionData, useLoaderData } from 'react-router';
import { billingMapping, termReconciliation } from '#domain/operations/billing/billing-service.ts';
import { MAX_PAID_FILE_BYTES, readPaidFile } from '#domain/operations/billing/paid-file.ts';
import type { Reconciliation } from '#domain/operations/billing/reconciliation.ts';
import { formatMoney } from '#i18n/translate.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
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
// difference by student with its reason. The upload is read as a stream, size-limited, and
// not kept: it changes nothing.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const { term, reconciliation } = await termReconciliation(
    context.rc,
    scope,
    pathId(params.termId),
    null,
  );
  return { term, reconciliation, csrfToken: context.csrfToken };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  const { scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const termId = pathId(params.termId);
  const { term } = await termReconciliation(context.rc, scope, termId, null);
  const form = await request.formData();
  const file = form.get('paid');
  if (!(file instanceof File) || file.size === 0) {
    return data<ActionResult>(
      { kind: 'error', message: 'ops.billing.paid.error.noFile' },
      { status: 400 },
    );
  }
  if (file.size > MAX_PAID_FILE_BYTES) {
    return data<ActionResult>(
      { kind: 'error', message: 'ops.billing.paid.error.tooLarge' },
      { status: 413 },
    );
  }
  const { columns } = await billingMapping(context.rc, scope, term.orgId);
  const header = (field: string) => columns.find((c) => c.field === field)?.header ?? null;
  const paid = await readPaidFile(file.stream() as unknown as AsyncIterable<Uint8Array>, {
    campusId: header('campus_id') ?? 'campus_id',
    amountDecimal: header('amount_decimal'),
    amountCents: header('amount_cents'),
  });
  if (!paid.ok) {
    return data<ActionResult>(
      { kind: 'error', message: paid.problem, line: paid.line },
      { status: 400 },
    );
  }
  const { reconciliation } = await termReconciliation(context.rc, scope, termId, paid.paid);
  return data<ActionResult>({ kind: 'paid', reconciliation, rows: paid.rows });
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
      <Form method="post" encType="multipart/form-data" className="stack-sm">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
        <div className="field">
          <label htmlFor="paid-file">{t('ops.billing.paid.label')}</label>
          <p className="field__hint" id="paid-file-hint">
            {t('ops.billing.paid.hint')}
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
              {t(result.message, { line: result.line ?? 1 })}
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
          <div className="table-scroll">
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
          </div>
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
