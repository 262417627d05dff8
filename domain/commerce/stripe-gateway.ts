import Stripe from 'stripe';
import { Invalid } from '#domain/shared/errors.ts';
import type { GatewayEvent, GatewayPayment, PaymentGateway } from './payment-gateway.ts';
import { InvalidSignature } from './payment-gateway.ts';
import { gatewayEventOf } from './stripe-event.ts';
import { gatewayPaymentOf, isPaymentIntent, ORDER_METADATA_KEY } from './stripe-payment-intent.ts';

// Payments through Stripe's PaymentIntents API (docs.stripe.com/api/payment_intents), called
// with Stripe's own Node library (decision 012, amending 007): it encodes the requests, sends
// them, reads the answers and checks webhook signatures; this file decides what an answer
// means for the store. Card details never reach this server: in the browser Stripe.js turns
// the shopper's card (or wallet) into a PaymentMethod (`pm_…`), and the server confirms the
// payment with that id (decision 007).

export const STRIPE_API_BASE = 'https://api.stripe.com';
/**
 * The API version every request asks for, so a change of the account's default version in
 * Stripe's dashboard, or of the library's own default, cannot change the answers this code
 * reads. The recorded answers in tests/fixtures/stripe/ are of this version.
 */
export const STRIPE_API_VERSION = '2024-06-20';
/** How far in the past a webhook's signed time may be: a captured delivery cannot be replayed. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  /** For Stripe.js in the browser; the server never uses it. */
  publishableKey: string;
  /** Where the API is (an origin); another one only for tests against a local stand-in. */
  apiBase?: string;
};

/** A Stripe call failed; `status` is null when no readable answer came back. */
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
 * No answer, a timeout, an answer that is not Stripe's JSON, a 5xx, a rate limit or a
 * concurrent request with the same key: worth trying again later with the same idempotency
 * key, which cannot charge twice.
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

export class StripeGateway implements PaymentGateway {
  readonly name = 'stripe' as const;
  /** Apple Pay and Google Pay through Stripe.js hand over a PaymentMethod, like a card. */
  readonly supportsWallet = true;
  readonly #stripe: Stripe;
  readonly #webhookSecret: string;

  constructor(options: {
    secretKey: string;
    webhookSecret: string;
    apiBase?: string;
    /** How long one call may take before it counts as unavailable. */
    timeoutMs?: number;
  }) {
    this.#webhookSecret = options.webhookSecret;
    this.#stripe = new Stripe(options.secretKey, {
      ...serverOf(options.apiBase ?? STRIPE_API_BASE),
      // The library's types name only its own default version; we ask for ours.
      apiVersion: STRIPE_API_VERSION as Stripe.LatestApiVersion,
      // The longest a call may wait for the next bytes from Stripe (the socket's idle time).
      timeout: options.timeoutMs ?? 30_000,
      // A failure is reported at once, as before: the checkout's next attempt (same key) or
      // Stripe's next webhook delivery retries it. The library still sends a request once
      // more when a kept-alive connection was closed under it before any answer.
      maxNetworkRetries: 0,
      // No timings of earlier calls in a header of the next.
      telemetry: false,
    });
  }

  createPayment(input: Parameters<PaymentGateway['createPayment']>[0]): Promise<GatewayPayment> {
    return this.#intent('create', () =>
      this.#stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: input.currencyCode.toLowerCase(),
          metadata: { [ORDER_METADATA_KEY]: input.orderId },
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
  }

  confirmPayment(input: Parameters<PaymentGateway['confirmPayment']>[0]): Promise<GatewayPayment> {
    // PCI DSS: card numbers are typed into Stripe's own fields, never into ours.
    const { method } = input;
    if (method.kind === 'card') return Promise.reject(new CardDetailsRefused());
    return this.#intent('confirm', () =>
      this.#stripe.paymentIntents.confirm(
        input.ref,
        // The PaymentMethod comes back whole: its card's brand and last four (issue 19).
        { payment_method: method.id, expand: ['payment_method'] },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
  }

  retrievePayment(ref: string): Promise<GatewayPayment> {
    return this.#intent('retrieve', () =>
      this.#stripe.paymentIntents.retrieve(ref, { expand: ['payment_method'] }),
    );
  }

  /** A payment that already succeeded (or was canceled) stays as it is and is returned. */
  cancelPayment(ref: string): Promise<GatewayPayment> {
    return this.#intent('cancel', () =>
      this.#stripe.paymentIntents.cancel(ref, {}, { idempotencyKey: `${ref}:cancel` }),
    );
  }

  /**
   * A refund of the payment's whole amount (Refunds API). The key is the payment's: a retried
   * refund is the same refund, and a payment Stripe already refunded in full is left as it is.
   */
  async refundPayment(ref: string): Promise<void> {
    try {
      await this.#stripe.refunds.create(
        { payment_intent: ref },
        { idempotencyKey: `${ref}:refund` },
      );
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      if (error.code === 'charge_already_refunded') return;
      throw failureOf('refund', error);
    }
  }

  /**
   * A refund of part of the payment (Refunds API, `amount`), under the caller's idempotency key
   * (derived from the order line, decision 038): asked again, Stripe answers with the same
   * refund. A refund Stripe reports as pending (some cards) is on its way: it counts as made.
   */
  async refundAmount(
    input: Parameters<PaymentGateway['refundAmount']>[0],
  ): Promise<{ refundRef: string }> {
    try {
      const refund = await this.#stripe.refunds.create(
        { payment_intent: input.ref, amount: input.amountCents },
        { idempotencyKey: input.idempotencyKey },
      );
      if (refund.status === 'failed' || refund.status === 'canceled') {
        throw new StripeRequestRefused(
          `Stripe refund ${refund.id} is ${refund.status}`,
          null,
          refund.failure_reason ?? null,
        );
      }
      return { refundRef: refund.id };
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      throw failureOf('refund', error);
    }
  }

  /**
   * The event, once the library has checked that `Stripe-Signature` signs this exact body
   * with the endpoint's secret, at most 300 s before `now` (any one of several `v1` while a
   * secret is rolled). A signed body that is not an event is Invalid.
   */
  parseEvent(rawBody: string, signature: string | null, now: Date): GatewayEvent {
    let event: unknown;
    try {
      event = this.#stripe.webhooks.constructEvent(
        rawBody,
        signature ?? '',
        this.#webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        now.getTime(),
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
        throw new InvalidSignature(error.message.split('\n')[0]!.trim());
      }
      if (error instanceof SyntaxError) throw new Invalid();
      throw error;
    }
    return gatewayEventOf(event);
  }

  /**
   * A call that answers with a PaymentIntent. A declined card (402 `card_error`) and a payment
   * that is past the requested move (400 `payment_intent_unexpected_state`) are answers, not
   * failures: Stripe sends the intent along, and the store reads its state like any other.
   */
  async #intent(call: string, send: () => Promise<unknown>): Promise<GatewayPayment> {
    let intent: unknown;
    try {
      intent = await send();
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeError)) throw error;
      const declined = error instanceof Stripe.errors.StripeCardError;
      if (
        isPaymentIntent(error.payment_intent) &&
        (declined || error.code === 'payment_intent_unexpected_state')
      ) {
        return gatewayPaymentOf(
          error.payment_intent,
          declined
            ? { code: error.code ?? null, decline_code: error.decline_code ?? null }
            : undefined,
        );
      }
      throw failureOf(call, error);
    }
    return gatewayPaymentOf(intent);
  }
}

/**
 * Which of our two failures a library error is. No status means no answer (a connection
 * error, a timeout) or one that was not Stripe's JSON (a proxy's error page, an answer cut
 * short).
 */
function failureOf(call: string, error: InstanceType<typeof Stripe.errors.StripeError>) {
  const status = error.statusCode ?? null;
  const unavailable =
    status === null ||
    status >= 500 ||
    status === 429 ||
    status === 409 ||
    error.headers?.['stripe-should-retry'] === 'true';
  const Failure = unavailable ? StripeUnavailable : StripeRequestRefused;
  return new Failure(
    `Stripe ${call} ${status === null ? 'failed' : `answered ${status}`}${error.message ? `: ${error.message}` : ''}`,
    status,
    error.code ?? null,
    error.requestId ?? null,
    { cause: error },
  );
}

/** The library's host, port and protocol for an API origin such as `http://127.0.0.1:4242`. */
function serverOf(apiBase: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiBase);
  // The library puts `/v1/…` right after the origin: no path, query or credentials here.
  if (!['http:', 'https:'].includes(url.protocol) || url.href !== `${url.origin}/`) {
    throw new Error(`The Stripe API base must be an http(s) origin, not ${apiBase}`);
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}
