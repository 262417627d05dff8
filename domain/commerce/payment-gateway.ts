import type { PaymentCard } from './payment-card.ts';
import type { CardInput } from './test-card.ts';

// How the store takes money (issue 4), shaped like a payment provider's payment intents: the
// server creates a payment for an amount, the shopper's card or wallet confirms it, and the
// provider may ask the shopper for an extra step (3-D Secure) before it succeeds. The built-in
// test gateway (test-gateway.ts) is the default; the Stripe gateway (stripe-gateway.ts)
// implements the same interface when STRIPE_SECRET_KEY is set.

export type GatewayName = 'test' | 'stripe';

/** Why a confirmation failed, in the store's words (messages `checkout.error.{reason}`). */
export const FAILURE_REASONS = [
  'invalid_number',
  'invalid_expiry',
  'expired_card',
  'invalid_cvc',
  'card_declined',
  'insufficient_funds',
  'processing_error',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/**
 * What the shopper's browser needs to pay through this process's gateway: nothing more for
 * the test gateway (its own forms post to us), Stripe.js's publishable key for Stripe.
 */
export type BrowserPayments = { gateway: 'test' } | { gateway: 'stripe'; publishableKey: string };

export type GatewayPaymentStatus =
  /** Created, or a confirmation failed (`failure` says why): another method may be tried. */
  | 'requires_payment_method'
  /** The shopper must complete an extra step (3-D Secure) with the provider. */
  | 'requires_action'
  | 'processing'
  | 'succeeded'
  | 'canceled';

export type GatewayPayment = {
  /** The provider's id of the payment (a PaymentIntent id). */
  ref: string;
  status: GatewayPaymentStatus;
  amountCents: number;
  currencyCode: 'USD';
  /** The order this payment is for, as the store told the provider when creating it. */
  orderId: string | null;
  /** Handed to the browser when the provider's script confirms the payment there. */
  clientSecret: string;
  failure: FailureReason | null;
  /** The card that paid, when the provider says (issue 19: the order shows its last four). */
  card: PaymentCard | null;
};

/** What confirms a payment: a card typed into the test gateway's form, or a provider token. */
export type PaymentMethodInput =
  | { kind: 'card'; card: CardInput }
  /** A Stripe PaymentMethod id (`pm_…`), or the test wallet's token. */
  | { kind: 'method'; id: string };

/** A provider's notice about a payment, read from a signed webhook. */
export type GatewayEvent = {
  /** The provider's event id: the same event delivered again has the same id. */
  id: string;
  type: 'payment.succeeded' | 'payment.failed' | 'payment.canceled' | 'other';
  /** The provider's name for the type, kept with the event (`payment_intent.succeeded`). */
  providerType: string;
  createdAt: Date;
  payment: GatewayPayment | null;
  payload: unknown;
};

/** A webhook whose signature is missing, forged or too old: answered 400, changes nothing. */
export class InvalidSignature extends Error {
  constructor(reason: string) {
    super(`Invalid webhook signature: ${reason}`);
    this.name = 'InvalidSignature';
  }
}

export interface PaymentGateway {
  readonly name: GatewayName;
  /** Whether the shopper's wallet button is offered (spec 1 §4 Wallet payment). */
  readonly supportsWallet: boolean;
  /**
   * Creates a payment for an order. The same idempotency key gives the same payment back,
   * so a retried request never makes a second one.
   */
  createPayment(input: {
    amountCents: number;
    currencyCode: 'USD';
    orderId: string;
    idempotencyKey: string;
  }): Promise<GatewayPayment>;
  /** Confirms a payment with a method; a retried confirmation with the same key is the same. */
  confirmPayment(input: {
    ref: string;
    method: PaymentMethodInput;
    idempotencyKey: string;
    now: Date;
  }): Promise<GatewayPayment>;
  retrievePayment(ref: string): Promise<GatewayPayment>;
  cancelPayment(ref: string): Promise<GatewayPayment>;
  /**
   * Gives a succeeded payment's whole amount back to the card (a duplicate charge, issue 37).
   * Refunding the same payment again is the same refund, never a second one.
   */
  refundPayment(ref: string): Promise<void>;
  /**
   * Gives part of a succeeded payment back (issue 39: one order line). The same idempotency key
   * is the same refund, however often or however concurrently it is asked; a refund past what
   * is left of the payment is refused. Returns the provider's id of the refund.
   */
  refundAmount(input: {
    ref: string;
    amountCents: number;
    idempotencyKey: string;
  }): Promise<{ refundRef: string }>;
  /** Reads a webhook's body after checking its signature; throws InvalidSignature. */
  parseEvent(rawBody: string, signature: string | null, now: Date): GatewayEvent;
}
