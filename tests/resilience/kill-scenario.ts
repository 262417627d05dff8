import pg from 'pg';
import { expect } from 'vitest';
import {
  Buyer,
  type Charge,
  type CheckoutResult,
  type Cluster,
  checkConsistency,
  connectWithin,
  createBuyers,
  describeOutcome,
  isProperUnavailable,
  REQUEST_TIMEOUT_MS,
  Recorder,
  type Retry,
  type Server,
  sampleConnections,
  sellableOfferings,
  sleep,
  startCluster,
  startServer,
  stockOf,
  tally,
} from './harness.ts';

// Issue 13: the server process dies (SIGKILL, no chance to clean up) at random moments while
// buyers pay, and is started again. Issue 37: a buyer whose press of Pay got no answer does
// what people do. Half of them press Pay again on the same form (its idempotency key comes
// from the account and the cart: web/commerce/checkout.tsx); the other half go back to the
// cart and, unless it says their payment went through, empty it, fill it again (a new key)
// and pay from a new checkout page. With the test gateway and with Stripe (its stand-in,
// which the kill cannot touch: the charge survives the process that asked for it). Afterwards
// no order is lost or duplicated, every paid order is charged once, fulfilled and mailed once,
// no charge is kept without an order that owns it, no order is left pending with stock, and
// no stock went below zero.

const BUYERS = 20;
/** Digital products set aside per buyer, each bought once (more than a buyer gets through). */
const CHECKOUTS_PER_BUYER = 60;
/** A buyer's pause between one order and the next. */
const BETWEEN_CHECKOUTS_MS = 100;
/** Per gateway: the two runs together kill the server twenty to thirty times. */
const MIN_KILLS = 10;
const MIN_RUN_MS = 30_000;
const MAX_RUN_MS = 110_000;
/** Every third checkout also buys a physical item with counted stock (a shipment, a unit). */
const PHYSICAL_EVERY = 3;
const STOCKED_OFFERINGS = 3;
const STOCK = 500;
/** After the last restart, a checkout under way may take this long to finish. */
const FINISH_MS = 30_000;

import { type StripeStandIn, startStripeStandIn } from '../stripe-stand-in.ts';

export type KillGateway = 'test' | 'stripe';

/** The server's settings for a gateway: Stripe's keys pointing at its stand-in, or none. */
function settingsFor(standIn: StripeStandIn | null): Record<string, string | undefined> {
  if (!standIn) return {};
  return {
    PAYMENTS: undefined,
    STRIPE_SECRET_KEY: 'sk_test_resilience',
    STRIPE_WEBHOOK_SECRET: 'whsec_resilience',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_resilience',
    STRIPE_API_BASE: standIn.base,
  };
}

/** The stand-in's charges, as the consistency check reads a gateway's. */
function chargesAt(standIn: StripeStandIn): Charge[] {
  return [...standIn.intents.values()].map((intent) => ({
    order_id: intent.orderId,
    status: intent.status === 'succeeded' && intent.refunded ? 'refunded' : intent.status,
    amount_cents: intent.amount,
  }));
}

/** One burst of buyers paying through `gateway` while the server is killed and restarted. */
export async function killMidCheckout(gateway: KillGateway): Promise<void> {
  const cluster: Cluster = await startCluster();
  const standIn = gateway === 'stripe' ? await startStripeStandIn() : null;
  let server: Server | null = null;
  try {
    const url = await cluster.createDatabase(`shelfmark_kill_${gateway}`);
    server = await startServer(url, settingsFor(standIn));
    await run(gateway, cluster, server, url, standIn);
  } finally {
    await server?.stop();
    await standIn?.close();
    await cluster.destroy();
  }
}

async function run(
  gateway: KillGateway,
  cluster: Cluster,
  server: Server,
  url: string,
  standIn: StripeStandIn | null,
): Promise<void> {
  const recorder = new Recorder();
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  const accounts = await createBuyers(setup, `kill-${gateway}-${Date.now()}-`, BUYERS);
  const { digital, physical } = await sellableOfferings(
    setup,
    BUYERS * CHECKOUTS_PER_BUYER,
    STOCKED_OFFERINGS,
  );
  await setup.query('update offerings set stock = $1 where id = any($2::int[])', [STOCK, physical]);
  const stockBefore = await stockOf(setup, physical);
  await setup.end();
  // Half press Pay again on the same form; half go back to the cart (issue 37).
  const retryOf = (index: number): Retry => (index % 2 === 0 ? 'same-form' : 'return-to-cart');
  const browserStripe = standIn && {
    confirm(ref: string) {
      standIn.confirmInBrowser(ref, 'succeeded');
      return standIn.intents.get(ref)!.orderId;
    },
  };
  const buyers = accounts.map(
    (account, index) =>
      new Buyer(
        recorder,
        () => server.base,
        account.email,
        account.userId,
        retryOf(index),
        browserStripe,
      ),
  );
  for (const buyer of buyers) {
    if (!(await buyer.logIn())) throw new Error(`${buyer.email} could not log in`);
  }

  let stopAt = Number.POSITIVE_INFINITY;
  const results: CheckoutResult[] = [];
  const exhausted: string[] = [];
  const buyerLoop = async (buyer: Buyer, index: number) => {
    const mine = digital.filter((_, i) => i % BUYERS === index);
    for (let n = 1; recorder.now() < stopAt && mine.length > 0; n += 1) {
      const withPhysical = (n + index) % PHYSICAL_EVERY === 0;
      const offeringIds = [mine.shift()!];
      if (withPhysical) offeringIds.push(physical[(n + index) % physical.length]!);
      const result = await buyer.checkout(
        { offeringIds, needsAddress: withPhysical },
        () => stopAt + FINISH_MS,
        () => 200 + Math.random() * 300,
      );
      results.push(result);
      if (result.failure) break;
      await sleep(BETWEEN_CHECKOUTS_MS);
    }
    if (mine.length === 0) exhausted.push(buyer.email);
  };
  const sampler = sampleConnections(() => server.process.pid, cluster.port);
  const load = Promise.all(buyers.map(buyerLoop));

  // Kill at a random moment 1–3 s after each start, until both enough kills and enough time.
  const kills: { at: number; restartMs: number }[] = [];
  const started = recorder.now();
  const elapsed = () => recorder.now() - started;
  while (
    (kills.length < MIN_KILLS || elapsed() < MIN_RUN_MS) &&
    elapsed() < MAX_RUN_MS &&
    server.unexpectedExits.length === 0
  ) {
    await sleep(1_000 + Math.random() * 2_000);
    const at = recorder.now();
    await server.kill();
    const restartMs = await server.restart();
    kills.push({ at, restartMs });
  }
  stopAt = recorder.now();
  await load;
  const connections = sampler.stop();

  const all = recorder.outcomes;
  const answered = all.filter((o) => o.status !== 0);
  const improper = all.filter(
    (o) => o.error === 'timeout' || (o.status >= 500 && !isProperUnavailable(o)),
  );
  // Paying: the card form's Pay, or with Stripe the payment's start and the return from Stripe.
  const pays = all.filter((o) => ['pay', 'start payment', 'stripe return'].includes(o.label));
  const figures = {
    runSeconds: Math.round(stopAt - started) / 1000,
    kills: kills.length,
    restartMs: {
      median: median(kills.map((k) => k.restartMs)),
      max: Math.max(...kills.map((k) => k.restartMs)),
    },
    requests: all.length,
    byStatus: tally(all, describeOutcome),
    longestAnswerMs: Math.round(
      answered.reduce((max, o) => Math.max(max, o.endedAt - o.startedAt), 0),
    ),
    payPresses: pays.length,
    // Refused: the server was down, the press never reached it. Cut: it died mid-request.
    payPressesRefused: pays.filter((o) => o.error === 'ECONNREFUSED').length,
    payPressesCutByKill: pays.filter((o) => o.status === 0 && o.error !== 'ECONNREFUSED').length,
    checkouts: {
      attempted: results.length,
      succeeded: results.filter((r) => r.orderId).length,
      withPhysicalItem: results.filter((r) => r.offeringIds.length > 1).length,
      pressedMoreThanOnce: results.filter((r) => r.presses > 1).length,
      failures: results.filter((r) => r.failure).map((r) => `${r.buyer}: ${r.failure}`),
    },
    serverConnectionsToPostgresPeak: connections.peak,
    serverExits: server.unexpectedExits,
    uncaughtExceptionsLogged: server.uncaughtExceptions(),
  };
  console.log(`kill -9 mid-checkout (${gateway} gateway):\n${JSON.stringify(figures, null, 2)}`);
  const context = () =>
    `${JSON.stringify(figures, null, 2)}\nserver log:\n${server.logTail()}\nPostgreSQL log:\n${cluster.log()}`;

  expect(server.unexpectedExits, context()).toEqual([]);
  expect(kills.length, context()).toBeGreaterThanOrEqual(MIN_KILLS);
  expect(
    improper.map(
      (o) => `${o.label} ${o.method} at ${Math.round(o.startedAt)} ms → ${describeOutcome(o)}`,
    ),
    context(),
  ).toEqual([]);
  expect(figures.longestAnswerMs).toBeLessThan(REQUEST_TIMEOUT_MS);
  expect(figures.checkouts.failures, context()).toEqual([]);
  expect(exhausted, 'buyers ran out of products to buy: raise CHECKOUTS_PER_BUYER').toEqual([]);
  expect(figures.payPressesCutByKill, 'some presses of Pay met a kill').toBeGreaterThan(0);

  const client = await connectWithin(url, 10_000);
  const consistency = await checkConsistency(
    client,
    buyers.map((b) => b.userId),
    results,
    stockBefore,
    { keysMayDiffer: true, charges: standIn ? chargesAt(standIn) : undefined },
  ).finally(() => client.end());
  console.log(
    `kill -9 mid-checkout (${gateway} gateway), consistency:\n${JSON.stringify(consistency, null, 2)}`,
  );
  expect(consistency.violations, context()).toEqual([]);
  expect(consistency.paidOrders).toBe(figures.checkouts.succeeded);
  // Every buyer's checkout ended in an order shown to them: none is left holding stock.
  expect(consistency.pendingOrders, context()).toBe(0);
  expect(consistency.lowestStock ?? 0).toBeGreaterThanOrEqual(0);
  // Both ways of coming back were taken, and some buyers came back after a lost answer.
  expect(figures.checkouts.pressedMoreThanOnce).toBeGreaterThan(0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
