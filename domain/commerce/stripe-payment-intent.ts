import type { PaymentCard } from './payment-card.ts';
import type { FailureReason, GatewayPayment, GatewayPaymentStatus } from './payment-gateway.ts';

// Reading Stripe's PaymentIntent object (docs.stripe.com/api/payment_intents/object) in the
// store's words. Only the fields read here are typed; Stripe adds fields without notice.

/** The key under which the store tells Stripe which order a payment is for. */
export const ORDER_METADATA_KEY = 'order_id';

export type StripePaymentError = {
  type?: string;
  code?: string | null;
  decline_code?: string | null;
  message?: string;
};

export type StripePaymentIntent = {
  id: string;
  object: 'payment_intent';
  status: string;
  amount: number;
  currency: string;
  client_secret?: string | null;
  metadata?: Record<string, string> | null;
  last_payment_error?: StripePaymentError | null;
  /** An id, or the PaymentMethod itself when the call asked to expand it. */
  payment_method?: string | { card?: StripeCard | null } | null;
  /** An id, or the Charge itself when expanded. */
  latest_charge?: string | { payment_method_details?: { card?: StripeCard | null } | null } | null;
};

type StripeCard = { brand?: string | null; last4?: string | null };

/** Stripe answered something that is not a PaymentIntent we can read. */
export class UnexpectedStripeObject extends Error {
  constructor(reason: string) {
    super(`Unexpected Stripe object: ${reason}`);
    this.name = 'UnexpectedStripeObject';
  }
}

export function isPaymentIntent(value: unknown): value is StripePaymentIntent {
  if (typeof value !== 'object' || value === null) return false;
  const intent = value as Record<string, unknown>;
  return (
    intent.object === 'payment_intent' &&
    typeof intent.id === 'string' &&
    typeof intent.status === 'string' &&
    Number.isInteger(intent.amount) &&
    typeof intent.currency === 'string'
  );
}

/**
 * Stripe's seven statuses in the gateway's five. `requires_confirmation` waits for a method
 * to be confirmed, which is what the store's confirm step gives it; `requires_capture` (only
 * with manual capture, which the store does not ask for) has taken no money yet. A status
 * Stripe adds later is treated as not settled.
 */
export function paymentStatusOf(status: string): GatewayPaymentStatus {
  switch (status) {
    case 'requires_payment_method':
    case 'requires_confirmation':
      return 'requires_payment_method';
    case 'requires_action':
      return 'requires_action';
    case 'succeeded':
      return 'succeeded';
    case 'canceled':
      return 'canceled';
    default:
      return 'processing';
  }
}

// Issuer decline codes first (docs.stripe.com/declines/codes), then error codes
// (docs.stripe.com/error-codes): a decline for insufficient funds comes as
// `code: card_declined, decline_code: insufficient_funds`.
const BY_DECLINE_CODE: Record<string, FailureReason> = {
  insufficient_funds: 'insufficient_funds',
  expired_card: 'expired_card',
  incorrect_cvc: 'invalid_cvc',
  invalid_cvc: 'invalid_cvc',
  incorrect_number: 'invalid_number',
  invalid_number: 'invalid_number',
  invalid_expiry_month: 'invalid_expiry',
  invalid_expiry_year: 'invalid_expiry',
};

const BY_CODE: Record<string, FailureReason> = {
  ...BY_DECLINE_CODE,
  card_declined: 'card_declined',
  // The shopper failed or abandoned 3-D Secure: declined, as the test gateway says.
  payment_intent_authentication_failure: 'card_declined',
  processing_error: 'processing_error',
};

/** Why a confirmation failed, in the store's words; anything unknown is a processing error. */
export function failureReasonOf(error: StripePaymentError | null | undefined): FailureReason {
  if (!error) return 'processing_error';
  return (
    (error.decline_code ? BY_DECLINE_CODE[error.decline_code] : undefined) ??
    (error.code ? BY_CODE[error.code] : undefined) ??
    'processing_error'
  );
}

/**
 * The card that paid, when the intent carries its PaymentMethod (or its latest Charge)
 * expanded: brand and last four digits (issue 19). An id alone says nothing of the card.
 */
export function paymentCardOfIntent(intent: StripePaymentIntent): PaymentCard | null {
  const method = typeof intent.payment_method === 'object' ? intent.payment_method : null;
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  const card = method?.card ?? charge?.payment_method_details?.card ?? null;
  if (!card?.last4 || !/^\d{4}$/.test(card.last4)) return null;
  return { brand: card.brand ?? 'unknown', last4: card.last4 };
}

/**
 * A PaymentIntent as the gateway reports it. A failure is only reported while the payment
 * waits for another method: Stripe keeps `last_payment_error` after a later success.
 */
export function gatewayPaymentOf(
  value: unknown,
  /** The error a declined confirmation came with, when the intent itself does not say. */
  error?: StripePaymentError,
): GatewayPayment {
  if (!isPaymentIntent(value)) throw new UnexpectedStripeObject('not a PaymentIntent');
  // spec 2 §9: USD only; the store never creates a payment in another currency.
  if (value.currency.toLowerCase() !== 'usd') {
    throw new UnexpectedStripeObject(`${value.id} is in ${value.currency}`);
  }
  const status = paymentStatusOf(value.status);
  const lastError = value.last_payment_error ?? error ?? null;
  return {
    ref: value.id,
    status,
    amountCents: value.amount,
    currencyCode: 'USD',
    orderId: value.metadata?.[ORDER_METADATA_KEY] ?? null,
    clientSecret: value.client_secret ?? '',
    failure: status === 'requires_payment_method' && lastError ? failureReasonOf(lastError) : null,
    card: paymentCardOfIntent(value),
  };
}
