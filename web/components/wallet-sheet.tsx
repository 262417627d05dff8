import * as Dialog from '@radix-ui/react-dialog';
import { useId } from 'react';
import { TEST_WALLET_DECLINED_TOKEN, TEST_WALLET_TOKEN } from '#domain/commerce/wallet-tokens.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';

/**
 * The test gateway's wallet sheet (spec 1 §4 Wallet payment, step 2): the amount, a card that
 * pays or one that is declined, Pay or Cancel. Closing it cancels the payment (wallet-button.tsx).
 */
export function WalletSheet({
  open,
  productTitle,
  amountCents,
  confirming,
  error,
  token,
  onTokenChange,
  onPay,
  onCancel,
}: {
  open: boolean;
  productTitle: string;
  amountCents: number;
  confirming: boolean;
  error: string | null;
  token: string;
  onTokenChange: (token: string) => void;
  onPay: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const locale = useLocale();
  const cardName = useId();
  const amount = formatMoney(locale, amountCents, 'USD');
  return (
    <Dialog.Root open={open} onOpenChange={(isOpen) => !isOpen && !confirming && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content className="dialog wallet-sheet">
          <Dialog.Title className="dialog__title">{t('wallet.sheet.title')}</Dialog.Title>
          <Dialog.Description>
            {t('wallet.sheet.text', { title: productTitle, amount })}
          </Dialog.Description>
          <fieldset className="stack-sm" disabled={confirming}>
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
                  onChange={() => onTokenChange(value!)}
                />
                <span>{t(label!)}</span>
              </label>
            ))}
          </fieldset>
          {error ? (
            <p className="alert alert--error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="button-row">
            <button
              type="button"
              className="button button--primary"
              disabled={confirming}
              onClick={onPay}
            >
              {confirming ? t('wallet.working') : t('wallet.sheet.pay', { amount })}
            </button>
            <Dialog.Close className="button" disabled={confirming}>
              {t('wallet.sheet.cancel')}
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
