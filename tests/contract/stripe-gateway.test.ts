import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InvalidSignature } from '#domain/commerce/payment-gateway.ts';
import {
  CardDetailsRefused,
  STRIPE_API_VERSION,
  StripeGateway,
  StripeRequestRefused,
  StripeUnavailable,
} from '#domain/commerce/stripe-gateway.ts';
import { stripeSignatureHeader } from '#domain/commerce/stripe-signature.ts';
import { Invalid } from '#domain/shared/errors.ts';

// Issue 4, Stripe gateway: the calls it makes and how it reads Stripe's answers. A node:http
// server on 127.0.0.1 stands in for Stripe's API and answers with the JSON Stripe returns
// (tests/fixtures/stripe/); nothing here reaches the internet. Since decision 012 the calls
// are made by Stripe's Node library, pointed at this server by the gateway's `apiBase`.

const SECRET_KEY = 'sk_test_51Contract000000000000000000000000';
const WEBHOOK_SECRET = 'whsec_contract_3b9d1f7a5c2e8b4d6f0a1c3e5b7d9f2a';
const PI = 'pi_3QZk8vF2mN7pLr4T1aB6cD9e';
const ORDER = '7d1f3c2a-5b8e-4f6a-9c0d-2e4b6a8c0f13';

const fixtureText = (name: string) =>
  readFileSync(new URL(`../fixtures/stripe/${name}`, import.meta.url), 'utf8');

type Seen = { method: string; url: string; headers: IncomingHttpHeaders; body: string };
type Answer = { status: number; body: string; headers?: Record<string, string> } | 'hang';

let server: Server;
let base: string;
let seen: Seen[] = [];
let answers: Answer[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = answers.shift() ?? { status: 500, body: '{"error":{"type":"api_error"}}' };
      if (answer === 'hang') return;
      res.writeHead(answer.status, {
        'Content-Type': 'application/json',
        'Request-Id': 'req_contract_1',
        ...answer.headers,
      });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  answers = [];
});

const gateway = (timeoutMs?: number) =>
  new StripeGateway({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    apiBase: base,
    timeoutMs,
  });
const answerWith = (status: number, fixture: string, headers?: Record<string, string>) =>
  answers.push({ status, body: fixtureText(fixture), headers });
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));

describe('Stripe gateway requests', () => {
  it('create: POST /v1/payment_intents with the amount, usd, the order and the idempotency key', async () => {
    answerWith(200, 'payment-intent-created.json');
    const payment = await gateway().createPayment({
      amountCents: 2500,
      currencyCode: 'USD',
      orderId: ORDER,
      idempotencyKey: `${ORDER}:0`,
    });
    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call).toMatchObject({ method: 'POST', url: '/v1/payment_intents' });
    expect(call!.headers).toMatchObject({
      authorization: `Bearer ${SECRET_KEY}`,
      'idempotency-key': `${ORDER}:0`,
      'stripe-version': STRIPE_API_VERSION,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form(call!.body)).toEqual({
      amount: '2500',
      currency: 'usd',
      'metadata[order_id]': ORDER,
      'automatic_payment_methods[enabled]': 'true',
    });
    expect(payment).toEqual({
      ref: PI,
      status: 'requires_payment_method',
      amountCents: 2500,
      currencyCode: 'USD',
      orderId: ORDER,
      clientSecret: `${PI}_secret_Xq7RbN2vK9mLw4TzPc8HdYs1f`,
      failure: null,
      card: null,
    });
  });

  it('confirm: POST …/confirm with the PaymentMethod id made by Stripe.js; success is succeeded', async () => {
    answerWith(200, 'payment-intent-confirm-succeeded.json');
    const payment = await gateway().confirmPayment({
      ref: PI,
      method: { kind: 'method', id: 'pm_1QZk9AF2mN7pLr4TbC3dE5fG' },
      idempotencyKey: `${PI}:abc`,
      now: new Date(),
    });
    expect(seen[0]).toMatchObject({ method: 'POST', url: `/v1/payment_intents/${PI}/confirm` });
    expect(seen[0]!.headers['idempotency-key']).toBe(`${PI}:abc`);
    // Issue 19: the PaymentMethod comes back expanded, with its card's brand and last four.
    expect(form(seen[0]!.body)).toEqual({
      payment_method: 'pm_1QZk9AF2mN7pLr4TbC3dE5fG',
      'expand[0]': 'payment_method',
    });
    expect(payment).toMatchObject({ ref: PI, status: 'succeeded', failure: null, orderId: ORDER });
  });

  it('a declined confirm (402 card_error with error.payment_intent) is an answer, not a throw', async () => {
    answerWith(402, 'payment-intent-confirm-declined-402.json');
    const payment = await gateway().confirmPayment({
      ref: PI,
      method: { kind: 'method', id: 'pm_1QZk9KF2mN7pLr4TzX8cV6bN' },
      idempotencyKey: `${PI}:declined`,
      now: new Date(),
    });
    expect(payment).toMatchObject({
      ref: PI,
      status: 'requires_payment_method',
      failure: 'card_declined',
      amountCents: 2500,
    });
  });

  it('a confirm that needs 3-D Secure is requires_action, with the secret Stripe.js needs', async () => {
    answerWith(200, 'payment-intent-confirm-requires-action.json');
    const payment = await gateway().confirmPayment({
      ref: PI,
      method: { kind: 'method', id: 'pm_1QZk9TF2mN7pLr4TgH5jK7lZ' },
      idempotencyKey: `${PI}:3ds`,
      now: new Date(),
    });
    expect(payment).toMatchObject({
      status: 'requires_action',
      clientSecret: `${PI}_secret_Xq7RbN2vK9mLw4TzPc8HdYs1f`,
      failure: null,
      card: null,
    });
  });

  it('PCI DSS: raw card numbers are refused before any request leaves the server', async () => {
    await expect(
      gateway().confirmPayment({
        ref: PI,
        method: {
          kind: 'card',
          card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
        },
        idempotencyKey: `${PI}:card`,
        now: new Date(),
      }),
    ).rejects.toBeInstanceOf(CardDetailsRefused);
    expect(seen).toEqual([]);
  });

  it('retrieve: GET /v1/payment_intents/{id} with no body and no idempotency key', async () => {
    answerWith(200, 'payment-intent-confirm-succeeded.json');
    const payment = await gateway().retrievePayment(PI);
    // Issue 19: with its PaymentMethod expanded, for the card's brand and last four.
    expect(seen[0]).toMatchObject({
      method: 'GET',
      url: `/v1/payment_intents/${PI}?expand[0]=payment_method`,
      body: '',
    });
    expect(seen[0]!.headers).toMatchObject({
      authorization: `Bearer ${SECRET_KEY}`,
      'stripe-version': STRIPE_API_VERSION,
    });
    expect(seen[0]!.headers['idempotency-key']).toBeUndefined();
    // Stripe's library labels every request form-encoded, a GET with no body too.
    expect(payment.status).toBe('succeeded');
  });

  it('the id is one path segment: a ref cannot reach another endpoint', async () => {
    answerWith(200, 'payment-intent-confirm-succeeded.json');
    await gateway().retrievePayment('pi_1/../../v1/customers');
    expect(seen[0]!.url).toBe(
      '/v1/payment_intents/pi_1%2F..%2F..%2Fv1%2Fcustomers?expand[0]=payment_method',
    );
  });

  it('cancel: POST …/cancel; a payment that already succeeded comes back as succeeded', async () => {
    answerWith(200, 'payment-intent-canceled.json');
    const canceled = await gateway().cancelPayment(PI);
    expect(seen[0]).toMatchObject({ method: 'POST', url: `/v1/payment_intents/${PI}/cancel` });
    expect(seen[0]!.headers['idempotency-key']).toBe(`${PI}:cancel`);
    expect(canceled).toMatchObject({ status: 'canceled', failure: null });

    answerWith(400, 'payment-intent-cancel-succeeded-400.json');
    expect(await gateway().cancelPayment(PI)).toMatchObject({ status: 'succeeded' });
  });
});

describe('Stripe gateway failures', () => {
  const retrieve = (g = gateway()) => g.retrievePayment(PI);

  it('a refused request (401 bad key) throws StripeRequestRefused with Stripe’s request id', async () => {
    answerWith(401, 'error-invalid-api-key-401.json');
    const error = await retrieve().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StripeRequestRefused);
    expect(error).toMatchObject({ status: 401, requestId: 'req_contract_1' });
  });

  it('5xx, 429 and Stripe-Should-Retry throw StripeUnavailable (retry with the same key)', async () => {
    answers.push({ status: 500, body: '{"error":{"type":"api_error","message":"boom"}}' });
    await expect(retrieve()).rejects.toBeInstanceOf(StripeUnavailable);
    answers.push({ status: 429, body: '{"error":{"type":"invalid_request_error"}}' });
    await expect(retrieve()).rejects.toBeInstanceOf(StripeUnavailable);
    answers.push({
      status: 400,
      body: '{"error":{"type":"invalid_request_error"}}',
      headers: { 'Stripe-Should-Retry': 'true' },
    });
    await expect(retrieve()).rejects.toBeInstanceOf(StripeUnavailable);
    // Reported at once, not retried in the process: one request each.
    expect(seen).toHaveLength(3);
  });

  it('a POST that fails is not sent again, and carries only our idempotency key', async () => {
    answers.push({ status: 503, body: '{"error":{"type":"api_error"}}' });
    const failed = gateway().createPayment({
      amountCents: 2500,
      currencyCode: 'USD',
      orderId: ORDER,
      idempotencyKey: `${ORDER}:1`,
    });
    await expect(failed).rejects.toBeInstanceOf(StripeUnavailable);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers['idempotency-key']).toBe(`${ORDER}:1`);
  });

  it('an answer that is not JSON (a proxy error page) throws StripeUnavailable', async () => {
    answers.push({ status: 502, body: '<html>Bad Gateway</html>' });
    await expect(retrieve()).rejects.toBeInstanceOf(StripeUnavailable);
    answers.push({ status: 200, body: '<html>Welcome</html>' });
    await expect(retrieve()).rejects.toBeInstanceOf(StripeUnavailable);
  });

  it('no answer in time, or no server at all, throws StripeUnavailable', async () => {
    answers.push('hang');
    await expect(retrieve(gateway(200))).rejects.toBeInstanceOf(StripeUnavailable);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = new StripeGateway({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: `http://127.0.0.1:${port}`,
    });
    await expect(retrieve(nowhere)).rejects.toBeInstanceOf(StripeUnavailable);
  });
});

describe('Stripe gateway webhook events', () => {
  const body = fixtureText('event-payment-intent-succeeded.json');
  const now = new Date('2026-11-23T12:00:00Z');

  it('a signed payment_intent.succeeded is payment.succeeded with its payment', () => {
    const event = gateway().parseEvent(body, stripeSignatureHeader(body, WEBHOOK_SECRET, now), now);
    expect(event).toMatchObject({
      id: 'evt_3QZk8vF2mN7pLr4T1cE2gH4j',
      type: 'payment.succeeded',
      providerType: 'payment_intent.succeeded',
      payment: { ref: PI, status: 'succeeded', orderId: ORDER, amountCents: 2500 },
    });
  });

  it('a body signed with another secret, or none, is refused', () => {
    const forged = stripeSignatureHeader(body, 'whsec_someone_else', now);
    expect(() => gateway().parseEvent(body, forged, now)).toThrow(InvalidSignature);
    expect(() => gateway().parseEvent(body, null, now)).toThrow(InvalidSignature);
  });

  it('a changed body, a moved timestamp or a header without t or v1 is refused', () => {
    const header = stripeSignatureHeader(body, WEBHOOK_SECRET, now);
    const t = Math.floor(now.getTime() / 1000);
    const refused = (b: string, h: string) => () => gateway().parseEvent(b, h, now);
    expect(refused(body.replace('"amount": 2500', '"amount": 1'), header)).toThrow(
      InvalidSignature,
    );
    expect(refused(body, header.replace(`t=${t}`, `t=${t + 1}`))).toThrow(InvalidSignature);
    const v1 = header.split(',')[1]!;
    for (const bad of ['', v1, `t=${t}`, `t=${t},v0=${v1.slice(3)}`, `t=${t},v1=not-hex`]) {
      expect(refused(body, bad)).toThrow(InvalidSignature);
    }
  });

  it('signed up to 300 s ago is accepted; longer ago is stale (a replay) and refused', () => {
    const header = stripeSignatureHeader(body, WEBHOOK_SECRET, now);
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    expect(gateway().parseEvent(body, header, at(300)).id).toBe('evt_3QZk8vF2mN7pLr4T1cE2gH4j');
    expect(() => gateway().parseEvent(body, header, at(301))).toThrow(InvalidSignature);
    // Only the age is limited (Stripe's rule): a clock of Stripe's ahead of ours is no replay.
    expect(gateway().parseEvent(body, header, at(-301)).type).toBe('payment.succeeded');
  });

  it('while a secret is rolled, any one of several v1 signatures may match', () => {
    const old = stripeSignatureHeader(body, 'whsec_old_secret', now);
    const current = stripeSignatureHeader(body, WEBHOOK_SECRET, now);
    const both = `${old},${current.split(',')[1]}`;
    expect(gateway().parseEvent(body, both, now).type).toBe('payment.succeeded');
  });

  it('a signed body that is not a Stripe event is Invalid, not a signature failure', () => {
    for (const signed of ['not json', '{"id":"evt_1","object":"charge"}']) {
      const header = stripeSignatureHeader(signed, WEBHOOK_SECRET, now);
      expect(() => gateway().parseEvent(signed, header, now)).toThrow(Invalid);
    }
  });
});
