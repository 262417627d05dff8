import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { testGatewayPayments } from '#db/schema/commerce.ts';
import { StripeGateway, StripeRequestRefused } from '#domain/commerce/stripe-gateway.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import { openTestDatabase, unique } from '#tests/database.ts';
import { type StripeStandIn, startStripeStandIn } from '#tests/stripe-stand-in.ts';

// Issue 39: a refund of part of a payment (one order line) through the gateway, once per key
// however often it is asked, never past what is left; the whole-payment refund of issue 37 still
// works beside it. Against the Stripe stand-in (Stripe's library, its wire format) and the test
// gateway.
let database: DatabaseHandle;
let stripe: StripeStandIn;
let stripeGateway: StripeGateway;
let testGateway: TestGateway;
beforeAll(async () => {
  database = await openTestDatabase();
  stripe = await startStripeStandIn();
  stripeGateway = new StripeGateway({
    secretKey: 'sk_test_51Refunds0000000000000000000000000',
    webhookSecret: 'whsec_refunds',
    apiBase: stripe.base,
  });
  testGateway = new TestGateway(database.db);
});
afterAll(async () => {
  await stripe?.close();
  await database?.close();
});

async function stripePaid(amountCents: number): Promise<string> {
  const payment = await stripeGateway.createPayment({
    amountCents,
    currencyCode: 'USD',
    orderId: crypto.randomUUID(),
    idempotencyKey: unique('create'),
  });
  stripe.confirmInBrowser(payment.ref, 'succeeded');
  return payment.ref;
}

async function testPaid(amountCents: number): Promise<string> {
  const payment = await testGateway.createPayment({
    amountCents,
    currencyCode: 'USD',
    orderId: crypto.randomUUID(),
    idempotencyKey: unique('create'),
  });
  await database.db
    .update(testGatewayPayments)
    .set({ status: 'succeeded' })
    .where(eq(testGatewayPayments.ref, payment.ref));
  return payment.ref;
}

describe('Stripe: refunds.create with an amount and the line’s idempotency key (issue 39)', () => {
  it('the same key twice, or at once, is one refund; another line is another refund', async () => {
    const ref = await stripePaid(5000);
    const first = { ref, amountCents: 2000, idempotencyKey: unique('line') };
    const [a, b] = await Promise.all([
      stripeGateway.refundAmount(first),
      stripeGateway.refundAmount(first),
    ]);
    expect(a.refundRef).toBe(b.refundRef);
    const again = await stripeGateway.refundAmount(first);
    expect(again.refundRef).toBe(a.refundRef);
    const other = await stripeGateway.refundAmount({
      ref,
      amountCents: 2000,
      idempotencyKey: unique('line'),
    });
    expect(other.refundRef).not.toBe(a.refundRef);
    expect(
      [...stripe.refunds.values()].filter((r) => r.intent === ref).map((r) => r.amount),
    ).toEqual([2000, 2000]);
    const refundCalls = stripe.calls.filter((c) => c.path === '/v1/refunds');
    expect(refundCalls.every((c) => c.idempotencyKey !== null)).toBe(true);
  });

  it('past what is left of the payment, Stripe refuses it (amount_too_large)', async () => {
    const ref = await stripePaid(3000);
    await stripeGateway.refundAmount({ ref, amountCents: 2000, idempotencyKey: unique('line') });
    const refused = stripeGateway.refundAmount({
      ref,
      amountCents: 1500,
      idempotencyKey: unique('line'),
    });
    await expect(refused).rejects.toBeInstanceOf(StripeRequestRefused);
    await expect(refused).rejects.toMatchObject({ code: 'amount_too_large' });
  });

  it('issue 37 still: the whole payment refunded, once', async () => {
    const ref = await stripePaid(2500);
    await stripeGateway.refundPayment(ref);
    await stripeGateway.refundPayment(ref);
    expect([...stripe.refunds.values()].filter((r) => r.intent === ref)).toHaveLength(1);
    expect(stripe.intents.get(ref)!.refunded).toBe(true);
  });
});

describe('the test gateway refunds the same way (issue 39)', () => {
  it('one refund per key, at once or again; never past the payment; only a succeeded payment', async () => {
    const ref = await testPaid(5000);
    const first = { ref, amountCents: 3000, idempotencyKey: unique('line') };
    const [a, b] = await Promise.all([
      testGateway.refundAmount(first),
      testGateway.refundAmount(first),
    ]);
    expect(a.refundRef).toBe(b.refundRef);
    expect((await testGateway.refundAmount(first)).refundRef).toBe(a.refundRef);
    await expect(
      testGateway.refundAmount({ ref, amountCents: 2001, idempotencyKey: unique('line') }),
    ).rejects.toThrow('has less than 2001 left');
    await expect(testGateway.refundAmount({ ...first, amountCents: 100 })).rejects.toThrow(
      'used for another refund',
    );
    const open = await testGateway.createPayment({
      amountCents: 100,
      currencyCode: 'USD',
      orderId: crypto.randomUUID(),
      idempotencyKey: unique('create'),
    });
    await expect(
      testGateway.refundAmount({ ref: open.ref, amountCents: 100, idempotencyKey: unique('l') }),
    ).rejects.toThrow('is requires_payment_method');
  });
});
