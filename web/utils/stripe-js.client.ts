// Stripe.js v3, loaded by a script tag from Stripe's JS host the first time a page needs it
// (decision 007): Stripe asks that it never be bundled or served by us, and we add no npm
// dependency for it. Only the parts the store uses are typed here
// (docs.stripe.com/js: Stripe(), elements(), the Payment and Express Checkout Elements,
// elements.submit(), confirmPayment()).

export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

export type StripeJsError = {
  /** `validation_error` (fields incomplete: nothing was sent), `card_error`, `api_error`, … */
  type: string;
  code?: string;
  decline_code?: string;
  message?: string;
};

type Locale = 'en' | 'fr-CA';

type Appearance = { theme?: 'stripe' | 'flat' | 'night'; variables?: Record<string, string> };

export type StripeElementsOptions = { locale?: Locale; appearance?: Appearance } & (
  | /** Intent first: the payment exists, the element confirms it. */ { clientSecret: string }
  | /** Deferred: the element shows the amount, the payment is made on confirm. */ {
      mode: 'payment';
      amount: number;
      currency: 'usd';
    }
);

type Mountable = {
  mount(target: HTMLElement): void;
  destroy(): void;
};

export type StripePaymentElement = Mountable & {
  on(event: 'ready', handler: () => void): StripePaymentElement;
  on(event: 'loaderror', handler: (event: { error: StripeJsError }) => void): StripePaymentElement;
};

type WalletChoice = 'auto' | 'never';

export type ExpressCheckoutConfirmEvent = {
  /** `apple_pay`, `google_pay`, … */
  expressPaymentType: string;
  /** Tells the wallet's sheet that the payment failed before it was confirmed. */
  paymentFailed(payload?: { reason?: 'fail' }): void;
};

export type StripeExpressCheckoutElement = Mountable & {
  on(
    event: 'ready',
    handler: (event: { availablePaymentMethods?: Record<string, boolean> | null }) => void,
  ): StripeExpressCheckoutElement;
  on(
    event: 'confirm',
    handler: (event: ExpressCheckoutConfirmEvent) => void,
  ): StripeExpressCheckoutElement;
  on(event: 'cancel', handler: () => void): StripeExpressCheckoutElement;
  on(
    event: 'loaderror',
    handler: (event: { error: StripeJsError }) => void,
  ): StripeExpressCheckoutElement;
};

export type StripeElements = {
  create(type: 'payment', options?: { layout?: 'tabs' | 'accordion' }): StripePaymentElement;
  create(
    type: 'expressCheckout',
    options?: {
      paymentMethods?: Partial<
        Record<'applePay' | 'googlePay' | 'link' | 'paypal' | 'amazonPay' | 'klarna', WalletChoice>
      >;
    },
  ): StripeExpressCheckoutElement;
  /** Validates what the elements collected; required before a deferred confirmation. */
  submit(): Promise<{ error?: StripeJsError }>;
};

export type StripeJs = {
  elements(options: StripeElementsOptions): StripeElements;
  confirmPayment(options: {
    elements: StripeElements;
    /** Only with deferred elements: the payment made after the shopper confirmed. */
    clientSecret?: string;
    redirect: 'if_required';
    confirmParams: { return_url: string };
  }): Promise<{ error?: StripeJsError; paymentIntent?: { id: string; status: string } }>;
};

type StripeFactory = (publishableKey: string, options?: { locale?: Locale }) => StripeJs;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

let script: Promise<StripeFactory> | null = null;
const instances = new Map<string, StripeJs>();

/** Injects the script once per page load; a failed load may be tried again later. */
function loadScript(): Promise<StripeFactory> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  script ??= new Promise<StripeFactory>((resolve, reject) => {
    const tag = document.createElement('script');
    tag.src = STRIPE_JS_URL;
    tag.async = true;
    tag.addEventListener('load', () =>
      window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js defined no Stripe')),
    );
    tag.addEventListener('error', () => {
      tag.remove();
      reject(new Error('Stripe.js could not be loaded'));
    });
    document.head.append(tag);
  }).catch((error: unknown) => {
    script = null;
    throw error;
  });
  return script;
}

/** The page's Stripe object for a key and language: Stripe asks for one shared instance. */
export async function loadStripeJs(publishableKey: string, locale: Locale): Promise<StripeJs> {
  const Stripe = await loadScript();
  const id = `${publishableKey}\u0000${locale}`;
  let stripe = instances.get(id);
  if (!stripe) {
    stripe = Stripe(publishableKey, { locale });
    instances.set(id, stripe);
  }
  return stripe;
}

/** Where Stripe sends the shopper back after a bank's page or a redirect-based method. */
export function returnUrl(orderId: string): string {
  return new URL(`/checkout/return/${orderId}`, window.location.href).href;
}
