import { randomBytes } from 'node:crypto';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { testGatewayPayments } from '#db/schema/commerce.ts';
import { testGatewayRefunds } from '#db/schema/refunds.ts';
import { type PaymentCard, paymentCardOf } from './payment-card.ts';
import {
  type FailureReason,
  type GatewayPayment,
  type GatewayPaymentStatus,
  InvalidSignature,
  type PaymentGateway,
} from './payment-gateway.ts';
import { cardDigits, testCardOutcome } from './test-card.ts';
import { TEST_WALLET_TOKEN } from './wallet-tokens.ts';

type Row = typeof testGatewayPayments.$inferSelect;

function toPayment(row: Row): GatewayPayment {
  return {
    ref: row.ref,
    // A refunded payment still says it succeeded, as a provider's payment intent does; the
    // refund is its own record (here, the row's status).
    status: (row.status === 'refunded' ? 'succeeded' : row.status) as GatewayPaymentStatus,
    amountCents: row.amountCents,
    currencyCode: 'USD',
    orderId: row.orderId,
    clientSecret: `${row.ref}_secret`,
    failure: (row.failure as FailureReason | null) ?? null,
    card: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
  };
}

/** The test wallet's card: its sheet offers it as 'Visa ending in 4242'. */
const TEST_WALLET_CARD: PaymentCard = { brand: 'visa', last4: '4242' };

export class UnknownPayment extends Error {
  constructor(ref: string) {
    super(`No test payment ${ref}`);
    this.name = 'UnknownPayment';
  }
}

/**
 * Behaves like a provider's test mode (test-card.ts) and charges nothing. Its payments live
 * in the database, as a provider keeps them on its side, so that every app process behind
 * the load balancer sees the same ones.
 */
export class TestGateway implements PaymentGateway {
  readonly name = 'test' as const;
  readonly supportsWallet = true;

  constructor(private readonly db: Queryable) {}

  async createPayment(input: Parameters<PaymentGateway['createPayment']>[0]) {
    const ref = `pi_test_${randomBytes(12).toString('hex')}`;
    const [made] = await this.db
      .insert(testGatewayPayments)
      .values({
        ref,
        idempotencyKey: input.idempotencyKey,
        orderId: input.orderId,
        amountCents: input.amountCents,
        status: 'requires_payment_method',
      })
      .onConflictDoNothing({ target: testGatewayPayments.idempotencyKey })
      .returning();
    if (made) return toPayment(made);
    // The same key again (a retried request): the payment it made.
    const [row] = await this.db
      .select()
      .from(testGatewayPayments)
      .where(eq(testGatewayPayments.idempotencyKey, input.idempotencyKey));
    return toPayment(row!);
  }

  async confirmPayment(input: Parameters<PaymentGateway['confirmPayment']>[0]) {
    const current = await this.#row(input.ref);
    // A retried confirmation, or one on a payment that is already settled, changes nothing.
    if (current.confirmKey === input.idempotencyKey || !confirmable(current.status)) {
      return toPayment(current);
    }
    let status: GatewayPaymentStatus;
    let failure: FailureReason | null = null;
    // The card that tried, as a provider keeps it: brand and last four digits (issue 19).
    let card: PaymentCard | null = null;
    if (input.method.kind === 'card') {
      const outcome = testCardOutcome(input.method.card, input.now);
      if (outcome.ok) status = outcome.result;
      else [status, failure] = ['requires_payment_method', outcome.reason];
      card = paymentCardOf(cardDigits(input.method.card.number));
    } else if (input.method.id === TEST_WALLET_TOKEN) {
      status = 'succeeded';
      card = TEST_WALLET_CARD;
    } else {
      [status, failure] = ['requires_payment_method', 'card_declined'];
    }
    return this.#update(input.ref, {
      status,
      failure,
      confirmKey: input.idempotencyKey,
      cardBrand: card?.brand ?? null,
      cardLast4: card?.last4 ?? null,
    });
  }

  /** The shopper's answer to the test bank's extra step for 4000 0025 0000 3155. */
  async authenticate(ref: string, approved: boolean): Promise<GatewayPayment> {
    const current = await this.#row(ref);
    if (current.status !== 'requires_action') return toPayment(current);
    return approved
      ? this.#update(ref, { status: 'succeeded', failure: null })
      : this.#update(ref, { status: 'requires_payment_method', failure: 'card_declined' });
  }

  async retrievePayment(ref: string) {
    return toPayment(await this.#row(ref));
  }

  async cancelPayment(ref: string) {
    const [row] = await this.db
      .update(testGatewayPayments)
      .set({ status: 'canceled' })
      .where(
        and(
          eq(testGatewayPayments.ref, ref),
          notInArray(testGatewayPayments.status, ['succeeded', 'refunded']),
        ),
      )
      .returning();
    return row ? toPayment(row) : this.retrievePayment(ref);
  }

  /** Only a succeeded payment is refunded, once; anything else is refused as a provider would. */
  async refundPayment(ref: string): Promise<void> {
    const current = await this.#row(ref);
    if (current.status === 'refunded') return;
    if (current.status !== 'succeeded') throw new Error(`Test payment ${ref} is ${current.status}`);
    await this.db
      .update(testGatewayPayments)
      .set({ status: 'refunded' })
      .where(and(eq(testGatewayPayments.ref, ref), eq(testGatewayPayments.status, 'succeeded')));
  }

  /**
   * Part of a succeeded payment back, as a provider does it: the same key is the same refund
   * (two calls at once make one), and the refunds of a payment never pass its amount.
   */
  async refundAmount(
    input: Parameters<PaymentGateway['refundAmount']>[0],
  ): Promise<{ refundRef: string }> {
    const known = await this.#refundOf(input.idempotencyKey);
    if (known) return this.#sameRefund(known, input);
    const payment = await this.#row(input.ref);
    if (payment.status !== 'succeeded') {
      throw new Error(`Test payment ${input.ref} is ${payment.status}`);
    }
    if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) {
      throw new Error(`A refund of ${input.amountCents} cents`);
    }
    // One statement: the refund is made only while the payment has that much left.
    await this.db.execute(sql`
      insert into ${testGatewayRefunds} (ref, payment_ref, amount_cents, idempotency_key)
      select ${`re_test_${randomBytes(12).toString('hex')}`}, ${input.ref}, ${input.amountCents},
             ${input.idempotencyKey}
      where (select coalesce(sum(amount_cents), 0) from ${testGatewayRefunds}
             where payment_ref = ${input.ref}) + ${input.amountCents} <= ${payment.amountCents}
      on conflict (idempotency_key) do nothing`);
    const made = await this.#refundOf(input.idempotencyKey);
    if (!made) throw new Error(`Test payment ${input.ref} has less than ${input.amountCents} left`);
    return this.#sameRefund(made, input);
  }

  async #refundOf(idempotencyKey: string) {
    const [row] = await this.db
      .select()
      .from(testGatewayRefunds)
      .where(eq(testGatewayRefunds.idempotencyKey, idempotencyKey));
    return row ?? null;
  }

  /** A key used again for another payment or amount is refused, as Stripe refuses it. */
  #sameRefund(
    row: typeof testGatewayRefunds.$inferSelect,
    input: Parameters<PaymentGateway['refundAmount']>[0],
  ): { refundRef: string } {
    if (row.paymentRef !== input.ref || row.amountCents !== input.amountCents) {
      throw new Error(`Idempotency key ${input.idempotencyKey} was used for another refund`);
    }
    return { refundRef: row.ref };
  }

  parseEvent(): never {
    throw new InvalidSignature('the test gateway sends no webhooks');
  }

  async #row(ref: string): Promise<Row> {
    const [row] = await this.db
      .select()
      .from(testGatewayPayments)
      .where(eq(testGatewayPayments.ref, ref));
    if (!row) throw new UnknownPayment(ref);
    return row;
  }

  async #update(
    ref: string,
    values: {
      status: GatewayPaymentStatus;
      failure: FailureReason | null;
      confirmKey?: string;
      cardBrand?: string | null;
      cardLast4?: string | null;
    },
  ): Promise<GatewayPayment> {
    // Only an unsettled payment moves: two racing confirmations cannot both change it.
    const [row] = await this.db
      .update(testGatewayPayments)
      .set(values)
      .where(
        and(
          eq(testGatewayPayments.ref, ref),
          sql`${testGatewayPayments.status} not in ('succeeded', 'canceled', 'refunded')`,
        ),
      )
      .returning();
    return row ? toPayment(row) : this.retrievePayment(ref);
  }
}

function confirmable(status: string): boolean {
  return status === 'requires_payment_method';
}
