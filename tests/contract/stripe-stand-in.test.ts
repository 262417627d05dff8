import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRIPE_API_VERSION, StripeGateway } from '#domain/commerce/stripe-gateway.ts';
import { type StripeStandIn, startStripeStandIn } from '#tests/stripe-stand-in.ts';

// Decision 012: the stateful stand-in that the checkout and browser tests point the gateway
// at takes what Stripe's library sends, and refuses a request that lacks what Stripe needs or
// what our gateway always sends, so those tests fail when either is lost.

const SECRET_KEY = 'sk_test_51StandIn0000000000000000000000000';
let stripe: StripeStandIn;
beforeAll(async () => {
  stripe = await startStripeStandIn();
});
afterAll(async () => {
  await stripe?.close();
});

const post = (path: string, body: string, headers: Record<string, string>) =>
  fetch(`${stripe.base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
const complete = {
  Authorization: `Bearer ${SECRET_KEY}`,
  'Stripe-Version': STRIPE_API_VERSION,
  'Idempotency-Key': 'stand-in-test:0',
};
const order = '0b6a4c2e-8d1f-4e3a-9b5c-7d2e4f6a8b0c';

describe('the Stripe stand-in', () => {
  it('plays a payment made by the gateway through Stripe’s library', async () => {
    const gateway = new StripeGateway({
      secretKey: SECRET_KEY,
      webhookSecret: 'whsec_standin_0',
      apiBase: stripe.base,
    });
    const payment = await gateway.createPayment({
      amountCents: 1999,
      currencyCode: 'USD',
      orderId: order,
      idempotencyKey: `${order}:0`,
    });
    expect(stripe.intents.get(payment.ref)).toMatchObject({
      amount: 1999,
      currency: 'usd',
      orderId: order,
    });
    expect(stripe.calls.at(-1)).toEqual({
      method: 'POST',
      path: '/v1/payment_intents',
      idempotencyKey: `${order}:0`,
    });
    stripe.confirmInBrowser(payment.ref, 'succeeded');
    expect(await gateway.retrievePayment(payment.ref)).toMatchObject({
      status: 'succeeded',
      orderId: order,
    });
    expect((await gateway.cancelPayment(payment.ref)).status).toBe('succeeded');
  });

  it('refuses what Stripe refuses: no secret key, no amount or currency', async () => {
    const body = `amount=2500&currency=usd&metadata[order_id]=${order}`;
    const { Authorization: _, ...keyless } = complete;
    expect((await post('/v1/payment_intents', body, keyless)).status).toBe(401);
    for (const missing of ['currency=usd&', 'amount=2500&']) {
      const answer = await post('/v1/payment_intents', body.replace(missing, ''), complete);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: 'parameter_missing' } });
    }
  });

  it('refuses what our gateway never omits: Stripe-Version, Idempotency-Key, the order id', async () => {
    const body = `amount=2500&currency=usd&metadata[order_id]=${order}`;
    const { 'Stripe-Version': _v, ...versionless } = complete;
    const { 'Idempotency-Key': _k, ...keyless } = complete;
    expect((await post('/v1/payment_intents', body, versionless)).status).toBe(400);
    expect((await post('/v1/payment_intents', body, keyless)).status).toBe(400);
    const orderless = await post('/v1/payment_intents', 'amount=2500&currency=usd', complete);
    expect(orderless.status).toBe(400);
  });
});
