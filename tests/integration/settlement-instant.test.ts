import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import {
  orders,
  orderTransitions,
  paymentEvents,
  payments,
  shipments,
} from '#db/schema/commerce.ts';
import { outbox } from '#db/schema/events.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import { payOrder } from '#domain/commerce/checkout.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import type { PaymentGateway } from '#domain/commerce/payment-gateway.ts';
import { reconcilePayments } from '#domain/commerce/payment-recovery.ts';
import { StripeGateway, type StripeSettings } from '#domain/commerce/stripe-gateway.ts';
import { stripeSignatureHeader } from '#domain/commerce/stripe-signature.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';

// Issue 40, "Mail and money keep up": `paid_at` is when the payment settled, not when the
// request began, and the rows one settlement writes read one clock once (decision 041). The
// clock here ticks a millisecond at every reading, so a second reading inside the transaction
// would show as a row a millisecond off.
let database: DatabaseHandle;
let bank: TestGateway;
beforeAll(async () => {
  database = process.env.DATABASE_URL
    ? await openDatabase({ url: process.env.DATABASE_URL, poolSize: 10 })
    : await openTestDatabase();
  bank = new TestGateway(database.db);
});
afterAll(async () => {
  await database?.close();
});

/** When the request began, and how long it waited (for the pool, for the bank) before the answer. */
const REQUEST_START = new Date('2026-12-07T15:00:00.000Z');
const WAITED_MS = 7_250;
const SETTLED = new Date(REQUEST_START.getTime() + WAITED_MS);

/** A clock the test moves; each reading moves it on a millisecond. */
function tickingClock(start: Date) {
  let at = start.getTime();
  return {
    read: () => {
      const reading = new Date(at);
      at += 1;
      return reading;
    },
    set: (to: Date) => {
      at = to.getTime();
    },
  };
}

/** The test bank, answering only once the clock has reached SETTLED. */
function slowBank(clock: ReturnType<typeof tickingClock>, answer: 'confirm' | 'retrieve') {
  const late = <T>(call: Promise<T>) =>
    call.then((result) => {
      clock.set(SETTLED);
      return result;
    });
  return {
    name: bank.name,
    supportsWallet: bank.supportsWallet,
    createPayment: (input) => bank.createPayment(input),
    confirmPayment: (input) =>
      answer === 'confirm' ? late(bank.confirmPayment(input)) : bank.confirmPayment(input),
    retrievePayment: (ref) =>
      answer === 'retrieve' ? late(bank.retrievePayment(ref)) : bank.retrievePayment(ref),
    cancelPayment: (ref) => bank.cancelPayment(ref),
    refundPayment: (ref) => bank.refundPayment(ref),
    refundAmount: (input) => bank.refundAmount(input),
    parseEvent: () => bank.parseEvent(),
  } satisfies PaymentGateway;
}

const ADDRESS = {
  name: 'Sam Reader',
  line1: '1 Campus Way',
  line2: '',
  city: 'Northfield',
  region: 'MN',
  postalCode: '55057',
  country: 'US' as const,
};
const card = {
  kind: 'card' as const,
  card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
};

async function offering(values: { type: string; bookType: string }) {
  const productId = await insertProduct(
    database.db,
    { title: unique('Title') },
    { priceCents: null },
  );
  const [row] = await database.db
    .insert(offerings)
    .values({ productId, priceCents: 2500, ...values })
    .returning({ id: offerings.id });
  return row!.id;
}

/** A buyer whose request began at REQUEST_START, with an ebook and a posted book in the cart. */
async function buyerWithCart(
  clock: ReturnType<typeof tickingClock>,
): Promise<{ ctx: RequestContext; orderId: string }> {
  const [row] = await database.db
    .insert(users)
    .values({ email: `${unique('buyer')}@example.test`, firstName: 'Robin' })
    .returning({ id: users.id });
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  const ctx = testContext(database.db, { user, now: REQUEST_START, clock: clock.read });
  for (const values of [
    { type: 'digital', bookType: 'digital' },
    { type: 'physical', bookType: 'print' },
  ]) {
    await putInCart(ctx, { userId: user.id }, { offeringId: await offering(values) });
  }
  const { orderId } = await placeOrder(ctx, {
    idempotencyKey: unique('key'),
    shippingAddress: ADDRESS,
  });
  return { ctx, orderId };
}

/** Every time the settlement of one order wrote, by the row it wrote it on. */
async function settlementTimes(orderId: string, userId: number) {
  const [order] = await database.db
    .select({ status: orders.status, paidAt: orders.paidAt })
    .from(orders)
    .where(eq(orders.id, orderId));
  const [payment] = await database.db
    .select({ updatedAt: payments.updatedAt })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'succeeded')));
  const [paidMove] = await database.db
    .select({ at: orderTransitions.at })
    .from(orderTransitions)
    .where(and(eq(orderTransitions.orderId, orderId), eq(orderTransitions.toStatus, 'paid')));
  const [owned] = await database.db
    .select({ startsAt: ownerships.startsAt, createdAt: ownerships.createdAt })
    .from(ownerships)
    .where(and(eq(ownerships.orderId, orderId), eq(ownerships.userId, userId)));
  const [shipment] = await database.db
    .select({ createdAt: shipments.createdAt })
    .from(shipments)
    .where(eq(shipments.orderId, orderId));
  const [mail] = await database.db
    .select({ createdAt: outbox.createdAt, availableAt: outbox.availableAt })
    .from(outbox)
    .where(eq(outbox.dedupeKey, `order-confirmation:${orderId}`));
  return {
    status: order?.status,
    paidAt: order?.paidAt,
    paymentUpdatedAt: payment?.updatedAt,
    paidMoveAt: paidMove?.at,
    ownershipStartsAt: owned?.startsAt,
    ownershipCreatedAt: owned?.createdAt,
    shipmentCreatedAt: shipment?.createdAt,
    mailCreatedAt: mail?.createdAt,
    mailAvailableAt: mail?.availableAt,
  };
}

/** What a settlement at `at` leaves: every row of its transaction carries that one instant. */
const allAt = (at: Date) => ({
  status: 'paid',
  paidAt: at,
  paymentUpdatedAt: at,
  paidMoveAt: at,
  ownershipStartsAt: at,
  ownershipCreatedAt: at,
  shipmentCreatedAt: at,
  mailCreatedAt: at,
  mailAvailableAt: at,
});

describe('issue 40: paid_at is when the payment settled (decision 041)', () => {
  it('a Pay press that waited 7 s for the bank is paid when the bank answered, in every row', async () => {
    const clock = tickingClock(REQUEST_START);
    const { ctx, orderId } = await buyerWithCart(clock);
    expect(await payOrder(ctx, slowBank(clock, 'confirm'), { orderId, method: card })).toEqual({
      ok: true,
    });
    const times = await settlementTimes(orderId, ctx.user!.id);
    expect(times).toEqual(allAt(SETTLED));
    expect(times.paidAt).not.toEqual(REQUEST_START);
  });

  it('a charge found by the reconciler is paid when the bank told it so, not when the round began', async () => {
    const clock = tickingClock(REQUEST_START);
    const { ctx, orderId } = await buyerWithCart(clock);
    // The bank said yes, then the process died before recording it (issue 37).
    const [order] = await database.db
      .select({ totalCents: orders.totalCents })
      .from(orders)
      .where(eq(orders.id, orderId));
    const created = await bank.createPayment({
      amountCents: order!.totalCents,
      currencyCode: 'USD',
      orderId,
      idempotencyKey: `${orderId}:0`,
    });
    await database.db.insert(payments).values({
      orderId,
      gateway: 'test',
      gatewayRef: created.ref,
      status: created.status,
      amountCents: created.amountCents,
    });
    await bank.confirmPayment({
      ref: created.ref,
      method: card,
      idempotencyKey: unique('confirm'),
      now: REQUEST_START,
    });
    const report = await reconcilePayments(database.db, slowBank(clock, 'retrieve'), clock.read, {
      userId: ctx.user!.id,
    });
    expect(report.settled).toEqual([orderId]);
    expect(await settlementTimes(orderId, ctx.user!.id)).toEqual(allAt(SETTLED));
  });

  it('a Stripe webhook is applied as of when its signed event was in hand, recorded at the same instant', async () => {
    const stripe: StripeSettings = {
      secretKey: 'sk_test_51Instant000000000000000000000000',
      webhookSecret: 'whsec_instant_3b5d7f9a1c3e5a7c9e1b3d5f7a9c1e3b',
      publishableKey: 'pk_test_51Instant000000000000000000000000',
      apiBase: 'http://127.0.0.1:9',
    };
    // The request began at REQUEST_START; its handler reads the clock once it has the body.
    const clock = tickingClock(SETTLED);
    const { ctx, orderId } = await buyerWithCart(clock);
    const [order] = await database.db
      .select({ totalCents: orders.totalCents })
      .from(orders)
      .where(eq(orders.id, orderId));
    const ref = `pi_${unique('instant').replace(/-/g, '')}`;
    await database.db.insert(payments).values({
      orderId,
      gateway: 'stripe',
      gatewayRef: ref,
      status: 'requires_payment_method',
      amountCents: order!.totalCents,
    });
    const event = JSON.parse(
      readFileSync(
        new URL('../fixtures/stripe/event-payment-intent-succeeded.json', import.meta.url),
        'utf8',
      ),
    );
    event.id = `evt_${unique('e').replace(/-/g, '')}`;
    Object.assign(event.data.object, {
      id: ref,
      client_secret: `${ref}_secret_test`,
      amount: order!.totalCents,
      metadata: { order_id: orderId },
    });
    const body = JSON.stringify(event);
    const response = await handleApiRequest(
      new Request('http://localhost/api/payments/webhooks/stripe', {
        method: 'POST',
        body,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Stripe-Signature': stripeSignatureHeader(body, stripe.webhookSecret, SETTLED),
        },
      }),
      {
        ...testWebContext(database, { now: REQUEST_START, clock: clock.read }),
        gateway: new StripeGateway(stripe),
      },
    );
    expect(response.status).toBe(200);
    expect(await settlementTimes(orderId, ctx.user!.id)).toEqual(allAt(SETTLED));
    const [recorded] = await database.db
      .select({ receivedAt: paymentEvents.receivedAt })
      .from(paymentEvents)
      .where(and(eq(paymentEvents.gateway, 'stripe'), eq(paymentEvents.eventId, event.id)));
    expect(recorded?.receivedAt).toEqual(SETTLED);
  });
});
