import { useState, useSyncExternalStore } from 'react';
import { needsShipping, platformFeeCents } from '#domain/commerce/fulfilment-rules.ts';
import type { BrowserPayments } from '#domain/commerce/payment-gateway.ts';
import type { SiteOrg } from '#domain/sites/types.ts';
import { useT } from '#web/i18n/use-t.ts';
import { onDemand } from '#web/utils/on-demand.tsx';

// The payment itself is loaded by the first press of the button (or with Stripe, in the
// browser only): a product page's first visit needs none of it (issue 13).
const TestWallet = onDemand(() => import('./test-wallet.tsx').then((module) => module.TestWallet));
const StripeWalletButton = onDemand(() =>
  import('./stripe-wallet-button.tsx').then((module) => module.StripeWalletButton),
);
const subscribeNever = () => () => undefined;

/** Below this a wallet payment is not offered (spec 1 §4 Wallet payment: minimum 0.50 USD). */
export const WALLET_MINIMUM_CENTS = 50;

/**
 * The wallet button of a product page (spec 1 §4 Wallet payment): with the test gateway, the
 * test wallet (test-wallet.tsx); with Stripe, Stripe's own wallet buttons (Apple Pay, Google
 * Pay). Anonymous shoppers log in first and come back to this offering.
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
  const t = useT(['wallet.working']);
  const [pressed, setPressed] = useState(false);
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

  const standIn = (
    <button
      type="button"
      className="button button--wallet"
      disabled={!csrfToken || pressed}
      onPointerEnter={TestWallet.preload}
      onFocus={TestWallet.preload}
      onClick={() => setPressed(true)}
    >
      {pressed ? t('wallet.working') : t('wallet.pay')}
    </button>
  );
  return (
    <TestWallet
      when={pressed}
      fallback={standIn}
      offering={offering}
      productTitle={productTitle}
      courseId={courseId}
      csrfToken={csrfToken}
      startAtOnce
    />
  );
}
