import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { offerings } from '#db/schema/catalog.ts';
import { orders, paymentEvents, payments } from '#db/schema/commerce.ts';
import { outbox } from '#db/schema/events.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import { applyGatewayEvent } from '#domain/commerce/payment-events.ts';
import { StripeGateway, type StripeSettings } from '#domain/commerce/stripe-gateway.ts';
import { stripeSignatureHeader } from '#domain/commerce/stripe-signature.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import type { WebContext } from '#server/load-context.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';

// Issue 4, Stripe webhooks: Stripe tells the store what became of a payment, maybe several
// times and out of order. Each event is applied once; a success pays and fulfils the order
// once; nothing unsigned changes anything.
let database: DatabaseHandle;
beforeAll(async () => {
  database = process.env.DATABASE_URL
    ? await openDatabase({ url: process.env.DATABASE_URL, poolSize: 20 })
    : await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const stripe: StripeSettings = {
  secretKey: 'sk_test_51Webhooks00000000000000000000000',
  webhookSecret: 'whsec_webhooks_8a2c4e6f8b0d2f4a6c8e0b2d4f6a8c0e',
  publishableKey: 'pk_test_51Webhooks00000000000000000000000',
  // Never called here: a webhook only needs the signing secret.
  apiBase: 'http://127.0.0.1:9',
};
const WEBHOOK = 'http://localhost/api/payments/webhooks/stripe';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/stripe/${name}`, import.meta.url), 'utf8'));

type Checkout = { ctx: RequestContext; orderId: string; ref: string; totalCents: number };

/** A shopper's pending order and its Stripe payment, recorded as the checkout records it. */
async function checkoutWithStripe(priceCents = 2500): Promise<Checkout> {
  const userId = await createUser(database.db, {
    email: `${unique('hook')}@example.test`,
    password: 'pw-123456',
    firstName: 'W',
    lastName: 'H',
  });
  const user = (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
  const ctx = testContext(database.db, { user });
  const productId = await insertProduct(ctx.db, {}, { priceCents });
  const [offer] = await ctx.db
    .select({ id: offerings.id })
    .from(offerings)
    .where(eq(offerings.productId, productId));
  await putInCart(ctx, { userId }, { offeringId: offer!.id });
  const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('checkout') });
  const [order] = await ctx.db
    .select({ totalCents: orders.totalCents })
    .from(orders)
    .where(eq(orders.id, orderId));
  const ref = `pi_${unique('wh').replace(/-/g, '')}`;
  await ctx.db.insert(payments).values({
    orderId,
    gateway: 'stripe',
    gatewayRef: ref,
    status: 'requires_payment_method',
    amountCents: order!.totalCents,
  });
  return { ctx, orderId, ref, totalCents: order!.totalCents };
}

/** A Stripe event from the recorded fixtures, about this checkout's payment. */
function eventFor(
  checkout: Checkout,
  fixtureName: string,
  overrides: { orderId?: string | null; amount?: number } = {},
): string {
  const event = fixture(fixtureName);
  event.id = `evt_${unique('e').replace(/-/g, '')}`;
  const intent = event.data.object;
  intent.id = checkout.ref;
  intent.client_secret = `${checkout.ref}_secret_test`;
  intent.amount = overrides.amount ?? checkout.totalCents;
  intent.metadata =
    overrides.orderId === null ? {} : { order_id: overrides.orderId ?? checkout.orderId };
  return JSON.stringify(event);
}

function webContext(overrides: Partial<WebContext> = {}, locale: 'en' | 'fr-CA' = 'en') {
  return {
    ...testWebContext(database, { locale }),
    gateway: new StripeGateway(stripe),
    ...overrides,
  };
}

function deliver(
  body: string,
  signature: string | null = stripeSignatureHeader(body, stripe.webhookSecret, new Date()),
  context: WebContext = webContext(),
): Promise<Response> {
  const headers = new Headers({ 'Content-Type': 'application/json; charset=utf-8' });
  if (signature !== null) headers.set('Stripe-Signature', signature);
  return handleApiRequest(new Request(WEBHOOK, { method: 'POST', body, headers }), context);
}

/** What the store holds about one checkout: every table a webhook may write. */
async function stateOf({ ctx, orderId }: Checkout) {
  const [order] = await ctx.db
    .select({ status: orders.status })
    .from(orders)
    .where(eq(orders.id, orderId));
  return {
    order: order!.status,
    payments: await ctx.db
      .select({ ref: payments.gatewayRef, status: payments.status, failure: payments.failure })
      .from(payments)
      .where(eq(payments.orderId, orderId)),
    ownerships: (await ctx.db.select().from(ownerships).where(eq(ownerships.userId, ctx.user!.id)))
      .length,
    mails: (
      await ctx.db
        .select()
        .from(outbox)
        .where(eq(outbox.dedupeKey, `order-confirmation:${orderId}`))
    ).length,
  };
}

const gateway = new StripeGateway(stripe);
const parsed = (body: string) =>
  gateway.parseEvent(
    body,
    stripeSignatureHeader(body, stripe.webhookSecret, new Date()),
    new Date(),
  );

describe('issue 4: Stripe webhooks through POST /api/payments/webhooks/stripe', () => {
  it('payment_intent.succeeded delivered three times, then a late payment_failed: fulfilled once', async () => {
    const checkout = await checkoutWithStripe();
    const succeeded = eventFor(checkout, 'event-payment-intent-succeeded.json');
    const failed = eventFor(checkout, 'event-payment-intent-payment-failed.json');
    for (const body of [succeeded, succeeded, succeeded, failed]) {
      const response = await deliver(body);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ meta: { received: true } });
    }
    expect(await stateOf(checkout)).toEqual({
      order: 'fulfilled',
      payments: [{ ref: checkout.ref, status: 'succeeded', failure: null }],
      ownerships: 1,
      mails: 1,
    });
    const events = await checkout.ctx.db
      .select({ type: paymentEvents.type })
      .from(paymentEvents)
      .where(
        and(
          eq(paymentEvents.gateway, 'stripe'),
          eq(paymentEvents.eventId, JSON.parse(succeeded).id),
        ),
      );
    expect(events).toEqual([{ type: 'payment_intent.succeeded' }]);
  });

  it('the same event delivered five times at once grants and mails once', async () => {
    const checkout = await checkoutWithStripe();
    const succeeded = eventFor(checkout, 'event-payment-intent-succeeded.json');
    const responses = await Promise.all(Array.from({ length: 5 }, () => deliver(succeeded)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await stateOf(checkout)).toMatchObject({
      order: 'fulfilled',
      payments: [{ status: 'succeeded' }],
      ownerships: 1,
      mails: 1,
    });
  });

  it('a forged, stale or missing signature is answered 400 in the shopper’s language and changes nothing', async () => {
    const checkout = await checkoutWithStripe();
    const body = eventFor(checkout, 'event-payment-intent-succeeded.json');
    const before = await stateOf(checkout);
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    const refusals = [
      stripeSignatureHeader(body, 'whsec_forged_by_someone_else', new Date()),
      stripeSignatureHeader(body, stripe.webhookSecret, tenMinutesAgo),
      null,
    ];
    for (const signature of refusals) {
      const response = await deliver(body, signature);
      expect(response.status).toBe(400);
      expect((await response.json()).errors[0]).toEqual({
        status: '400',
        code: 'webhook.error.signature',
        detail: 'The webhook signature is missing, not valid or too old.',
      });
    }
    // The right signature over another body (the amount changed on the way) is forged too.
    const tampered = body.replace(`"amount":${checkout.totalCents}`, '"amount":1');
    const response = await deliver(
      tampered,
      stripeSignatureHeader(body, stripe.webhookSecret, new Date()),
    );
    expect(response.status).toBe(400);
    const french = await deliver(body, null, webContext({}, 'fr-CA'));
    expect((await french.json()).errors[0].detail).toBe(
      'La signature du webhook est absente, invalide ou trop ancienne.',
    );
    expect(await stateOf(checkout)).toEqual(before);
    expect(before).toMatchObject({ order: 'pending', ownerships: 0, mails: 0 });
    const recorded = await checkout.ctx.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, JSON.parse(body).id));
    expect(recorded).toEqual([]);
  });

  it('a body over 1 MB is refused with 400 before it is read further', async () => {
    const response = await deliver(`{"pad":"${'x'.repeat(1_000_001)}"}`, 't=1,v1=00');
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0].code).toBe('error.tooLarge');
  });

  it('without Stripe configured the endpoint is not there (404), and it only takes POST', async () => {
    const checkout = await checkoutWithStripe();
    const body = eventFor(checkout, 'event-payment-intent-succeeded.json');
    expect(
      (await deliver(body, undefined, webContext({ gateway: new TestGateway(database.db) })))
        .status,
    ).toBe(404);
    const get = await handleApiRequest(new Request(WEBHOOK), webContext());
    expect(get.status).toBe(405);
    expect((await stateOf(checkout)).order).toBe('pending');
  });
});

describe('issue 4: applying Stripe events to orders', () => {
  it('each event id is applied once: later deliveries are duplicates', async () => {
    const checkout = await checkoutWithStripe();
    const event = parsed(eventFor(checkout, 'event-payment-intent-succeeded.json'));
    const apply = () => applyGatewayEvent(database.db, 'stripe', event, new Date());
    expect([await apply(), await apply(), await apply()]).toEqual([
      'applied',
      'duplicate',
      'duplicate',
    ]);
  });

  it('a failure before any success records why; the order waits for another card', async () => {
    const checkout = await checkoutWithStripe();
    const failed = parsed(eventFor(checkout, 'event-payment-intent-payment-failed.json'));
    expect(await applyGatewayEvent(database.db, 'stripe', failed, new Date())).toBe('applied');
    expect(await stateOf(checkout)).toEqual({
      order: 'pending',
      payments: [
        { ref: checkout.ref, status: 'requires_payment_method', failure: 'card_declined' },
      ],
      ownerships: 0,
      mails: 0,
    });
  });

  it('payment_intent.canceled cancels the pending order; a late failure leaves it canceled', async () => {
    const checkout = await checkoutWithStripe();
    const canceled = parsed(eventFor(checkout, 'event-payment-intent-canceled.json'));
    const failed = parsed(eventFor(checkout, 'event-payment-intent-payment-failed.json'));
    expect(await applyGatewayEvent(database.db, 'stripe', canceled, new Date())).toBe('applied');
    expect(await applyGatewayEvent(database.db, 'stripe', failed, new Date())).toBe('applied');
    expect(await stateOf(checkout)).toEqual({
      order: 'canceled',
      payments: [{ ref: checkout.ref, status: 'canceled', failure: null }],
      ownerships: 0,
      mails: 0,
    });
  });

  it('a canceled attempt does not cancel an order whose newer attempt is still open', async () => {
    const checkout = await checkoutWithStripe();
    await checkout.ctx.db.insert(payments).values({
      orderId: checkout.orderId,
      gateway: 'stripe',
      gatewayRef: `${checkout.ref}_retry`,
      status: 'requires_payment_method',
      amountCents: checkout.totalCents,
    });
    const canceled = parsed(eventFor(checkout, 'event-payment-intent-canceled.json'));
    expect(await applyGatewayEvent(database.db, 'stripe', canceled, new Date())).toBe('applied');
    expect((await stateOf(checkout)).order).toBe('pending');
  });

  it('events about no order of ours, or about other objects, are recorded and ignored', async () => {
    const checkout = await checkoutWithStripe();
    const bodies = [
      eventFor(checkout, 'event-payment-intent-succeeded.json', { orderId: null }),
      eventFor(checkout, 'event-payment-intent-succeeded.json', { orderId: 'not-a-uuid' }),
      eventFor(checkout, 'event-payment-intent-succeeded.json', {
        orderId: '00000000-0000-4000-8000-000000000000',
      }),
    ];
    const other = JSON.parse(eventFor(checkout, 'event-payment-intent-succeeded.json'));
    bodies.push(
      JSON.stringify({
        ...other,
        type: 'charge.succeeded',
        data: { object: { id: 'ch_1', object: 'charge' } },
      }),
      JSON.stringify({
        ...JSON.parse(bodies[0]!),
        id: `${other.id}_processing`,
        type: 'payment_intent.processing',
      }),
    );
    for (const body of bodies) {
      expect(await applyGatewayEvent(database.db, 'stripe', parsed(body), new Date())).toBe(
        'ignored',
      );
    }
    const recorded = await checkout.ctx.db
      .select({ type: paymentEvents.type })
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, other.id));
    expect(recorded).toEqual([{ type: 'charge.succeeded' }]);
    expect(await stateOf(checkout)).toMatchObject({ order: 'pending', ownerships: 0, mails: 0 });
  });

  it('money taken for a canceled order or for the wrong amount is a conflict: recorded, nothing sold', async () => {
    const checkout = await checkoutWithStripe();
    const wrongAmount = parsed(
      eventFor(checkout, 'event-payment-intent-succeeded.json', {
        amount: checkout.totalCents - 1,
      }),
    );
    expect(await applyGatewayEvent(database.db, 'stripe', wrongAmount, new Date())).toBe(
      'conflict',
    );
    // The shopper gave up (canceled) before Stripe's success arrived.
    await checkout.ctx.db
      .update(orders)
      .set({ status: 'canceled' })
      .where(eq(orders.id, checkout.orderId));
    const late = eventFor(checkout, 'event-payment-intent-succeeded.json');
    expect(await applyGatewayEvent(database.db, 'stripe', parsed(late), new Date())).toBe(
      'conflict',
    );
    // Through HTTP too: Stripe is told it was received, so it stops retrying.
    const redelivered = eventFor(checkout, 'event-payment-intent-succeeded.json');
    expect((await deliver(redelivered)).status).toBe(200);
    expect(await stateOf(checkout)).toEqual({
      order: 'canceled',
      payments: [{ ref: checkout.ref, status: 'requires_payment_method', failure: null }],
      ownerships: 0,
      mails: 0,
    });
    const recorded = await checkout.ctx.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.eventId, JSON.parse(late).id));
    expect(recorded).toHaveLength(1);
  });
});
