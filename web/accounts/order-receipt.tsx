import {
  data,
  Link,
  type ShouldRevalidateFunctionArgs,
  useActionData,
  useLoaderData,
} from 'react-router';
import { z } from 'zod';
import { myOrderReceipt } from '#domain/commerce/my-orders.ts';
import { requestRefund } from '#domain/commerce/refunds.ts';
import { myOrderRefunds } from '#domain/commerce/refunds-views.ts';
import { parseId } from '#domain/shared/id.ts';
import { idField } from '#web/forms/fields.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/order-receipt.ts';
import { OrderFacts } from './order-facts.tsx';
import { OrderLines } from './order-lines.tsx';
import { OrderRefunds, type RefundResult } from './order-refunds.tsx';

// Issue 39: "Request a refund" of one line, after its confirm step (?refund={orderItemId}).
const RefundForm = z.object({ intent: z.literal('refund'), orderItemId: idField });

// /account/orders/{orderId} (issue 20): one order as the receipt a student hands to a
// scholarship office: the store, the organisation, the buyer, each line and the amounts, the
// card's last four digits, date and time in the account's time zone. Printing prints only the
// receipt (app.css, @media print); the PDF is /account/orders/{orderId}/receipt.pdf.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  requireUser(request, context);
  const receipt = await myOrderReceipt(context.rc, params.orderId, context.seller);
  const asked = parseId(new URL(request.url).searchParams.get('refund') ?? '');
  return {
    receipt,
    refundLines: await myOrderRefunds(context.rc, params.orderId),
    confirming: asked,
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  requireUser(request, context);
  const parsed = RefundForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data<RefundResult>(
      { kind: 'error', message: 'ops.refunds.error.invalid' },
      { status: 400 },
    );
  }
  const outcome = await requestRefund(context.rc, context.gateway, {
    orderId: params.orderId,
    orderItemId: parsed.data.orderItemId,
  });
  return data<RefundResult>(outcome, { status: outcome.kind === 'refused' ? 409 : 200 });
});

// A refused request (409: a double click, the line refunded meanwhile) reads the order again
// too, so the page shows what the database holds, not the state from before the click.
export function shouldRevalidate({
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return formMethod === 'POST' ? true : defaultShouldRevalidate;
}

export default function OrderReceiptPage() {
  const { receipt, refundLines, confirming, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<RefundResult>();
  const t = useT();
  const locale = useLocale();
  const org = receipt.organization;
  return (
    <section className="narrow stack">
      <p className="receipt__actions">
        <Link to="/account/orders">{t('receipt.backToOrders')}</Link>
      </p>
      <article className="receipt stack" aria-labelledby="receipt-heading">
        <h1 id="receipt-heading">{t('receipt.heading', { number: receipt.number })}</h1>
        <div className="receipt__parties">
          <section aria-labelledby="receipt-store">
            <h2 id="receipt-store">{t('receipt.store')}</h2>
            <p className="receipt__address">
              {[
                receipt.store.name,
                ...receipt.store.addressLines,
                receipt.store.host,
                ...(receipt.store.email
                  ? [t('receipt.email', { email: receipt.store.email })]
                  : []),
              ].join('\n')}
            </p>
          </section>
          {org ? (
            <section aria-labelledby="receipt-org">
              <h2 id="receipt-org">{t('receipt.organization')}</h2>
              <p className="receipt__address">
                {org.title}
                {org.postalAddress ? `\n${org.postalAddress}` : null}
                {org.contactName ? `\n${t('receipt.contact', { name: org.contactName })}` : null}
                {org.phoneNumber ? `\n${t('receipt.phone', { phone: org.phoneNumber })}` : null}
                {org.emailAddress ? `\n${t('receipt.email', { email: org.emailAddress })}` : null}
              </p>
            </section>
          ) : null}
          <section aria-labelledby="receipt-buyer">
            <h2 id="receipt-buyer">{t('receipt.buyer')}</h2>
            <p>
              {receipt.buyer.name ? (
                <>
                  {receipt.buyer.name}
                  <br />
                </>
              ) : null}
              {receipt.buyer.email}
            </p>
          </section>
          {receipt.shipTo ? (
            <section aria-labelledby="receipt-ship-to">
              <h2 id="receipt-ship-to">{t('receipt.shipTo')}</h2>
              <p className="receipt__address">
                {[
                  ...receipt.shipTo.lines,
                  new Intl.DisplayNames([locale], { type: 'region' }).of(receipt.shipTo.country),
                ].join('\n')}
              </p>
            </section>
          ) : null}
        </div>
        <OrderFacts order={receipt} withTime />
        <OrderLines order={receipt} />
      </article>
      <OrderRefunds
        orderId={receipt.id}
        lines={refundLines}
        confirming={result ? null : confirming}
        result={result ?? null}
        csrfToken={csrfToken}
      />
      <p className="cluster receipt__actions">
        <button type="button" className="button button--secondary" onClick={() => window.print()}>
          {t('receipt.print')}
        </button>
        <a
          className="button button--primary"
          href={`/account/orders/${receipt.id}/receipt.pdf`}
          download
        >
          {t('receipt.downloadPdf')}
        </a>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, 'receipt.heading', { number: data?.receipt.number ?? '' });
