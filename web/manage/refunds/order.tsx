import { Fragment, useEffect, useRef } from 'react';
import {
  data,
  Form,
  Link,
  type ShouldRevalidateFunctionArgs,
  useActionData,
  useLoaderData,
} from 'react-router';
import { z } from 'zod';
import { paidWithMessage } from '#domain/commerce/payment-card.ts';
import { MAX_REASON_LENGTH } from '#domain/commerce/refund-policy.ts';
import { refundLineAsStaff, refuseRefundRequest } from '#domain/commerce/refunds.ts';
import { staffOrder } from '#domain/commerce/refunds-views.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { idField } from '#web/forms/fields.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { AuditTrail } from '#web/manage/audit-trail.tsx';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/order.ts';

const reasonField = z
  .string({ error: 'error.invalid' })
  .max(MAX_REASON_LENGTH, 'ops.refunds.error.reasonTooLong')
  .refine((value) => !value.includes('\u0000'), 'error.invalid');

const LineForm = z.object({
  intent: z.enum(['refund', 'refuse'], { error: 'error.invalid' }),
  orderItemId: idField,
  reason: reasonField,
});

type ActionResult =
  | { kind: 'refunded'; title: string; amountCents: number }
  | { kind: 'processing'; title: string }
  | { kind: 'declined'; title: string }
  | { kind: 'alreadyRefunded'; title: string }
  | { kind: 'notice'; message: string; title: string; reason?: string }
  | { kind: 'error'; message: string; orderItemId: number | null; reason: string };

// /manage/orders/{orderId} (issue 39): an order on the help desk — its buyer, lines with the
// Refund Policy's word on each, payments, refunds and change history — where support and
// managers refund a line (beyond the policy only with a reason) or decline a buyer's request.
// Opened by the Users and My Users menu items' people (one rule); an order whose buyer is
// outside the staff member's organisations is not found, as one that does not exist.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { user, scope } = requireTool(request, context, 'users', 'myUsers');
  const order = await staffOrder(context.rc, scope, params.orderId);
  return { order, timeZone: user.timeZone, csrfToken: context.csrfToken };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  const { scope } = requireTool(request, context, 'users', 'myUsers');
  const form = Object.fromEntries(await request.formData());
  const parsed = LineForm.safeParse(form);
  const keptReason = typeof form.reason === 'string' ? form.reason.slice(0, MAX_REASON_LENGTH) : '';
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const onReason = issue?.path[0] === 'reason';
    const orderItemId = idField.safeParse(form.orderItemId);
    return data<ActionResult>(
      {
        kind: 'error',
        message: onReason ? issue!.message : 'ops.refunds.error.invalid',
        orderItemId: onReason && orderItemId.success ? orderItemId.data : null,
        reason: keptReason.replaceAll('\u0000', ''),
      },
      { status: 400 },
    );
  }
  const input = { orderId: params.orderId, ...parsed.data };
  if (parsed.data.intent === 'refuse') {
    const outcome = await refuseRefundRequest(context.rc, scope, input);
    if (outcome.kind === 'invalid') {
      return data<ActionResult>(
        { kind: 'error', message: outcome.message, orderItemId: input.orderItemId, reason: '' },
        { status: 400 },
      );
    }
    if (outcome.kind === 'notRequested') {
      return data<ActionResult>(
        { kind: 'notice', message: 'ops.refunds.staff.notRequested', title: outcome.title },
        { status: 409 },
      );
    }
    return data<ActionResult>({ kind: 'declined', title: outcome.title });
  }
  const outcome = await refundLineAsStaff(context.rc, context.gateway, scope, input);
  switch (outcome.kind) {
    case 'invalid':
      return data<ActionResult>(
        {
          kind: 'error',
          message: outcome.message,
          orderItemId: input.orderItemId,
          reason: input.reason,
        },
        { status: 400 },
      );
    case 'alreadyRefunded':
      return data<ActionResult>({ kind: 'alreadyRefunded', title: outcome.title });
    case 'refused':
      // Refunded already (the whole payment, as a duplicate): said calmly, as above.
      if (outcome.rule === 'ops.refunds.rule.alreadyRefunded') {
        return data<ActionResult>({ kind: 'alreadyRefunded', title: outcome.title });
      }
      return data<ActionResult>(
        {
          kind: 'notice',
          message: 'ops.refunds.staff.cannot',
          title: outcome.title,
          reason: outcome.rule,
        },
        { status: 409 },
      );
    case 'requested':
      return data<ActionResult>(
        {
          kind: 'notice',
          message: 'ops.refunds.staff.cannot',
          title: outcome.title,
          reason: outcome.rule,
        },
        { status: 409 },
      );
    default:
      return data<ActionResult>(outcome);
  }
});

// After any answer of the action — a 409 too, when the line moved under the click (a double
// click, a colleague) — the order is read again: the page shows what the database holds, never
// the state from before the click (React Router keeps the old data after a 4xx by default).
export function shouldRevalidate({
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return formMethod === 'POST' ? true : defaultShouldRevalidate;
}

export default function StaffOrderPage() {
  const { order, timeZone, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<ActionResult>();
  const t = useT();
  const locale = useLocale();
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result && result.kind !== 'error') notice.current?.focus();
  }, [result]);
  const money = (cents: number) => formatMoney(locale, cents, 'USD');
  const when = new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone,
  });
  const error = result?.kind === 'error' ? result : null;
  // The heading's words around the order number (a private-use mark stands in for it), so the
  // number can be kept on one line wherever the language puts it.
  const headingAround = t('ops.refunds.order.heading', { number: '\uE000' }).split('\uE000');
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>
          {headingAround.map((part, i) =>
            i === 0 ? (
              part
            ) : (
              // One line for the number: "5E1F-0000-0000" would break at its hyphens.
              <Fragment key="number">
                <span className="nowrap">{order.number}</span>
                {part}
              </Fragment>
            ),
          )}
        </h1>
        <dl className="stack-sm">
          <div>
            <dt>{t('ops.refunds.order.buyer')}</dt>
            <dd>
              {order.buyer.name ? `${order.buyer.name} ` : ''}
              {`<${order.buyer.email}>`}
            </dd>
          </div>
          {order.buyer.organization ? (
            <div>
              <dt>{t('ops.refunds.order.organization')}</dt>
              <dd>{order.buyer.organization}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('ops.refunds.order.placed')}</dt>
            <dd>{when.format(new Date(order.placedAt))}</dd>
          </div>
          <div>
            <dt>{t('ops.helpdesk.orders.status')}</dt>
            <dd>{t(`orders.status.${order.status}`)}</dd>
          </div>
        </dl>
        <p>
          {t('ops.refunds.order.totals', {
            total: money(order.amounts.totalCents),
            refunded: money(order.amounts.refundedCents),
          })}
        </p>
        {order.amounts.feeCents > 0 ? (
          <p>{t('ops.refunds.order.fee', { amount: money(order.amounts.feeCents) })}</p>
        ) : null}
        <p>
          <Link to="/manage/refund-requests">{t('ops.refunds.order.toQueue')}</Link>
        </p>
      </header>
      <div ref={notice} tabIndex={-1}>
        {result?.kind === 'refunded' ? (
          <output className="alert alert--success">
            {t('ops.refunds.staff.refunded', {
              title: result.title,
              amount: money(result.amountCents),
            })}
          </output>
        ) : null}
        {result?.kind === 'processing' ? (
          <output className="alert">
            {t('ops.refunds.staff.processing', { title: result.title })}
          </output>
        ) : null}
        {result?.kind === 'alreadyRefunded' ? (
          <output className="alert alert--success">
            {t('ops.refunds.staff.alreadyRefunded', { title: result.title })}
          </output>
        ) : null}
        {result?.kind === 'declined' ? (
          <output className="alert alert--success">
            {t('ops.refunds.staff.refused', { title: result.title })}
          </output>
        ) : null}
        {result?.kind === 'notice' ? (
          <div className="alert alert--error" role="alert">
            {t(result.message, {
              title: result.title,
              reason: result.reason ? t(result.reason) : '',
            })}
          </div>
        ) : null}
        {error && error.orderItemId === null ? (
          <div className="alert alert--error" role="alert">
            {t(error.message)}
          </div>
        ) : null}
      </div>
      <section className="stack" aria-labelledby="order-items">
        <h2 id="order-items">{t('ops.refunds.order.items')}</h2>
        <ul className="stack">
          {order.lines.map((line) => {
            const fieldError = error && error.orderItemId === line.orderItemId ? error : null;
            const reasonId = `reason-${line.orderItemId}`;
            const refundable =
              line.policy.kind !== 'never' &&
              (line.refund === null ||
                line.refund.status === 'requested' ||
                line.refund.status === 'refused');
            return (
              <li key={line.orderItemId} className="stack-sm refund-line">
                <h3>
                  {line.title} — {money(line.priceCents)}
                </h3>
                <p>
                  {line.policy.kind === 'refundable'
                    ? t('ops.refunds.order.policy.refundable')
                    : t(`ops.refunds.order.policy.${line.policy.kind}`, {
                        reason: t(line.policy.rule),
                      })}
                </p>
                {line.refund ? (
                  <p>
                    {line.refund.status === 'refunded' && line.refund.refundedAt
                      ? t('ops.refunds.state.refunded', {
                          date: when.format(new Date(line.refund.refundedAt)),
                        })
                      : line.refund.status === 'refused'
                        ? t('ops.refunds.state.refused', { reason: line.refund.reason ?? '' })
                        : t(`ops.refunds.state.${line.refund.status}`)}
                  </p>
                ) : null}
                {line.accessCode?.revoked ? (
                  <p>{t('ops.refunds.state.codeRevoked', { last4: line.accessCode.last4 })}</p>
                ) : null}
                {refundable ? (
                  <Form method="post" className="stack-sm">
                    <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
                    <input type="hidden" name="orderItemId" value={line.orderItemId} />
                    <div className="field">
                      <label htmlFor={reasonId}>{t('ops.refunds.order.reason')}</label>
                      <p className="field__hint" id={`${reasonId}-hint`}>
                        {t('ops.refunds.order.reasonHint')}
                      </p>
                      <textarea
                        id={reasonId}
                        name="reason"
                        rows={2}
                        maxLength={MAX_REASON_LENGTH}
                        defaultValue={fieldError?.reason ?? ''}
                        aria-invalid={fieldError ? true : undefined}
                        aria-describedby={
                          fieldError ? `${reasonId}-hint ${reasonId}-error` : `${reasonId}-hint`
                        }
                      />
                      {fieldError ? (
                        <p className="field__error" id={`${reasonId}-error`}>
                          {t(fieldError.message)}
                        </p>
                      ) : null}
                    </div>
                    <p className="cluster">
                      <button
                        type="submit"
                        name="intent"
                        value="refund"
                        className="button button--primary"
                        aria-label={t('ops.refunds.order.refundOf', { title: line.title })}
                      >
                        {t('ops.refunds.order.refundLine')}
                      </button>
                      {line.refund?.status === 'requested' ? (
                        <button
                          type="submit"
                          name="intent"
                          value="refuse"
                          className="button button--secondary"
                        >
                          {t('ops.refunds.order.refuse')}
                        </button>
                      ) : null}
                    </p>
                  </Form>
                ) : null}
              </li>
            );
          })}
        </ul>
      </section>
      <section className="stack-sm" aria-labelledby="order-payments">
        <h2 id="order-payments">{t('ops.refunds.order.payments')}</h2>
        {order.payments.length === 0 ? (
          <p>{t('ops.refunds.order.noPayments')}</p>
        ) : (
          <ul>
            {order.payments.map((payment, index) => {
              const { state } = payment;
              const status =
                state.kind === 'refunded'
                  ? t('ops.refunds.payment.refunded')
                  : state.kind === 'partiallyRefunded'
                    ? t('ops.refunds.payment.partiallyRefunded', {
                        amount: money(state.refundedCents),
                      })
                    : t(`ops.refunds.payment.${state.status}`);
              const card = payment.card ? paidWithMessage(payment.card) : null;
              return (
                <li key={`${payment.gateway}-${index}`}>
                  {t('ops.refunds.order.payment', {
                    amount: money(payment.amountCents),
                    gateway: t(
                      `ops.refunds.gateway.${payment.gateway === 'stripe' ? 'stripe' : 'test'}`,
                    ),
                    status,
                  })}
                  {card ? ` · ${t(card.key, card.params)}` : null}
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <AuditTrail lines={order.audit} timeZone={timeZone} actingAsNames={order.actingAsNames} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, 'ops.refunds.order.pageTitle', { number: data?.order.number ?? '' });

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
