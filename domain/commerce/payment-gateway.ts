import { randomUUID } from 'node:crypto';
import { type CardInput, testCardOutcome } from './test-card.ts';

// How the store charges a card (issue 4). The built-in test gateway is the default; a Stripe
// gateway implements the same interface when STRIPE_SECRET_KEY is set (not built yet).
export type ChargeResult =
  | { status: 'succeeded'; ref: string }
  | { status: 'requires_action'; ref: string }
  | { status: 'failed'; ref: string; reason: string };

export interface PaymentGateway {
  readonly name: 'test' | 'stripe';
  charge(input: {
    amountCents: number;
    currencyCode: 'USD';
    card: CardInput;
    /** The gateway's own idempotency key: a retried charge is the same charge. */
    idempotencyKey: string;
    now: Date;
  }): Promise<ChargeResult>;
}

/** Behaves like a provider's test mode (test-card.ts); charges nothing. */
export class TestGateway implements PaymentGateway {
  readonly name = 'test' as const;
  readonly #charges = new Map<string, ChargeResult>();

  async charge(input: Parameters<PaymentGateway['charge']>[0]): Promise<ChargeResult> {
    const earlier = this.#charges.get(input.idempotencyKey);
    if (earlier) return earlier;
    const outcome = testCardOutcome(input.card, input.now);
    const ref = `pi_test_${randomUUID()}`;
    const result: ChargeResult = outcome.ok
      ? { status: outcome.result, ref }
      : { status: 'failed', ref, reason: outcome.reason };
    this.#charges.set(input.idempotencyKey, result);
    return result;
  }
}
