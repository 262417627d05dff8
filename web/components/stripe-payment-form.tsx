import { useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import {
  loadStripeJs,
  returnUrl,
  type StripeElements,
  type StripeJs,
} from '#web/utils/stripe-js.client.ts';

type Status = 'loading' | 'ready' | 'unavailable' | 'confirming';

/**
 * The checkout's card step with Stripe (decision 007): Stripe's Payment Element, mounted for
 * the order's open payment, takes the card in Stripe's own frames; Pay lets Stripe.js confirm
 * it (a bank's 3-D Secure check opens over the page, a redirect-based method comes back
 * through /checkout/return/{orderId}); then the checkout action reads the payment back from
 * Stripe (`intent=resume`) and goes on to the order-complete page, or says why it failed.
 */
export function StripePaymentForm({
  publishableKey,
  clientSecret,
  orderId,
  amount,
}: {
  publishableKey: string;
  clientSecret: string;
  orderId: string;
  /** The total, formatted, for the Pay button. */
  amount: string;
}) {
  const t = useT();
  const locale = useLocale();
  const csrfToken = useCsrfToken();
  const resume = useFetcher<{ error?: string; errorParams?: Record<string, string> }>();
  const mountPoint = useRef<HTMLDivElement>(null);
  const mounted = useRef<{ stripe: StripeJs; elements: StripeElements } | null>(null);
  const [status, setStatus] = useState<Status>('loading');

  useEffect(() => {
    let live = true;
    let unmount: (() => void) | null = null;
    setStatus('loading');
    loadStripeJs(publishableKey, locale)
      .then((stripe) => {
        if (!live || !mountPoint.current) return;
        const elements = stripe.elements({ clientSecret, locale });
        const element = elements.create('payment', { layout: 'tabs' });
        element.on('ready', () => live && setStatus('ready'));
        element.on('loaderror', () => live && setStatus('unavailable'));
        element.mount(mountPoint.current);
        mounted.current = { stripe, elements };
        unmount = () => element.destroy();
      })
      .catch(() => live && setStatus('unavailable'));
    return () => {
      live = false;
      mounted.current = null;
      unmount?.();
    };
  }, [publishableKey, clientSecret, locale]);

  async function pay() {
    const current = mounted.current;
    if (!current || !csrfToken) return;
    setStatus('confirming');
    // Elements made from the payment's client secret confirm that payment: no second secret.
    const { error } = await current.stripe.confirmPayment({
      elements: current.elements,
      redirect: 'if_required',
      confirmParams: { return_url: returnUrl(orderId) },
    });
    setStatus('ready');
    // Incomplete or invalid fields: the Payment Element says what to fix; nothing was tried.
    if (error?.type === 'validation_error') return;
    // Anything else was tried at Stripe: our server reads the payment back and settles it.
    await resume.submit(
      { csrfmiddlewaretoken: csrfToken, intent: 'resume', orderId },
      { method: 'post' },
    );
  }

  const busy = status === 'confirming' || resume.state !== 'idle';
  const error =
    status === 'unavailable'
      ? t('checkout.stripe.unavailable')
      : !busy && resume.data?.error
        ? t(resume.data.error, resume.data.errorParams)
        : null;
  return (
    <div className="stack">
      {status === 'loading' ? (
        <output className="form-hint">{t('checkout.stripe.loading')}</output>
      ) : null}
      <noscript>
        <p className="alert alert--error">{t('checkout.stripe.needsJavaScript')}</p>
      </noscript>
      <div ref={mountPoint} className="stripe-payment" />
      {error ? (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
      <button
        type="button"
        className="button button--primary"
        disabled={busy || status !== 'ready' || !csrfToken}
        onClick={() => void pay()}
      >
        {busy ? t('checkout.paying') : t('checkout.pay', { amount })}
      </button>
    </div>
  );
}
