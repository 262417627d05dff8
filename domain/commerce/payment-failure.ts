import { FAILURE_REASONS, type FailureReason } from './payment-gateway.ts';

/** Why a payment did not go through: a decline or error, or a step the shopper left undone. */
export type PaymentFailure = FailureReason | 'requires_action' | 'canceled';

const FAILURES: ReadonlySet<string> = new Set([...FAILURE_REASONS, 'requires_action', 'canceled']);

/**
 * A failure carried back to the checkout in its address (`?payment_error=card_declined`, after
 * a bank's page): one of ours, or null. The page shows the message of a known reason, never
 * text taken from a URL.
 */
export function paymentFailureOf(raw: string | null | undefined): PaymentFailure | null {
  return raw && FAILURES.has(raw) ? (raw as PaymentFailure) : null;
}
