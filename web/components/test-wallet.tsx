import { useEffect, useRef, useState } from 'react';
import { TEST_WALLET_TOKEN } from '#domain/commerce/wallet-tokens.ts';
import { useT } from '#web/i18n/use-t.ts';
import {
  type CreatedPayment,
  createWalletPayment,
  failureText,
  postPaymentsApi,
  redirectAfterSuccess,
  type SucceededPayment,
} from '#web/utils/payments-api.ts';
import { WalletSheet } from './wallet-sheet.tsx';
import { WalletSuccessDialog } from './wallet-success-dialog.tsx';

type Step =
  | { name: 'idle'; error?: string }
  | { name: 'creating' }
  | { name: 'sheet'; orderId: string; amountCents: number; error: string | null }
  | { name: 'confirming'; orderId: string; amountCents: number }
  | { name: 'done' };

/**
 * The test gateway's wallet payment (spec 1 §4 Wallet payment): create the payment, the
 * shopper confirms in the wallet's sheet, confirm the payment, then a success modal that a
 * click outside cannot dismiss, and on to the order-complete page. Closing the sheet cancels
 * the payment. Loaded by the first press of the wallet button (wallet-button.tsx), which it
 * then replaces, and answers at once (`startAtOnce`).
 */
export function TestWallet({
  offering,
  productTitle,
  courseId,
  csrfToken,
  startAtOnce,
}: {
  offering: { id: number };
  productTitle: string;
  courseId: number | null;
  csrfToken: string | null;
  startAtOnce: boolean;
}) {
  const t = useT();
  const [step, setStep] = useState<Step>(startAtOnce ? { name: 'creating' } : { name: 'idle' });
  const [token, setToken] = useState(TEST_WALLET_TOKEN);
  const attempt = useRef<string | null>(null);
  const started = useRef(false);
  // The press that loaded this component.
  useEffect(() => {
    if (!startAtOnce || started.current) return;
    started.current = true;
    void create();
  });

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
      <WalletSheet
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
      <WalletSuccessDialog open={step.name === 'done'} />
    </>
  );
}
