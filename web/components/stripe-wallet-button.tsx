import { useEffect, useRef, useState } from 'react';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import {
  type CreatedPayment,
  createWalletPayment,
  failureText,
  postPaymentsApi,
  redirectAfterSuccess,
  type SucceededPayment,
} from '#web/utils/payments-api.ts';
import {
  type ExpressCheckoutConfirmEvent,
  loadStripeJs,
  returnUrl,
  type StripeElements,
  type StripeJs,
} from '#web/utils/stripe-js.client.ts';
import { WalletSuccessDialog } from './wallet-success-dialog.tsx';

/** One order per offering until it is paid or the shopper closes the wallet. */
type Attempt = { offeringId: number; key: string; orderId: string | null };

/**
 * The wallet payment of spec 1 §4 through Stripe (decision 007): Stripe's Express Checkout
 * Element shows the Apple Pay or Google Pay button the device offers, for the amount the
 * order will have. When the shopper confirms in the wallet's sheet: create the order and its
 * payment (POST /api/payments), let Stripe.js confirm it, ask our server to read it back from
 * Stripe (POST …/resume), then the success modal and the order-complete page. Closing the
 * sheet cancels the order made for it. Nothing shows where no wallet is available.
 */
export function StripeWalletButton({
  publishableKey,
  offeringId,
  amountCents,
  courseId,
  csrfToken,
}: {
  publishableKey: string;
  offeringId: number;
  /** What the sheet shows and the order must come to: the price and the platform fee. */
  amountCents: number;
  courseId: number | null;
  csrfToken: string | null;
}) {
  const t = useT();
  const locale = useLocale();
  const mountPoint = useRef<HTMLDivElement>(null);
  const attempt = useRef<Attempt | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  // The element's handlers are registered once per mount; they call this render's functions.
  const handlers = useRef({ confirm, cancel });
  handlers.current = { confirm, cancel };

  useEffect(() => {
    let live = true;
    let unmount: (() => void) | null = null;
    loadStripeJs(publishableKey, locale)
      .then((stripe) => {
        if (!live || !mountPoint.current) return;
        const elements = stripe.elements({
          mode: 'payment',
          amount: amountCents,
          currency: 'usd',
          locale,
        });
        const element = elements.create('expressCheckout', {
          paymentMethods: {
            applePay: 'auto',
            googlePay: 'auto',
            link: 'never',
            paypal: 'never',
            amazonPay: 'never',
            klarna: 'never',
          },
        });
        element.on('confirm', (event) => void handlers.current.confirm(stripe, elements, event));
        element.on('cancel', () => handlers.current.cancel());
        element.mount(mountPoint.current);
        unmount = () => element.destroy();
      })
      // Without Stripe.js (blocked, offline) the page simply offers no wallet.
      .catch(() => undefined);
    return () => {
      live = false;
      unmount?.();
    };
  }, [publishableKey, locale, amountCents]);

  function currentAttempt(): Attempt {
    if (attempt.current?.offeringId !== offeringId) {
      cancel();
      attempt.current = { offeringId, key: crypto.randomUUID(), orderId: null };
    }
    return attempt.current;
  }

  async function confirm(
    stripe: StripeJs,
    elements: StripeElements,
    event: ExpressCheckoutConfirmEvent,
  ) {
    setError(null);
    if (!csrfToken) return event.paymentFailed({ reason: 'fail' });
    const submitted = await elements.submit();
    if (submitted.error) return event.paymentFailed({ reason: 'fail' });
    const current = currentAttempt();
    // A retry after a decline uses the same key, so the same order and payment.
    const created = await createWalletPayment(csrfToken, {
      offeringId,
      idempotencyKey: current.key,
      courseId,
    });
    if (!created?.ok) {
      event.paymentFailed({ reason: 'fail' });
      setError(created ? await failureText(created, t('wallet.failed')) : t('error.generic'));
      return;
    }
    const { data } = (await created.json()) as CreatedPayment;
    current.orderId = data.id;
    // The sheet showed amountCents: a payment of another amount is not confirmed.
    if (data.attributes.amount !== amountCents) {
      event.paymentFailed({ reason: 'fail' });
      cancel();
      setError(t('wallet.stripe.amountChanged'));
      return;
    }
    await stripe.confirmPayment({
      elements,
      clientSecret: data.attributes.clientSecret,
      redirect: 'if_required',
      confirmParams: { return_url: returnUrl(data.id) },
    });
    // Whatever Stripe.js answered, our server asks Stripe: only Stripe's answer pays.
    const resumed = await postPaymentsApi(`/api/payments/${data.id}/resume`, csrfToken);
    if (!resumed?.ok) {
      setError(resumed ? await failureText(resumed, t('wallet.failed')) : t('error.generic'));
      return;
    }
    const body = (await resumed.json()) as SucceededPayment;
    attempt.current = null;
    setDone(true);
    redirectAfterSuccess(body.data.attributes.redirect);
  }

  /** The shopper closed the wallet: the order made for it (if any) is canceled. */
  function cancel() {
    const orderId = attempt.current?.orderId;
    attempt.current = null;
    if (orderId && csrfToken) void postPaymentsApi(`/api/payments/${orderId}/cancel`, csrfToken);
  }

  return (
    <>
      <div ref={mountPoint} className="stripe-wallet" />
      {error ? (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
      <WalletSuccessDialog open={done} />
    </>
  );
}
