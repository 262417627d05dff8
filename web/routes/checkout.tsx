import {
  data,
  Form,
  Link,
  redirect,
  useActionData,
  useLoaderData,
  useNavigation,
} from 'react-router';
import { z } from 'zod';
import { cartLines, subtotalCents } from '#domain/commerce/cart.ts';
import { checkoutKey, payOrder } from '#domain/commerce/checkout.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import { formatMoney } from '#i18n/translate.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { paymentGatewayFor } from '#web/utils/payment-gateway.server.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/checkout.ts';

const CardForm = z.object({
  key: z.string().max(100),
  number: z.string().max(40),
  expiry: z.string().regex(/^\s*\d{1,2}\s*\/\s*\d{2,4}\s*$/),
  cvc: z.string().max(8),
});

// /checkout/ (spec 1 §2): the order summary and the card payment. The idempotency key comes
// from the account and the cart, so a refresh or a second click finds the same order.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const user = requireUser(request, context);
  const lines = await cartLines(context.rc.db, { userId: user.id });
  if (lines.length === 0) throw redirect('/cart');
  const subtotal = subtotalCents(lines);
  return { lines, subtotal, total: subtotal, key: checkoutKey(user.id, lines) };
});

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  requireUser(request, context);
  const parsed = CardForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: 'checkout.error.form' }, { status: 400 });
  const [month, year] = parsed.data.expiry.split('/').map((part) => Number(part.trim()));
  const { orderId } = await placeOrder(context.rc, { idempotencyKey: parsed.data.key });
  const outcome = await payOrder(context.rc, paymentGatewayFor(context), {
    orderId,
    method: {
      kind: 'card',
      card: {
        number: parsed.data.number,
        expMonth: month!,
        expYear: year!,
        cvc: parsed.data.cvc.trim(),
      },
    },
  });
  if (outcome.ok) return redirect(`/checkout/complete/${orderId}`);
  return data({ error: `checkout.error.${outcome.reason}` }, { status: 402 });
});

export default function CheckoutPage() {
  const { lines, total, key } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const t = useT();
  const locale = useLocale();
  const csrfToken = useCsrfToken();
  return (
    <section className="narrow stack">
      <h1>{t('checkout.title')}</h1>
      <section className="stack" aria-labelledby="summary-heading">
        <h2 id="summary-heading">{t('checkout.summary')}</h2>
        <ul className="stack cart-lines">
          {lines.map((line) => (
            <li key={line.id} className="cart-line">
              <Link to={`/product-detail/${line.productId}`}>{line.title}</Link>
              <span>{formatMoney(locale, line.priceCents, line.currencyCode)}</span>
            </li>
          ))}
        </ul>
        <p className="cart-subtotal">
          {t('checkout.total')}: <strong>{formatMoney(locale, total, 'USD')}</strong>
        </p>
      </section>
      <Form method="post" className="stack" aria-labelledby="payment-heading">
        <h2 id="payment-heading">{t('checkout.payment')}</h2>
        <p className="form-hint">{t('checkout.testMode')}</p>
        {result?.error ? (
          <p className="alert alert--error" role="alert">
            {t(result.error)}
          </p>
        ) : null}
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
        <input type="hidden" name="key" value={key} />
        <label className="field">
          <span>{t('checkout.cardNumber')}</span>
          <input
            name="number"
            inputMode="numeric"
            autoComplete="cc-number"
            required
            maxLength={40}
          />
        </label>
        <label className="field">
          <span>{t('checkout.expiry')}</span>
          <input name="expiry" autoComplete="cc-exp" required maxLength={7} placeholder="MM/YY" />
        </label>
        <label className="field">
          <span>{t('checkout.cvc')}</span>
          <input name="cvc" inputMode="numeric" autoComplete="cc-csc" required maxLength={4} />
        </label>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy
            ? t('checkout.paying')
            : t('checkout.pay', { amount: formatMoney(locale, total, 'USD') })}
        </button>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'checkout.title');
