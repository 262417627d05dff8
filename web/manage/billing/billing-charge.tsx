import { useEffect, useRef } from 'react';
import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { auditActorOf, auditTrail } from '#domain/operations/audit.ts';
import { billingCharge, markChargeRefunded } from '#domain/operations/billing/billing-service.ts';
import { formatMoney } from '#i18n/translate.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { fieldErrors } from '#web/forms/fields.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { AuditTrail } from '#web/manage/audit-trail.tsx';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/billing-charge.ts';
import { pathId } from './path-id.ts';

export const MAX_REASON = 1000;

const RefundForm = z.object({
  reason: z
    .string({ error: 'ops.billing.refund.error.reason' })
    .trim()
    .min(1, 'ops.billing.refund.error.reason')
    .max(MAX_REASON, 'ops.billing.refund.error.reasonTooLong')
    .refine(
      (text) => ![...text].some((c) => c < ' ' && c !== '\n' && c !== '\r' && c !== '\t'),
      'ops.billing.refund.error.reason',
    ),
});

type ActionResult = { error: string; reason: string };

// /manage/billing/charges/{id} (issue 39): one billed charge; staff mark it refunded by the
// campus, with the reason, and the next run credits it. Its history below.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { user, scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const charge = await billingCharge(context.rc, scope, pathId(params.chargeId));
  return {
    charge,
    audit: await auditTrail(context.rc.db, 'billing_charge', charge.id),
    timeZone: user.timeZone,
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  const { user, scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const chargeId = pathId(params.chargeId);
  const form = Object.fromEntries(await request.formData());
  const typed = typeof form.reason === 'string' ? form.reason.slice(0, MAX_REASON + 10) : '';
  const parsed = RefundForm.safeParse(form);
  if (!parsed.success) {
    const message = fieldErrors(parsed.error).reason ?? 'error.invalid';
    return data<ActionResult>(
      { error: message, reason: typed.replaceAll('\u0000', '') },
      { status: 400 },
    );
  }
  const outcome = await markChargeRefunded(context.rc, scope, auditActorOf(user), {
    chargeId,
    reason: parsed.data.reason,
  });
  if (!outcome.ok)
    return data<ActionResult>({ error: outcome.problem, reason: typed }, { status: 409 });
  return redirect(`/manage/billing/charges/${chargeId}`);
});

export default function BillingChargePage() {
  const { charge, audit, timeZone, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<ActionResult>();
  const t = useT();
  const locale = useLocale();
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (result) field.current?.focus();
  }, [result]);
  const status = charge.credited
    ? 'ops.billing.charge.status.credited'
    : charge.refundedAt
      ? 'ops.billing.charge.status.refunded'
      : 'ops.billing.charge.status.billed';
  return (
    <section className="narrow stack-lg">
      <header className="stack-sm">
        <p>
          <Link to={`/manage/billing/terms/${charge.termId}`}>
            {t('ops.billing.charge.back', { term: charge.termTitle })}
          </Link>
        </p>
        <h1>{t('ops.billing.charge.heading', { name: charge.name || charge.campusId })}</h1>
        <dl className="stack-sm">
          <div>
            <dt>{t('ops.billing.col.campusId')}</dt>
            <dd>{charge.campusId}</dd>
          </div>
          <div>
            <dt>{t('ops.billing.col.section')}</dt>
            <dd>{charge.place}</dd>
          </div>
          <div>
            <dt>{t('ops.billing.col.amount')}</dt>
            <dd>{formatMoney(locale, charge.amountCents)}</dd>
          </div>
          <div>
            <dt>{t('ops.billing.charges.status')}</dt>
            <dd>{t(status, { number: charge.sequence })}</dd>
          </div>
        </dl>
      </header>
      {!charge.credited && !charge.refundedAt ? (
        <Form method="post" className="stack" aria-labelledby="refund-heading">
          <h2 id="refund-heading">{t('ops.billing.refund.heading')}</h2>
          <p>{t('ops.billing.refund.intro')}</p>
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          <div className="field">
            <label htmlFor="refund-reason">{t('ops.billing.refund.reason')}</label>
            <textarea
              ref={field}
              id="refund-reason"
              name="reason"
              rows={3}
              required
              maxLength={MAX_REASON}
              defaultValue={result?.reason ?? ''}
              aria-invalid={result ? true : undefined}
              aria-describedby={result ? 'refund-reason-error' : undefined}
            />
            {result ? (
              <p className="field__error" id="refund-reason-error">
                {t(result.error, { max: MAX_REASON })}
              </p>
            ) : null}
          </div>
          <p>
            <button type="submit" className="button button--primary">
              {t('ops.billing.refund.submit')}
            </button>
          </p>
        </Form>
      ) : null}
      <AuditTrail lines={audit} timeZone={timeZone} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, 'ops.billing.charge.pageTitle', {
        name: loaderData.charge.name || loaderData.charge.campusId,
      })
    : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
