import { useEffect, useRef } from 'react';
import { Form, Link } from 'react-router';
import type { RefundOutcome } from '#domain/commerce/refunds.ts';
import type { BuyerRefundLine } from '#domain/commerce/refunds-views.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useLocale, useT, useTimeZone } from '#web/i18n/use-t.ts';

export type RefundResult = RefundOutcome | { kind: 'error'; message: string };

/**
 * Issue 39: the refunds of an order on its page (My Account › Orders): each line with its
 * refund's state, or "Request a refund" and its confirm step, which says beforehand whether the
 * line is refunded at once or goes to support and why (the Refund Policy, refund-policy.ts).
 */
export function OrderRefunds({
  orderId,
  lines,
  confirming,
  result,
  csrfToken,
}: {
  orderId: string;
  lines: readonly BuyerRefundLine[];
  confirming: number | null;
  result: RefundResult | null;
  csrfToken: string;
}) {
  const t = useT();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const notice = useRef<HTMLDivElement>(null);
  const confirmHeading = useRef<HTMLHeadingElement>(null);
  const money = (cents: number) => formatMoney(locale, cents, 'USD');
  const day = (at: Date | string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone }).format(new Date(at));
  const asked = lines.find(
    (line) => line.orderItemId === confirming && line.option.kind !== 'none',
  );
  useEffect(() => {
    if (result) notice.current?.focus();
    else if (asked) confirmHeading.current?.focus();
  }, [result, asked]);
  if (lines.length === 0) return null;
  return (
    <section className="stack receipt__actions" aria-labelledby="order-refunds">
      <h2 id="order-refunds">{t('ops.refunds.buyer.heading')}</h2>
      <div ref={notice} tabIndex={-1}>
        {result ? <RefundNotice result={result} money={money} /> : null}
      </div>
      {asked ? (
        <div className="stack-sm refund-confirm">
          <h3 ref={confirmHeading} tabIndex={-1}>
            {t('ops.refunds.buyer.confirmHeading', { title: asked.title })}
          </h3>
          <p>
            {asked.option.kind === 'refundAtOnce'
              ? t('ops.refunds.buyer.confirmAtOnce', {
                  amount: money(asked.priceCents),
                  title: asked.title,
                })
              : t('ops.refunds.buyer.confirmSupport', {
                  reason: asked.option.kind === 'askSupport' ? t(asked.option.rule) : '',
                })}
          </p>
          <Form method="post" action={`/account/orders/${orderId}`} className="cluster">
            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
            <input type="hidden" name="intent" value="refund" />
            <input type="hidden" name="orderItemId" value={asked.orderItemId} />
            <button type="submit" className="button button--primary">
              {t('ops.refunds.buyer.confirm')}
            </button>
            <Link to={`/account/orders/${orderId}`}>{t('ops.refunds.buyer.cancel')}</Link>
          </Form>
        </div>
      ) : null}
      <ul className="stack-sm">
        {lines.map((line) => (
          <li key={line.orderItemId} className="refund-line">
            <span className="cart-line__title">{line.title}</span>{' '}
            <span>{money(line.priceCents)}</span>
            <br />
            {line.refund?.status === 'refunded' && line.refund.refundedAt ? (
              t('ops.refunds.state.refunded', { date: day(line.refund.refundedAt) })
            ) : line.refund?.status === 'approved' ? (
              t('ops.refunds.state.approved')
            ) : line.refund?.status === 'requested' ? (
              t('ops.refunds.state.requested')
            ) : line.refund?.status === 'refused' ? (
              t('ops.refunds.state.refused', { reason: line.refund.reason ?? '' })
            ) : line.option.kind === 'none' ? (
              t('ops.refunds.state.none', { reason: t(line.option.rule) })
            ) : (
              <Link
                to={`/account/orders/${orderId}?refund=${line.orderItemId}`}
                className="button button--secondary"
                aria-label={t('ops.refunds.buyer.requestOf', { title: line.title })}
              >
                {t('ops.refunds.buyer.request')}
              </Link>
            )}
            {line.accessCode?.revoked ? (
              <>
                <br />
                <span>{t('ops.refunds.state.codeRevoked', { last4: line.accessCode.last4 })}</span>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <p>
        <Link to="/refund-policy">{t('ops.refunds.buyer.policyLink')}</Link>
      </p>
    </section>
  );
}

function RefundNotice({
  result,
  money,
}: {
  result: RefundResult;
  money: (cents: number) => string;
}) {
  const t = useT();
  switch (result.kind) {
    case 'refunded':
      return (
        <output className="alert alert--success">
          {t('ops.refunds.result.refunded', {
            title: result.title,
            amount: money(result.amountCents),
          })}
        </output>
      );
    case 'processing':
      return (
        <output className="alert">
          {t('ops.refunds.result.processing', { title: result.title })}
        </output>
      );
    case 'requested':
      return (
        <output className="alert">
          {t('ops.refunds.result.requested', { title: result.title, reason: t(result.rule) })}
        </output>
      );
    case 'refused':
      return (
        <div className="alert alert--error" role="alert">
          {t('ops.refunds.result.refused', { title: result.title, reason: t(result.rule) })}
        </div>
      );
    default:
      return (
        <div className="alert alert--error" role="alert">
          {t(result.message)}
        </div>
      );
  }
}
