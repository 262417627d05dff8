import type { GatewayEvent, GatewayPayment, PaymentGateway } from './payment-gateway.ts';
import { gatewayEventOf } from './stripe-event.ts';
import { encodeForm, type FormValue } from './stripe-form.ts';
import {
  gatewayPaymentOf,
  isPaymentIntent,
  ORDER_METADATA_KEY,
  type StripePaymentError,
} from './stripe-payment-intent.ts';
import { verifyStripeSignature } from './stripe-signature.ts';

// Payments through Stripe's PaymentIntents REST API (docs.stripe.com/api/payment_intents),
// called with fetch: no Stripe library. Card details never reach this server: in the browser
// Stripe.js turns the shopper's card (or wallet) into a PaymentMethod (`pm_…`), and the server
// confirms the payment with that id (decision 007).

export const STRIPE_API_BASE = 'https://api.stripe.com';
/**
 * The API version every request asks for, so a change of the account's default version in
 * Stripe's dashboard cannot change the answers this code reads.
 */
export const STRIPE_API_VERSION = '2024-06-20';

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  /** For Stripe.js in the browser; the server never uses it. */
  publishableKey: string;
  /** Where the API is; another host only for contract tests against a local server. */
  apiBase?: string;
};

/** A Stripe call failed; `status` is null when no answer came back. */
export class StripeError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | null = null,
    /** Stripe's `Request-Id`, to look the call up in the dashboard. */
    readonly requestId: string | null = null,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * No answer, a timeout, a 5xx, a rate limit or a concurrent request with the same key: worth
 * trying again later with the same idempotency key, which cannot charge twice.
 */
export class StripeUnavailable extends StripeError {}

/** Stripe refused the request itself (a bad key, a bad parameter, an unknown payment). */
export class StripeRequestRefused extends StripeError {}

/** The Stripe gateway was handed raw card details, which it must never send anywhere. */
export class CardDetailsRefused extends Error {
  constructor() {
    super(
      'The Stripe gateway does not take card numbers: Stripe.js creates a PaymentMethod in the browser and the server confirms with its id',
    );
    this.name = 'CardDetailsRefused';
  }
}

type Answer = { status: number; body: unknown; requestId: string | null; shouldRetry: boolean };

export class StripeGateway implements PaymentGateway {
  readonly name = 'stripe' as const;
  /** Apple Pay and Google Pay through Stripe.js hand over a PaymentMethod, like a card. */
  readonly supportsWallet = true;
  readonly #secretKey: string;
  readonly #webhookSecret: string;
  readonly #apiBase: string;
  readonly #timeoutMs: number;

  constructor(options: {
    secretKey: string;
    webhookSecret: string;
    apiBase?: string;
    /** How long one call may take before it counts as unavailable. */
    timeoutMs?: number;
  }) {
    this.#secretKey = options.secretKey;
    this.#webhookSecret = options.webhookSecret;
    this.#apiBase = (options.apiBase ?? STRIPE_API_BASE).replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  createPayment(input: Parameters<PaymentGateway['createPayment']>[0]): Promise<GatewayPayment> {
    return this.#intent(
      'POST',
      '/v1/payment_intents',
      {
        amount: input.amountCents,
        currency: input.currencyCode.toLowerCase(),
        metadata: { [ORDER_METADATA_KEY]: input.orderId },
        automatic_payment_methods: { enabled: true },
      },
      input.idempotencyKey,
    );
  }

  confirmPayment(input: Parameters<PaymentGateway['confirmPayment']>[0]): Promise<GatewayPayment> {
    // PCI DSS: card numbers are typed into Stripe's own fields, never into ours.
    if (input.method.kind === 'card') return Promise.reject(new CardDetailsRefused());
    return this.#intent(
      'POST',
      `${intentPath(input.ref)}/confirm`,
      { payment_method: input.method.id },
      input.idempotencyKey,
    );
  }

  retrievePayment(ref: string): Promise<GatewayPayment> {
    return this.#intent('GET', intentPath(ref));
  }

  /** A payment that already succeeded (or was canceled) stays as it is and is returned. */
  cancelPayment(ref: string): Promise<GatewayPayment> {
    return this.#intent('POST', `${intentPath(ref)}/cancel`, {}, `${ref}:cancel`);
  }

  parseEvent(rawBody: string, signature: string | null, now: Date): GatewayEvent {
    verifyStripeSignature(rawBody, signature, this.#webhookSecret, now);
    return gatewayEventOf(rawBody);
  }

  /**
   * A call that answers with a PaymentIntent. A declined card (402) and a payment that is past
   * the requested move (400 `payment_intent_unexpected_state`) are answers, not failures:
   * Stripe sends the intent along, and the store reads its state like any other.
   */
  async #intent(
    method: 'GET' | 'POST',
    path: string,
    params?: Record<string, FormValue>,
    idempotencyKey?: string,
  ): Promise<GatewayPayment> {
    const answer = await this.#call(method, path, params, idempotencyKey);
    if (answer.status >= 200 && answer.status < 300) return gatewayPaymentOf(answer.body);
    const error = errorOf(answer.body);
    if (
      error &&
      isPaymentIntent(error.payment_intent) &&
      (error.type === 'card_error' || error.code === 'payment_intent_unexpected_state')
    ) {
      return gatewayPaymentOf(
        error.payment_intent,
        error.type === 'card_error' ? error : undefined,
      );
    }
    const Failure =
      answer.shouldRetry || answer.status >= 500 || answer.status === 429 || answer.status === 409
        ? StripeUnavailable
        : StripeRequestRefused;
    throw new Failure(
      `Stripe ${method} ${path} answered ${answer.status}${error?.message ? `: ${error.message}` : ''}`,
      answer.status,
      error?.code ?? null,
      answer.requestId,
    );
  }

  async #call(
    method: 'GET' | 'POST',
    path: string,
    params: Record<string, FormValue> | undefined,
    idempotencyKey: string | undefined,
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#secretKey}`,
      'Stripe-Version': STRIPE_API_VERSION,
      Accept: 'application/json',
    };
    if (params) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    let response: Response;
    try {
      response = await fetch(`${this.#apiBase}${path}`, {
        method,
        headers,
        body: params ? encodeForm(params) : undefined,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw new StripeUnavailable(`Stripe ${method} ${path}: no answer`, null, null, null, {
        cause: error,
      });
    }
    const requestId = response.headers.get('request-id');
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      // A proxy's HTML error page, or an answer cut short.
      throw new StripeUnavailable(
        `Stripe ${method} ${path} answered ${response.status} without JSON`,
        response.status,
        null,
        requestId,
        { cause: error },
      );
    }
    return {
      status: response.status,
      body,
      requestId,
      shouldRetry: response.headers.get('stripe-should-retry') === 'true',
    };
  }
}

function intentPath(ref: string): string {
  return `/v1/payment_intents/${encodeURIComponent(ref)}`;
}

type StripeErrorBody = StripePaymentError & { payment_intent?: unknown };

function errorOf(body: unknown): StripeErrorBody | null {
  if (typeof body !== 'object' || body === null) return null;
  const error = (body as { error?: unknown }).error;
  return typeof error === 'object' && error !== null ? (error as StripeErrorBody) : null;
}
