import * as Dialog from '@radix-ui/react-dialog';
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
import { mustVerifyEmail } from '#domain/accounts/email-verification.ts';
import { parseCardExpiry } from '#domain/commerce/card-expiry.ts';
import { cartLines, reconcileCart, subtotalCents } from '#domain/commerce/cart.ts';
import {
  authenticateTestPayment,
  checkoutKey,
  type PaymentOutcome,
  payOrder,
  resumePayment,
  startCheckoutPayment,
} from '#domain/commerce/checkout.ts';
import {
  fulfilmentsOf,
  needsShipping,
  platformFeeCents,
  shippingCents,
} from '#domain/commerce/fulfilment-rules.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import { paymentFailureOf } from '#domain/commerce/payment-failure.ts';
import { reconcilePayments } from '#domain/commerce/payment-recovery.ts';
import { receiptAmounts } from '#domain/commerce/receipt-amounts.ts';
import { parseShippingAddress } from '#domain/commerce/shipping-address.ts';
import { DomainError } from '#domain/shared/errors.ts';
import { parseId } from '#domain/shared/id.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { VerifyEmailNotice } from '#web/accounts/verify-email-notice.tsx';
import { OrderAmounts } from '#web/commerce/order-amounts.tsx';
import { RemovedLinesNotice } from '#web/commerce/removed-lines-notice.tsx';
import { CartLineItem } from '#web/components/cart-line-item.tsx';
import { StripePaymentForm } from '#web/components/stripe-payment-form.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { idField } from '#web/forms/fields.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { refuseWhileSwitched } from '#web/manage/helpdesk/impersonation-gate.server.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/checkout.ts';

const CardForm = z.object({
  key: z.string().max(100),
  number: z.string().max(40),
  expiry: z.string().max(10),
  cvc: z.string().max(8),
  courseId: idField.optional(),
});
const AuthenticateForm = z.object({
  orderId: z.string().max(64),
  approved: z.enum(['yes', 'no']),
});
// With Stripe: place the order and open its payment for the Payment Element, then, once
// Stripe.js has confirmed it, read it back.
const StartForm = z.object({
  intent: z.literal('start'),
  key: z.string().max(100),
  courseId: idField.optional(),
});
const ResumeForm = z.object({
  intent: z.literal('resume'),
  orderId: z.string().max(64),
});
const ADDRESS_FIELDS = ['name', 'line1', 'line2', 'city', 'region', 'postalCode'] as const;
// /checkout/?ecommerce_course_id=… (spec 1 §2): the order summary, a shipping address when
// something is posted, the platform fee, the refund and print-on-demand notes, then the card:
// the test gateway's form, or with Stripe its Payment Element for the order's payment. The
// idempotency key comes from the account and the cart, so a refresh or a second click finds
// the same order. `payment_error` is a failure reported by /checkout/return/{orderId}.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const user = requireUser(request, context);
  refuseWhileSwitched(context, 'payment');
  // Back from a payment whose answer never came (issue 37): a charge that went through is
  // that order, shown with "Your payment … went through", never a second payment to make.
  const recovered = await reconcilePayments(context.rc.db, context.gateway, context.rc.clock, {
    userId: user.id,
  });
  if (recovered.settled[0]) throw redirect(`/checkout/complete/${recovered.settled[0]}`);
  // Nothing reaches payment that the shopper already has or cannot receive (issue 19): such
  // lines leave the cart here, and the page says which and why.
  const { lines, removed } = await reconcileCart(context.rc, { userId: user.id });
  if (lines.length === 0 && removed.length === 0) throw redirect('/cart/');
  const subtotal = subtotalCents(lines);
  const fee = platformFeeCents(context.rc.site.org?.platformFee ?? null, subtotal);
  const types = lines.map((line) => line.offeringType);
  // What posting costs, as placeOrder charges it (issue 38): null when nothing is posted.
  const shippingCharge = shippingCents(types, context.rc.shippingRateCents);
  const url = new URL(request.url);
  const failure = paymentFailureOf(url.searchParams.get('payment_error'));
  return {
    lines,
    removed,
    subtotal,
    fee,
    shippingCharge,
    total: subtotal + fee + (shippingCharge ?? 0),
    key: checkoutKey(user.id, lines),
    courseId: parseId(url.searchParams.get('ecommerce_course_id')),
    shipping: needsShipping(types),
    printOnDemand: types.some((type) => fulfilmentsOf(type).includes('print')),
    printed: lines.some((line) => line.isPrint),
    refundUrl: context.rc.site.links.refund,
    payments: context.browserPayments,
    paymentError: failure ? `checkout.error.${failure}` : null,
    mustVerify: mustVerifyEmail(user),
  };
});

type ActionResult = {
  error?: string;
  errorParams?: Record<string, string>;
  fields?: string[];
  values?: Record<string, string>;
  authenticate?: { orderId: string };
  /** With Stripe: the order placed and the client secret its Payment Element confirms. */
  started?: { orderId: string; clientSecret: string };
};

function answer(outcome: PaymentOutcome, orderId: string, values?: Record<string, string>) {
  if (outcome.ok) return redirect(`/checkout/complete/${orderId}`);
  if (outcome.reason === 'requires_action') {
    return data<ActionResult>({ authenticate: { orderId }, values }, { status: 402 });
  }
  return data<ActionResult>({ error: `checkout.error.${outcome.reason}`, values }, { status: 402 });
}

/** After Stripe.js confirmed: paid, or why not (an unfinished bank check is a failure here). */
function answerResume(outcome: PaymentOutcome, orderId: string) {
  if (outcome.ok) return redirect(`/checkout/complete/${orderId}`);
  return data<ActionResult>({ error: `checkout.error.${outcome.reason}` }, { status: 402 });
}

type Values = Record<string, string>;

/** The shipping address the cart needs (null when nothing in it is posted), or the refusal. */
async function shippingAddressFor(
  context: Route.ActionArgs['context'],
  userId: number,
  values: Values,
) {
  const lines = await cartLines(context.rc.db, { userId });
  if (!needsShipping(lines.map((line) => line.offeringType))) {
    return { ok: true as const, address: null };
  }
  const address = parseShippingAddress(values);
  if (address.ok) return { ok: true as const, address: address.address };
  return {
    ok: false as const,
    refused: data<ActionResult>(
      { error: 'checkout.error.address', fields: address.fields, values },
      { status: 400 },
    ),
  };
}

/** Sold out, an empty cart, under the minimum: said on the form; nothing was charged. */
async function refusedOnForm<T>(values: Values, step: () => Promise<T>) {
  try {
    return await step();
  } catch (error) {
    if (error instanceof DomainError && (error.status === 400 || error.status === 409)) {
      const errorParams = Object.fromEntries(
        Object.entries(error.params).map(([name, value]) => [name, String(value)]),
      );
      return data<ActionResult>(
        { error: error.messageKey, errorParams, values },
        { status: error.status },
      );
    }
    throw error;
  }
}

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const user = requireUser(request, context);
  refuseWhileSwitched(context, 'payment');
  const form = Object.fromEntries(await request.formData());
  const gateway = context.gateway;
  if (form.intent === 'authenticate') {
    const parsed = AuthenticateForm.safeParse(form);
    if (!parsed.success) return data<ActionResult>({ error: 'error.invalid' }, { status: 400 });
    const outcome = await authenticateTestPayment(context.rc, gateway, {
      orderId: parsed.data.orderId,
      approved: parsed.data.approved === 'yes',
    });
    return answer(outcome, parsed.data.orderId);
  }
  if (form.intent === 'resume') {
    const parsed = ResumeForm.safeParse(form);
    if (!parsed.success) return data<ActionResult>({ error: 'error.invalid' }, { status: 400 });
    const outcome = await resumePayment(context.rc, gateway, parsed.data.orderId);
    return answerResume(outcome, parsed.data.orderId);
  }
  const values = Object.fromEntries(
    ['country', ...ADDRESS_FIELDS].map((name) => [name, String(form[name] ?? '').slice(0, 200)]),
  );
  if (form.intent === 'start') {
    const parsed = StartForm.safeParse(form);
    if (!parsed.success) {
      return data<ActionResult>({ error: 'checkout.error.form', values }, { status: 400 });
    }
    const shipping = await shippingAddressFor(context, user.id, values);
    if (!shipping.ok) return shipping.refused;
    return refusedOnForm(values, async () => {
      const started = await startCheckoutPayment(context.rc, gateway, {
        idempotencyKey: parsed.data.key,
        courseSectionId: parsed.data.courseId ?? null,
        shippingAddress: shipping.address,
      });
      if (started.paid) return redirect(`/checkout/complete/${started.orderId}`);
      return data<ActionResult>({
        started: { orderId: started.orderId, clientSecret: started.clientSecret },
        values,
      });
    });
  }
  // With Stripe card numbers are typed into Stripe's fields only (decision 007): a card form
  // posted here (a page rendered before the gateway changed) is refused before any charge.
  if (context.browserPayments.gateway === 'stripe') {
    return data<ActionResult>({ error: 'checkout.error.form', values }, { status: 400 });
  }
  const parsed = CardForm.safeParse(form);
  if (!parsed.success) {
    return data<ActionResult>({ error: 'checkout.error.form', values }, { status: 400 });
  }
  const shipping = await shippingAddressFor(context, user.id, values);
  if (!shipping.ok) return shipping.refused;
  const expiry = parseCardExpiry(parsed.data.expiry);
  if (!expiry) {
    return data<ActionResult>(
      { error: 'checkout.error.invalid_expiry', fields: ['expiry'], values },
      { status: 400 },
    );
  }
  return refusedOnForm(values, async () => {
    const { orderId } = await placeOrder(context.rc, {
      idempotencyKey: parsed.data.key,
      courseSectionId: parsed.data.courseId ?? null,
      shippingAddress: shipping.address,
    });
    const outcome = await payOrder(context.rc, gateway, {
      orderId,
      method: {
        kind: 'card',
        card: {
          number: parsed.data.number,
          expMonth: expiry.month,
          expYear: expiry.year,
          cvc: parsed.data.cvc.trim(),
        },
      },
    });
    return answer(outcome, orderId, values);
  });
});

export default function CheckoutPage() {
  const loaderData = useLoaderData<typeof loader>();
  const { lines, removed, subtotal, fee, total, key, courseId, shipping, payments, paymentError } =
    loaderData;
  const result = useActionData<ActionResult>();
  const started = payments.gateway === 'stripe' ? (result?.started ?? null) : null;
  const busy = useNavigation().state !== 'idle';
  const t = useT();
  const locale = useLocale();
  const csrfToken = useCsrfToken();
  const money = (cents: number) => formatMoney(locale, cents, 'USD');
  const invalid = (field: string) =>
    result?.fields?.includes(field) ? 'checkout.error.field' : undefined;
  if (lines.length === 0) {
    return (
      <section className="narrow stack">
        <h1>{t('checkout.title')}</h1>
        <RemovedLinesNotice removed={removed} />
        <p>{t('cart.removed.nothingToPay')}</p>
        <p>
          <Link to="/shelf" className="button button--primary">
            {t('cart.removed.toShelf')}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="narrow stack">
      <h1>{t('checkout.title')}</h1>
      {loaderData.mustVerify ? <VerifyEmailNotice next="/checkout/" /> : null}
      <RemovedLinesNotice removed={removed} />
      <section className="stack" aria-labelledby="summary-heading">
        <h2 id="summary-heading">{t('checkout.summary')}</h2>
        <ul className="stack cart-lines">
          {lines.map((line) => (
            // Which offering each line is, as on the cart (issue 19: rental, lifetime, print).
            <CartLineItem key={line.id} line={line}>
              {null}
            </CartLineItem>
          ))}
        </ul>
        <OrderAmounts
          rows={receiptAmounts({
            lineCents: [subtotal],
            feeCents: fee,
            shippingCents: loaderData.shippingCharge,
          })}
        />
        <CheckoutNotes
          fee={fee}
          printOnDemand={loaderData.printOnDemand}
          printed={loaderData.printed}
          refundUrl={loaderData.refundUrl}
        />
      </section>
      <Form method="post" className="stack" aria-labelledby="payment-heading" noValidate>
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
        <input type="hidden" name="key" value={key} />
        {courseId ? <input type="hidden" name="courseId" value={courseId} /> : null}
        {shipping ? (
          // With Stripe the order is placed before the card step: its address is then fixed.
          <fieldset className="stack" aria-describedby="shipping-hint" disabled={!!started}>
            <legend>
              <h2>{t('checkout.shipping.title')}</h2>
            </legend>
            <p id="shipping-hint" className="form-hint">
              {t('checkout.shipping.hint')}
            </p>
            {ADDRESS_FIELDS.map((field) => (
              <TextField
                key={field}
                name={field}
                label={t(`checkout.shipping.${field}`)}
                hint={field === 'postalCode' ? t('checkout.shipping.postalCode.hint') : undefined}
                defaultValue={result?.values?.[field] ?? ''}
                error={invalid(field)}
                required={field !== 'line2'}
                maxLength={field === 'postalCode' ? 12 : 200}
                autoComplete={AUTOCOMPLETE[field]}
              />
            ))}
            <div className="field">
              <label htmlFor="country">{t('checkout.shipping.country')}</label>
              <select
                id="country"
                name="country"
                defaultValue={result?.values?.country || 'US'}
                autoComplete="country"
              >
                <option value="US">{t('checkout.shipping.US')}</option>
                <option value="CA">{t('checkout.shipping.CA')}</option>
              </select>
            </div>
          </fieldset>
        ) : null}
        <h2 id="payment-heading">{t('checkout.payment')}</h2>
        {payments.gateway === 'stripe' ? (
          <>
            <p className="form-hint">{t('checkout.stripe.hint')}</p>
            {result?.error ? (
              <p className="alert alert--error" role="alert">
                {t(result.error, result.errorParams)}
              </p>
            ) : paymentError && !started ? (
              <p className="alert alert--error" role="alert">
                {t(paymentError)}
              </p>
            ) : null}
            {started ? null : (
              <button
                type="submit"
                name="intent"
                value="start"
                className="button button--primary"
                disabled={busy || !csrfToken}
              >
                {busy ? t('checkout.stripe.starting') : t('checkout.stripe.start')}
              </button>
            )}
          </>
        ) : (
          <>
            <p className="form-hint">{t('checkout.testMode')}</p>
            {result?.error ? (
              <p className="alert alert--error" role="alert">
                {t(result.error, result.errorParams)}
              </p>
            ) : null}
            <TextField
              name="number"
              label={t('checkout.cardNumber')}
              inputMode="numeric"
              autoComplete="cc-number"
              required
              maxLength={40}
            />
            <TextField
              name="expiry"
              label={t('checkout.expiry')}
              autoComplete="cc-exp"
              required
              maxLength={7}
              placeholder={t('checkout.expiry.placeholder')}
              error={invalid('expiry')}
            />
            <TextField
              name="cvc"
              label={t('checkout.cvc')}
              inputMode="numeric"
              autoComplete="cc-csc"
              required
              maxLength={4}
            />
            <button type="submit" className="button button--primary" disabled={busy || !csrfToken}>
              {busy ? t('checkout.paying') : t('checkout.pay', { amount: money(total) })}
            </button>
          </>
        )}
      </Form>
      {payments.gateway === 'stripe' && started ? (
        <StripePaymentForm
          publishableKey={payments.publishableKey}
          clientSecret={started.clientSecret}
          orderId={started.orderId}
          amount={money(total)}
        />
      ) : null}
      {result?.authenticate ? (
        <AuthenticateDialog
          orderId={result.authenticate.orderId}
          amount={money(total)}
          csrfToken={csrfToken}
        />
      ) : null}
    </section>
  );
}

const AUTOCOMPLETE: Record<(typeof ADDRESS_FIELDS)[number], string> = {
  name: 'name',
  line1: 'address-line1',
  line2: 'address-line2',
  city: 'address-level2',
  region: 'address-level1',
  postalCode: 'postal-code',
};

/** The refund and print-on-demand texts of spec 2 §9, where they apply. */
function CheckoutNotes({
  fee,
  printOnDemand,
  printed,
  refundUrl,
}: {
  fee: number;
  printOnDemand: boolean;
  printed: boolean;
  refundUrl: string;
}) {
  const t = useT();
  if (fee === 0 && !printed) return null;
  return (
    <ul className="checkout-notes">
      {printOnDemand ? <li>{t('checkout.note.printShipping')}</li> : null}
      {printed ? <li>{t('checkout.note.printRefund')}</li> : null}
      {fee > 0 ? <li>{t('checkout.note.fee')}</li> : null}
      <li>
        <a href={refundUrl}>{t('footer.refund')}</a>
      </li>
    </ul>
  );
}

/**
 * The test bank's extra step (card 4000 0025 0000 3155): the shopper completes or fails it,
 * as a provider's test-mode authentication page lets them.
 */
function AuthenticateDialog({
  orderId,
  amount,
  csrfToken,
}: {
  orderId: string;
  amount: string;
  csrfToken: string | null;
}) {
  const t = useT();
  const busy = useNavigation().state !== 'idle';
  return (
    <Dialog.Root open={!busy}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content
          className="dialog"
          onPointerDownOutside={(event) => event.preventDefault()}
          onEscapeKeyDown={(event) => event.preventDefault()}
        >
          <Dialog.Title className="dialog__title">{t('checkout.auth.title')}</Dialog.Title>
          <Dialog.Description>{t('checkout.auth.text', { amount })}</Dialog.Description>
          <Form method="post" className="button-row">
            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
            <input type="hidden" name="intent" value="authenticate" />
            <input type="hidden" name="orderId" value={orderId} />
            <button type="submit" name="approved" value="yes" className="button button--primary">
              {t('checkout.auth.approve')}
            </button>
            <button type="submit" name="approved" value="no" className="button">
              {t('checkout.auth.fail')}
            </button>
          </Form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'checkout.title');
