import * as Dialog from '@radix-ui/react-dialog';
import { useId, useRef, useState } from 'react';
import { needsShipping, platformFeeCents } from '#domain/commerce/fulfilment-rules.ts';
import type { BrowserPayments } from '#domain/commerce/payment-gateway.ts';
import { TEST_WALLET_DECLINED_TOKEN, TEST_WALLET_TOKEN } from '#domain/commerce/wallet-tokens.ts';
import type { SiteOrg } from '#domain/sites/types.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import {
  type CreatedPayment,
  createWalletPayment,
  failureText,
  postPaymentsApi,
  redirectAfterSuccess,
  type SucceededPayment,
} from '#web/utils/payments-api.ts';
import { StripeWalletButton } from './stripe-wallet-button.tsx';
import { WalletSuccessDialog } from './wallet-success-dialog.tsx';

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
  const locale = useLocale();
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const [token, setToken] = useState(TEST_WALLET_TOKEN);
  const attempt = useRef<string | null>(null);
  const cardName = useId();
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
        onClick={() => void create()}
      >
        {step.name === 'creating' ? t('wallet.working') : t('wallet.pay')}
      </button>
      {step.name === 'idle' && step.error ? (
        <p className="alert alert--error" role="alert">
          {step.error}
        </p>
      ) : null}
      <Dialog.Root
        open={sheet !== null}
        onOpenChange={(open) => {
          if (!open && sheet && step.name === 'sheet') void cancel(sheet.orderId);
        }}
      >
        <Dialog.Portal>
          <Dialog.Overlay className="dialog__overlay" />
          <Dialog.Content className="dialog wallet-sheet" aria-describedby="wallet-sheet-text">
            <Dialog.Title className="dialog__title">{t('wallet.sheet.title')}</Dialog.Title>
            <p id="wallet-sheet-text">
              {t('wallet.sheet.text', {
                title: productTitle,
                amount: formatMoney(locale, sheet?.amountCents ?? 0, 'USD'),
              })}
            </p>
            <fieldset className="stack-sm" disabled={step.name === 'confirming'}>
              <legend>{t('wallet.sheet.card')}</legend>
              {[
                [TEST_WALLET_TOKEN, 'wallet.sheet.cardOk'],
                [TEST_WALLET_DECLINED_TOKEN, 'wallet.sheet.cardDeclined'],
              ].map(([value, label]) => (
                <label key={value} className="offerings__option">
                  <input
                    type="radio"
                    name={cardName}
                    value={value}
                    checked={token === value}
                    onChange={() => setToken(value!)}
                  />
                  <span>{t(label!)}</span>
                </label>
              ))}
            </fieldset>
            {step.name === 'sheet' && step.error ? (
              <p className="alert alert--error" role="alert">
                {step.error}
              </p>
            ) : null}
            <div className="button-row">
              <button
                type="button"
                className="button button--primary"
                disabled={step.name === 'confirming'}
                onClick={() => sheet && void confirm(sheet.orderId, sheet.amountCents)}
              >
                {step.name === 'confirming'
                  ? t('wallet.working')
                  : t('wallet.sheet.pay', {
                      amount: formatMoney(locale, sheet?.amountCents ?? 0, 'USD'),
                    })}
              </button>
              <Dialog.Close className="button" disabled={step.name === 'confirming'}>
                {t('wallet.sheet.cancel')}
              </Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      <WalletSuccessDialog open={step.name === 'done'} />
    </>
  );
}
