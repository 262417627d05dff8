import { useEffect, useRef } from 'react';
import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { auditActorOf, auditTrail } from '#domain/operations/audit.ts';
import type { BillingLine } from '#domain/operations/billing/billing-lines.ts';
import { finaliseBillingRun, termBilling } from '#domain/operations/billing/billing-service.ts';
import { parseId } from '#domain/shared/id.ts';
import { formatMoney, translate } from '#i18n/translate.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { AuditTrail } from '#web/manage/audit-trail.tsx';
import { ConfirmStep } from '#web/manage/courses/confirm-step.tsx';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/billing-term.ts';
import { pathId } from './path-id.ts';

// Finalising cannot be undone, so it asks first (as End term does): the first post answers
// with the question, the second carries confirm=yes and the same preview's fingerprint.
const FinaliseForm = z.object({
  intent: z.literal('finalise'),
  fingerprint: z.string().min(1).max(40),
  confirm: z.literal('yes').optional(),
});

type ActionResult = {
  message: 'ops.billing.run.nothingNew' | 'ops.billing.run.changed' | 'error.invalid';
};
/** The first post's answer: finalise the preview with this fingerprint? */
type FinaliseQuestion = { confirmFinalise: { fingerprint: string } };

// /manage/billing/terms/{id} (issue 39): the next run's preview, "Finalise run", the files
// made (each downloadable again), the charges billed and the term's billing history.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { user, scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const view = await termBilling(context.rc, scope, pathId(params.termId));
  const url = new URL(request.url);
  const made = parseId(url.searchParams.get('made'));
  return {
    ...view,
    made: made !== null ? (view.runs.find((r) => r.sequence === made)?.sequence ?? null) : null,
    audit: await auditTrail(context.rc.db, 'term', view.term.id),
    timeZone: user.timeZone,
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  const { user, scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const termId = pathId(params.termId);
  const parsed = FinaliseForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data<ActionResult>({ message: 'error.invalid' }, { status: 400 });
  if (!parsed.data.confirm) {
    return data<FinaliseQuestion>({ confirmFinalise: { fingerprint: parsed.data.fingerprint } });
  }
  const locale = context.rc.locale;
  const describe = (line: BillingLine) =>
    translate(
      locale,
      line.kind === 'charge'
        ? 'ops.billing.file.charge'
        : line.creditReason === 'refund'
          ? 'ops.billing.file.creditRefund'
          : 'ops.billing.file.creditDrop',
      { course: line.courseCode, section: line.sectionLabel },
    );
  const outcome = await finaliseBillingRun(context.rc, scope, auditActorOf(user), {
    termId,
    fingerprint: parsed.data.fingerprint,
    describe,
  });
  if (outcome.kind === 'final') {
    return redirect(`/manage/billing/terms/${termId}?made=${outcome.sequence}`);
  }
  return data<ActionResult>(
    {
      message:
        outcome.kind === 'nothingNew' ? 'ops.billing.run.nothingNew' : 'ops.billing.run.changed',
    },
    { status: 409 },
  );
});

export default function BillingTermPage() {
  const { term, preview, runs, charges, currency, made, audit, timeZone, csrfToken } =
    useLoaderData<typeof loader>();
  const answered = useActionData<ActionResult | FinaliseQuestion>();
  const asked = answered && 'confirmFinalise' in answered ? answered.confirmFinalise : null;
  // Asked of the preview the page showed: if billing moved on since (another tab finalised,
  // a student opted out), the page says so, as finalising it would, instead of asking.
  const current = asked?.fingerprint === preview.fingerprint && preview.lines.length > 0;
  const question = asked && current ? asked : null;
  const result: ActionResult | undefined =
    answered && 'message' in answered
      ? answered
      : asked && !current
        ? {
            message:
              preview.lines.length === 0 ? 'ops.billing.run.nothingNew' : 'ops.billing.run.changed',
          }
        : undefined;
  const t = useT();
  const locale = useLocale();
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result || made) notice.current?.focus();
  }, [result, made]);
  const money = (cents: number) => formatMoney(locale, cents, currency);
  const when = (iso: Date | string, zone: string) =>
    new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: zone,
      timeZoneName: 'short',
    }).format(new Date(iso));
  const { totals } = preview;
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <p>
          <Link to="/manage/billing">{t('ops.billing.terms.back')}</Link>
        </p>
        <h1>{t('ops.billing.term.heading', { term: term.title })}</h1>
        <p className="cluster">
          <Link to={`/manage/billing/terms/${term.id}/reconciliation`}>
            {t('ops.billing.term.reconcile')}
          </Link>
          <Link to={`/manage/billing/mapping/${term.orgId}`}>{t('ops.billing.term.mapping')}</Link>
        </p>
      </header>
      <div ref={notice} tabIndex={-1}>
        {made && !question ? (
          <output className="alert alert--success">
            {t('ops.billing.run.made', { number: made })}
          </output>
        ) : null}
        {result ? (
          <div className="alert alert--error" role="alert">
            {t(result.message)}
          </div>
        ) : null}
      </div>

      <section className="stack" aria-labelledby="billing-preview">
        <h2 id="billing-preview">{t('ops.billing.preview.heading')}</h2>
        {preview.lines.length === 0 ? (
          <p>{t('ops.billing.preview.empty')}</p>
        ) : (
          <>
            <p>
              {t('ops.billing.preview.summary', {
                charges: totals.chargeCount,
                credits: totals.creditCount,
                amount: money(totals.totalCents),
              })}
            </p>
            <TableScroll label={t('ops.billing.preview.heading')}>
              <table className="data-table">
                <caption className="visually-hidden">{t('ops.billing.preview.heading')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('ops.billing.col.campusId')}</th>
                    <th scope="col">{t('ops.billing.col.student')}</th>
                    <th scope="col">{t('ops.billing.col.section')}</th>
                    <th scope="col">{t('ops.billing.col.type')}</th>
                    <th scope="col" className="num">
                      {t('ops.billing.col.amount')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {preview.lines.map((line) => (
                    <tr key={`${line.kind}-${line.sectionId}-${line.userId}`}>
                      <th scope="row">{line.campusId}</th>
                      <td>{line.name || line.email}</td>
                      <td>{`${line.courseCode} ${line.sectionLabel}`}</td>
                      <td>
                        {t(
                          line.kind === 'charge'
                            ? 'ops.billing.type.charge'
                            : line.creditReason === 'refund'
                              ? 'ops.billing.type.creditRefund'
                              : 'ops.billing.type.creditDrop',
                        )}
                      </td>
                      <td className="num">{money(line.amountCents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </>
        )}
        {preview.waiting.length > 0 ? (
          <div className="stack-sm">
            <h3>{t('ops.billing.preview.waiting')}</h3>
            <ul>
              {preview.waiting.map((w) => (
                <li key={w.sectionId}>
                  {t('ops.billing.preview.waitingLine', {
                    section: `${w.courseCode} ${w.sectionLabel}`,
                    date: when(w.deadline, w.timeZone),
                  })}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {preview.missingCampusId.length > 0 ? (
          <div className="stack-sm">
            <h3>{t('ops.billing.preview.missing')}</h3>
            <ul>
              {preview.missingCampusId.map((p) => (
                <li key={`${p.sectionId}-${p.userId}`}>
                  {t('ops.billing.preview.missingLine', {
                    name: p.name || p.email,
                    section: `${p.courseCode} ${p.sectionLabel}`,
                  })}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {question ? (
          <ConfirmStep
            heading={t('ops.billing.confirm.heading', { term: term.title })}
            text={`${t('ops.billing.preview.summary', {
              charges: totals.chargeCount,
              credits: totals.creditCount,
              amount: money(totals.totalCents),
            })} ${t('ops.billing.confirm.text')}`}
            intent="finalise"
            fields={{ fingerprint: question.fingerprint }}
            csrfToken={csrfToken}
            confirmLabel={t('ops.billing.run.finalise')}
            cancelTo={`/manage/billing/terms/${term.id}`}
          />
        ) : preview.lines.length > 0 ? (
          <Form method="post" className="stack-sm">
            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
            <input type="hidden" name="intent" value="finalise" />
            <input type="hidden" name="fingerprint" value={preview.fingerprint} />
            <p>{t('ops.billing.run.explain')}</p>
            <p>
              <button type="submit" className="button button--primary">
                {t('ops.billing.run.finalise')}
              </button>
            </p>
          </Form>
        ) : null}
      </section>

      <section className="stack" aria-labelledby="billing-runs">
        <h2 id="billing-runs">{t('ops.billing.runs.heading')}</h2>
        {runs.length === 0 ? (
          <p>{t('ops.billing.runs.none')}</p>
        ) : (
          <TableScroll label={t('ops.billing.runs.heading')}>
            <table className="data-table">
              <caption className="visually-hidden">{t('ops.billing.runs.heading')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('ops.billing.runs.number')}</th>
                  <th scope="col">{t('ops.billing.runs.when')}</th>
                  <th scope="col">{t('ops.billing.runs.by')}</th>
                  <th scope="col" className="num">
                    {t('ops.billing.runs.lines')}
                  </th>
                  <th scope="col" className="num">
                    {t('ops.billing.col.amount')}
                  </th>
                  <th scope="col">{t('ops.billing.runs.file')}</th>
                </tr>
              </thead>
              <tbody>
                {runs.map((run) => (
                  <tr key={run.id}>
                    <th scope="row">{run.sequence}</th>
                    <td>{when(run.createdAt, timeZone)}</td>
                    <td>{run.createdByLabel}</td>
                    <td className="num">
                      {t('ops.billing.runs.counts', {
                        charges: run.chargeCount,
                        credits: run.creditCount,
                      })}
                    </td>
                    <td className="num">{formatMoney(locale, run.totalCents, run.currency)}</td>
                    <td>
                      <a href={`/manage/billing/runs/${run.id}/file.csv`} download={run.fileName}>
                        {t('ops.billing.runs.download', { number: run.sequence })}
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>

      <section className="stack" aria-labelledby="billing-charges">
        <h2 id="billing-charges">{t('ops.billing.charges.heading')}</h2>
        {charges.length === 0 ? (
          <p>{t('ops.billing.charges.none')}</p>
        ) : (
          <TableScroll label={t('ops.billing.charges.heading')}>
            <table className="data-table">
              <caption className="visually-hidden">{t('ops.billing.charges.heading')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('ops.billing.col.campusId')}</th>
                  <th scope="col">{t('ops.billing.col.student')}</th>
                  <th scope="col">{t('ops.billing.col.section')}</th>
                  <th scope="col" className="num">
                    {t('ops.billing.col.amount')}
                  </th>
                  <th scope="col">{t('ops.billing.charges.status')}</th>
                </tr>
              </thead>
              <tbody>
                {charges.map((charge) => (
                  <tr key={charge.id}>
                    <th scope="row">
                      <Link to={`/manage/billing/charges/${charge.id}`}>{charge.campusId}</Link>
                    </th>
                    <td>{charge.name}</td>
                    <td>{charge.place}</td>
                    <td className="num">{money(charge.amountCents)}</td>
                    <td>
                      {t(
                        charge.credited
                          ? 'ops.billing.charge.status.credited'
                          : charge.refundedAt
                            ? 'ops.billing.charge.status.refunded'
                            : 'ops.billing.charge.status.billed',
                        { number: charge.sequence },
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <AuditTrail lines={audit} timeZone={timeZone} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, 'ops.billing.term.pageTitle', { term: loaderData.term.title })
    : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
