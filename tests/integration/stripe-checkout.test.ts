import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import type { DatabaseHandle } from '#db/client.ts';
import { offerings } from '#db/schema/catalog.ts';
import { orders, payments } from '#db/schema/commerce.ts';
import { analyticsEvents } from '#db/schema/events.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import { StripeGateway, type StripeSettings } from '#domain/commerce/stripe-gateway.ts';
import type { WebContext } from '#server/load-context.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { type StripeStandIn, startStripeStandIn } from '#tests/stripe-stand-in.ts';
import { action as checkoutAction, loader as checkoutLoader } from '#web/commerce/checkout.tsx';
import { loader as returnLoader } from '#web/commerce/checkout-return.tsx';

// Issue 4, paying through Stripe.js (decision 007): the browser confirms a payment with
// Stripe, then the server reads it back from Stripe and settles it — the wallet's resume call,
// the checkout's start and resume steps, and the return address Stripe sends shoppers back to
// after a bank's page. A local stand-in plays Stripe's API; nothing reaches the internet.

let database: DatabaseHandle;
let stripe: StripeStandIn;
let settings: StripeSettings;
beforeAll(async () => {
  database = await openTestDatabase();
  stripe = await startStripeStandIn();
  settings = {
    secretKey: 'sk_test_51StripeJs000000000000000000000000',
    webhookSecret: 'whsec_stripejs_1c3e5a7b9d2f4a6c8e0b2d4f6a8c0e1f',
    publishableKey: 'pk_test_51StripeJs000000000000000000000000',
    apiBase: stripe.base,
  };
});
afterAll(async () => {
  await stripe?.close();
  await database?.close();
});
beforeEach(() => {
  stripe.calls.length = 0;
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function shopper(): Promise<SessionUser> {
  const userId = await createUser(database.db, {
    email: `${unique('stripejs')}@example.test`,
    password: 'pw-123456',
    firstName: 'S',
    lastName: 'J',
  });
  return (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
}

/** The web context of a process where Stripe takes payments. */
function stripeContext(user: SessionUser | null, locale: 'en' | 'fr-CA' = 'en'): WebContext {
  return {
    ...testWebContext(database, { user, locale }),
    gateway: new StripeGateway(settings),
    browserPayments: { gateway: 'stripe', publishableKey: settings.publishableKey },
  };
}

async function digitalOffering(priceCents = 2500): Promise<number> {
  const productId = await insertProduct(database.db, {}, { priceCents });
  const [row] = await database.db
    .select({ id: offerings.id })
    .from(offerings)
    .where(eq(offerings.productId, productId));
  return row!.id;
}

async function physicalOffering(): Promise<number> {
  const productId = await insertProduct(database.db, {}, { priceCents: null });
  const [row] = await database.db
    .insert(offerings)
    .values({ productId, type: 'physical', bookType: 'print', priceCents: 4000, stock: 5 })
    .returning({ id: offerings.id });
  return row!.id;
}

async function orderState(orderId: string) {
  const [order] = await database.db
    .select({ status: orders.status, userId: orders.userId })
    .from(orders)
    .where(eq(orders.id, orderId));
  const rows = await database.db
    .select({ gateway: payments.gateway, ref: payments.gatewayRef, status: payments.status })
    .from(payments)
    .where(eq(payments.orderId, orderId));
  return { status: order?.status, payments: rows };
}

const refOf = async (orderId: string) => (await orderState(orderId)).payments[0]!.ref;

describe('POST /api/payments/{orderId}/resume: the wallet after Stripe.js confirmed', () => {
  const post = (context: WebContext, path: string, body?: unknown) =>
    handleApiRequest(
      new Request(`http://127.0.0.1${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? null : JSON.stringify(body),
      }),
      context,
    );
  const create = async (context: WebContext, offeringId: number) => {
    const response = await post(context, '/api/payments', {
      data: { type: 'payment', attributes: { offeringId, idempotencyKey: unique('wallet') } },
    });
    expect(response.status).toBe(201);
    return (await response.json()) as {
      data: { id: string; attributes: { amount: number; clientSecret: string } };
    };
  };

  it('spec 1 §4 Wallet payment: create, Stripe.js confirms, resume pays and fulfils once', async () => {
    const user = await shopper();
    const context = stripeContext(user);
    const offeringId = await digitalOffering(2500);
    const { data } = await create(context, offeringId);
    const ref = await refOf(data.id);
    // The browser gets the secret of the payment made at Stripe for this order.
    expect(data.attributes).toMatchObject({ amount: 2500, clientSecret: `${ref}_secret_standin` });
    expect(stripe.intents.get(ref)).toMatchObject({ amount: 2500, orderId: data.id });
    stripe.confirmInBrowser(ref, 'succeeded');
    const resumed = await post(context, `/api/payments/${data.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(await resumed.json()).toEqual({
      data: {
        type: 'payment',
        id: data.id,
        attributes: { status: 'succeeded', redirect: `/checkout/complete/${data.id}` },
      },
    });
    expect(await orderState(data.id)).toEqual({
      status: 'fulfilled',
      payments: [{ gateway: 'stripe', ref, status: 'succeeded' }],
    });
    // Read back from Stripe, not taken from the browser: one GET of that payment.
    expect(stripe.calls.filter((call) => call.method === 'GET')).toEqual([
      { method: 'GET', path: `/v1/payment_intents/${ref}`, idempotencyKey: null },
    ]);
    // A second resume (a double click, a retried request) is simply paid; one ownership.
    expect((await post(context, `/api/payments/${data.id}/resume`)).status).toBe(200);
    const owned = await database.db.select().from(ownerships).where(eq(ownerships.userId, user.id));
    expect(owned).toHaveLength(1);
  });

  it('a declined wallet: 402 with the reason in the shopper’s language and a payment_failed event', async () => {
    const user = await shopper();
    const offeringId = await digitalOffering();
    const { data } = await create(stripeContext(user), offeringId);
    stripe.confirmInBrowser(await refOf(data.id), 'declined');
    const declined = await post(stripeContext(user, 'fr-CA'), `/api/payments/${data.id}/resume`);
    expect(declined.status).toBe(402);
    expect(await declined.json()).toEqual({
      errors: [
        {
          status: '402',
          code: 'checkout.error.card_declined',
          detail: 'Votre carte a été refusée.',
        },
      ],
    });
    const events = await database.db
      .select({ props: analyticsEvents.props })
      .from(analyticsEvents)
      .where(and(eq(analyticsEvents.name, 'payment_failed'), eq(analyticsEvents.userId, user.id)));
    expect(events).toEqual([
      { props: { method: 'wallet', step: 'resume', reason: 'card_declined' } },
    ]);
    // Nothing was paid; the shopper may try again, or close the wallet (cancel).
    expect((await orderState(data.id)).status).toBe('pending');
    expect((await post(stripeContext(user), `/api/payments/${data.id}/cancel`)).status).toBe(204);
    expect(await orderState(data.id)).toMatchObject({
      status: 'canceled',
      payments: [{ status: 'canceled' }],
    });
  });

  it('an unfinished bank check is a failure in words, not a success', async () => {
    const user = await shopper();
    const { data } = await create(stripeContext(user), await digitalOffering());
    stripe.confirmInBrowser(await refOf(data.id), 'requires_action');
    const response = await post(stripeContext(user), `/api/payments/${data.id}/resume`);
    expect(response.status).toBe(402);
    expect(((await response.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe(
      'checkout.error.requires_action',
    );
    expect((await orderState(data.id)).status).toBe('pending');
  });

  it('another shopper’s order and a malformed id are not found; a visitor must log in', async () => {
    const owner = await shopper();
    const { data } = await create(stripeContext(owner), await digitalOffering());
    stripe.confirmInBrowser(await refOf(data.id), 'succeeded');
    const stranger = stripeContext(await shopper());
    expect((await post(stranger, `/api/payments/${data.id}/resume`)).status).toBe(404);
    expect((await post(stranger, '/api/payments/not-a-uuid/resume')).status).toBe(404);
    expect((await post(stripeContext(null), `/api/payments/${data.id}/resume`)).status).toBe(403);
    // None of them settled the owner's payment.
    expect((await orderState(data.id)).status).toBe('pending');
  });

  it('with the test gateway, resume reads its payment back the same way', async () => {
    const user = await shopper();
    const context = testWebContext(database, { user });
    const { data } = await create(context, await digitalOffering());
    const response = await post(context, `/api/payments/${data.id}/resume`);
    // Nothing confirmed it yet: not paid, said in words.
    expect(response.status).toBe(402);
    expect((await orderState(data.id)).status).toBe('pending');
  });
});

type ActionResult = {
  error?: string;
  fields?: string[];
  started?: { orderId: string; clientSecret: string };
};

/** What a route module answered: a redirect, or data with a status. */
async function answerOf(run: () => Promise<unknown>) {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    value = thrown;
  }
  if (value instanceof Response) {
    return { status: value.status, location: value.headers.get('Location'), data: null };
  }
  const init = (value as { init?: { status?: number } | null }).init;
  return {
    status: init?.status ?? 200,
    location: null,
    data: (value as { data: unknown }).data as ActionResult | null,
  };
}

const CHECKOUT = 'http://localhost/checkout/';

function submit(context: WebContext, fields: Record<string, string>) {
  return answerOf(() =>
    checkoutAction({
      request: new Request(CHECKOUT, { method: 'POST', body: new URLSearchParams(fields) }),
      context,
      params: {},
    } as unknown as Parameters<typeof checkoutAction>[0]),
  );
}

async function cartOf(user: SessionUser, offeringId: number) {
  await putInCart(testContext(database.db, { user }), { userId: user.id }, { offeringId });
}

describe('the checkout with Stripe (spec 1 §2 Checkout)', () => {
  it('the page hands the browser the publishable key with Stripe, nothing with the test gateway', async () => {
    const user = await shopper();
    await cartOf(user, await digitalOffering());
    const load = (context: WebContext, url = CHECKOUT) =>
      checkoutLoader({
        request: new Request(url),
        context,
        params: {},
      } as unknown as Parameters<typeof checkoutLoader>[0]);
    expect(await load(stripeContext(user))).toMatchObject({
      payments: { gateway: 'stripe', publishableKey: settings.publishableKey },
      paymentError: null,
    });
    const test = await load(testWebContext(database, { user }));
    expect(test.payments).toEqual({ gateway: 'test' });
    // A failure reported by the return address, by name only: unknown text is not shown.
    expect(
      (await load(stripeContext(user), `${CHECKOUT}?payment_error=card_declined`)).paymentError,
    ).toBe('checkout.error.card_declined');
    expect(
      (await load(stripeContext(user), `${CHECKOUT}?payment_error=%3Cb%3Ehi`)).paymentError,
    ).toBeNull();
  });

  it('start places the order and answers the client secret of its payment; again is the same', async () => {
    const user = await shopper();
    await cartOf(user, await digitalOffering(1999));
    const key = unique('start');
    const first = await submit(stripeContext(user), { intent: 'start', key });
    expect(first.status).toBe(200);
    const started = first.data!.started!;
    expect(started.orderId).toMatch(UUID);
    const ref = await refOf(started.orderId);
    expect(started.clientSecret).toBe(`${ref}_secret_standin`);
    expect(stripe.intents.get(ref)).toMatchObject({ amount: 1999, orderId: started.orderId });
    // A refresh or a second click: the same order and the same payment, none made twice.
    const again = await submit(stripeContext(user), { intent: 'start', key });
    expect(again.data?.started).toEqual(started);
    expect(
      stripe.calls.filter((call) => call.method === 'POST' && call.path === '/v1/payment_intents'),
    ).toHaveLength(1);
    const placed = await database.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(placed).toHaveLength(1);
    expect(await orderState(started.orderId)).toMatchObject({
      status: 'pending',
      payments: [{ gateway: 'stripe', ref, status: 'requires_payment_method' }],
    });
  });

  it('start needs the shipping address of a posted item; nothing is placed without it', async () => {
    const user = await shopper();
    await cartOf(user, await physicalOffering());
    const refused = await submit(stripeContext(user), { intent: 'start', key: unique('addr') });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ error: 'checkout.error.address' });
    expect(await database.db.select().from(orders).where(eq(orders.userId, user.id))).toEqual([]);
    expect(stripe.calls).toEqual([]);
    const placed = await submit(stripeContext(user), {
      intent: 'start',
      key: unique('addr'),
      name: 'Sam Reader',
      line1: '1 Campus Way',
      city: 'Northfield',
      region: 'MN',
      postalCode: '55057',
      country: 'US',
    });
    expect(placed.data?.started?.orderId).toMatch(UUID);
  });

  it('with Stripe a card form is refused before anything is placed or sent (PCI DSS)', async () => {
    const user = await shopper();
    await cartOf(user, await digitalOffering());
    const refused = await submit(stripeContext(user), {
      key: unique('card'),
      number: '4242 4242 4242 4242',
      expiry: '12/30',
      cvc: '123',
    });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ error: 'checkout.error.form' });
    expect(await database.db.select().from(orders).where(eq(orders.userId, user.id))).toEqual([]);
    expect(stripe.calls).toEqual([]);
  });

  it('resume after Stripe.js: a decline says why; paid goes on to the order-complete page', async () => {
    const user = await shopper();
    await cartOf(user, await digitalOffering());
    const key = unique('resume');
    const { orderId } = (await submit(stripeContext(user), { intent: 'start', key })).data!
      .started!;
    const ref = await refOf(orderId);
    stripe.confirmInBrowser(ref, 'declined');
    const declined = await submit(stripeContext(user), { intent: 'resume', orderId });
    expect(declined).toMatchObject({
      status: 402,
      data: { error: 'checkout.error.card_declined' },
    });
    stripe.confirmInBrowser(ref, 'succeeded');
    expect(await submit(stripeContext(user), { intent: 'resume', orderId })).toEqual({
      status: 302,
      location: `/checkout/complete/${orderId}`,
      data: null,
    });
    expect((await orderState(orderId)).status).toBe('fulfilled');
    // Start again with the same key (another tab): the order is paid, so the complete page.
    await cartOf(user, await digitalOffering());
    const later = await submit(stripeContext(user), { intent: 'start', key });
    expect(later).toMatchObject({ status: 302, location: `/checkout/complete/${orderId}` });
  });

  it('resume of another shopper’s order is not found', async () => {
    const owner = await shopper();
    await cartOf(owner, await digitalOffering());
    const { orderId } = (await submit(stripeContext(owner), { intent: 'start', key: unique('x') }))
      .data!.started!;
    const stranger = stripeContext(await shopper());
    expect((await submit(stranger, { intent: 'resume', orderId })).status).toBe(404);
    expect((await submit(stranger, { intent: 'resume', orderId: 'nope' })).status).toBe(404);
  });
});

describe('/checkout/return/{orderId}: back from a bank’s page', () => {
  const visit = (context: WebContext, orderId: string) =>
    answerOf(() =>
      returnLoader({
        request: new Request(
          `http://localhost/checkout/return/${orderId}?payment_intent=pi_forged&redirect_status=succeeded`,
        ),
        context,
        params: { orderId },
      } as unknown as Parameters<typeof returnLoader>[0]),
    );

  async function started(user: SessionUser) {
    await cartOf(user, await digitalOffering());
    const { orderId } = (await submit(stripeContext(user), { intent: 'start', key: unique('r') }))
      .data!.started!;
    return { orderId, ref: await refOf(orderId) };
  }

  it('Stripe’s query says succeeded but Stripe does not: back to the checkout with the reason', async () => {
    const user = await shopper();
    const { orderId, ref } = await started(user);
    stripe.confirmInBrowser(ref, 'declined');
    expect(await visit(stripeContext(user), orderId)).toEqual({
      status: 302,
      location: '/checkout/?payment_error=card_declined',
      data: null,
    });
    expect((await orderState(orderId)).status).toBe('pending');
  });

  it('paid at Stripe: settled, then the order-complete page', async () => {
    const user = await shopper();
    const { orderId, ref } = await started(user);
    stripe.confirmInBrowser(ref, 'succeeded');
    expect(await visit(stripeContext(user), orderId)).toEqual({
      status: 302,
      location: `/checkout/complete/${orderId}`,
      data: null,
    });
    expect((await orderState(orderId)).status).toBe('fulfilled');
  });

  it('owner only: another shopper’s order or a malformed id is 404; a visitor logs in first', async () => {
    const owner = await shopper();
    const { orderId, ref } = await started(owner);
    stripe.confirmInBrowser(ref, 'succeeded');
    const stranger = stripeContext(await shopper());
    expect((await visit(stranger, orderId)).status).toBe(404);
    expect((await visit(stranger, 'not-an-order')).status).toBe(404);
    expect((await visit(stranger, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const visitor = await visit(stripeContext(null), orderId);
    expect(visitor.status).toBe(302);
    expect(visitor.location).toBe(
      `/accounts/login/?next=${encodeURIComponent(`/checkout/return/${orderId}?payment_intent=pi_forged&redirect_status=succeeded`)}`,
    );
    // Nobody but the owner settled it.
    expect((await orderState(orderId)).status).toBe('pending');
  });
});
