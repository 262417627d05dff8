import { useRef, useState, useSyncExternalStore } from 'react';
import { needsShipping, platformFeeCents } from '#domain/commerce/fulfilment-rules.ts';
import type { BrowserPayments } from '#domain/commerce/payment-gateway.ts';
import { TEST_WALLET_TOKEN } from '#domain/commerce/wallet-tokens.ts';
import type { SiteOrg } from '#domain/sites/types.ts';
import { useT } from '#web/i18n/use-t.ts';
import { onDemand } from '#web/utils/on-demand.tsx';
import {
  type CreatedPayment,
  createWalletPayment,
  failureText,
  postPaymentsApi,
  redirectAfterSuccess,
  type SucceededPayment,
} from '#web/utils/payments-api.ts';

// The sheet, the success modal and Stripe's button are loaded when they are first shown.
const WalletSheet = onDemand(() =>
  import('./wallet-sheet.tsx').then((module) => module.WalletSheet),
);
const WalletSuccessDialog = onDemand(() =>
  import('./wallet-success-dialog.tsx').then((module) => module.WalletSuccessDialog),
);
const StripeWalletButton = onDemand(() =>
  import('./stripe-wallet-button.tsx').then((module) => module.StripeWalletButton),
);
const subscribeNever = () => () => undefined;

/** Below this a wallet payment is not offered (spec 1 §4 Wallet payment: minimum 0.50 USD). */
export const WALLET_MINIMUM_CENTS = 50;

type Step =
  | { name: 'idle'; error?: string }
  | { name: 'creating' }
  | { name: 'sheet'; orderId: string; amountCents: number; error: string | null }
  | { name: 'confirming'; orderId: string; amountCents: number }
  | { name: 'done' };

/**
 * The wallet button of a product page (spec 1 §4 Wallet payment): create the payment, the
 * shopper confirms in the wallet's sheet, confirm the payment, then a success modal that a
 * click outside cannot dismiss, and on to the order-complete page. Closing the sheet cancels
 * the payment. Anonymous shoppers log in first and come back to this offering. With Stripe,
 * Stripe's own wallet buttons (Apple Pay, Google Pay) take the place of the test wallet.
 */
export function WalletButton({
  offering,
  productTitle,
  productPath,
  courseId,
  loggedIn,
  csrfToken,
  payments,
  platformFee,
}: {
  offering: { id: number; type: string; priceCents: number };
  productTitle: string;
  productPath: string;
  courseId: number | null;
  loggedIn: boolean;
  csrfToken: string | null;
  payments: BrowserPayments;
  /** The site's platform fee, charged on a wallet order too. */
  platformFee: SiteOrg['platformFee'] | null;
}) {
  const t = useT();
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const [token, setToken] = useState(TEST_WALLET_TOKEN);
  const attempt = useRef<string | null>(null);
  // Stripe's button exists only in the browser: it is not rendered on the server.
  const hydrated = useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
  // A wallet pays for digital access here; what must be posted goes through the checkout.
  if (offering.priceCents < WALLET_MINIMUM_CENTS || needsShipping([offering.type])) return null;

  if (!loggedIn) {
    const back = `${productPath}?offeringId=${offering.id}&offeringType=${encodeURIComponent(offering.type)}`;
    return (
      <a
        className="button button--wallet"
        href={`/accounts/login/?next=${encodeURIComponent(back)}`}
      >
        {t('wallet.pay')}
      </a>
    );
  }

  if (payments.gateway === 'stripe') {
    return (
      <StripeWalletButton
        when={hydrated}
        publishableKey={payments.publishableKey}
        offeringId={offering.id}
        amountCents={offering.priceCents + platformFeeCents(platformFee, offering.priceCents)}
        courseId={courseId}
        csrfToken={csrfToken}
      />
    );
  }

  async function create() {
    if (!csrfToken) return;
    WalletSheet.preload();
    setStep({ name: 'creating' });
    // One key per press of the button: a retried request is the same order.
    attempt.current = crypto.randomUUID();
    const response = await createWalletPayment(csrfToken, {
      offeringId: offering.id,
      idempotencyKey: attempt.current,
      courseId,
    });
    if (!response?.ok) {
      const error = response ? await failureText(response, t('wallet.failed')) : t('error.generic');
      setStep({ name: 'idle', error });
      return;
    }
    const body = (await response.json()) as CreatedPayment;
    setStep({
      name: 'sheet',
      orderId: body.data.id,
      amountCents: body.data.attributes.amount,
      error: null,
    });
  }

  async function confirm(orderId: string, amountCents: number) {
    if (!csrfToken) return;
    setStep({ name: 'confirming', orderId, amountCents });
    const response = await postPaymentsApi(`/api/payments/${orderId}/confirm`, csrfToken, {
      data: { type: 'payment', attributes: { token } },
    });
    if (!response?.ok) {
      const error = response ? await failureText(response, t('wallet.failed')) : t('error.generic');
      setStep({ name: 'sheet', orderId, amountCents, error });
      return;
    }
    const body = (await response.json()) as SucceededPayment;
    setStep({ name: 'done' });
    redirectAfterSuccess(body.data.attributes.redirect);
  }

  async function cancel(orderId: string) {
    setStep({ name: 'idle' });
    if (csrfToken) await postPaymentsApi(`/api/payments/${orderId}/cancel`, csrfToken);
  }

  const sheet = step.name === 'sheet' || step.name === 'confirming' ? step : null;
  return (
    <>
      <button
        type="button"
        className="button button--wallet"
        disabled={!csrfToken || step.name !== 'idle'}
        onPointerEnter={WalletSheet.preload}
        onFocus={WalletSheet.preload}
        onClick={() => void create()}
      >
        {step.name === 'creating' ? t('wallet.working') : t('wallet.pay')}
      </button>
      {step.name === 'idle' && step.error ? (
        <p className="alert alert--error" role="alert">
          {step.error}
        </p>
      ) : null}
      <WalletSheet
        when={sheet !== null}
        open={sheet !== null}
        productTitle={productTitle}
        amountCents={sheet?.amountCents ?? 0}
        confirming={step.name === 'confirming'}
        error={step.name === 'sheet' ? step.error : null}
        token={token}
        onTokenChange={setToken}
        onPay={() => sheet && void confirm(sheet.orderId, sheet.amountCents)}
        onCancel={() => sheet && void cancel(sheet.orderId)}
      />
      <WalletSuccessDialog when={step.name === 'done'} open={step.name === 'done'} />
    </>
  );
}
