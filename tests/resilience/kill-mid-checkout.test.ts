import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Buyer,
  type CheckoutResult,
  type Cluster,
  checkConsistency,
  connectWithin,
  createBuyers,
  describeOutcome,
  isProperUnavailable,
  REQUEST_TIMEOUT_MS,
  Recorder,
  type Server,
  sampleConnections,
  sellableOfferings,
  sleep,
  startCluster,
  startServer,
  stockOf,
  tally,
  whyNoPostgres,
} from './harness.ts';

// Issue 13: the server process dies (SIGKILL, no chance to clean up) at random moments while
// buyers pay, and is started again; a buyer whose press of Pay got no answer presses it again
// on the same form, as a person would (the form's idempotency key comes from the account and
// the cart: web/commerce/checkout.tsx). Afterwards no order is lost or duplicated, every paid
// order is charged once, fulfilled and mailed once, and no stock went below zero.

const BUYERS = 15;
/** Digital products set aside per buyer, each bought once (more than a buyer gets through). */
const CHECKOUTS_PER_BUYER = 100;
/** A buyer's pause between one order and the next. */
const BETWEEN_CHECKOUTS_MS = 100;
const MIN_KILLS = 15;
const MIN_RUN_MS = 60_000;
const MAX_RUN_MS = 120_000;
/** Every third checkout also buys a physical item with counted stock (a shipment, a unit). */
const PHYSICAL_EVERY = 3;
const STOCKED_OFFERINGS = 3;
const STOCK = 500;
/** After the last restart, a checkout under way may take this long to finish. */
const FINISH_MS = 30_000;

const skipReason = whyNoPostgres();
if (skipReason) console.warn(`kill -9 test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('kill -9 mid-checkout', () => {
  let cluster: Cluster;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('shelfmark_kill');
    server = await startServer(url);
  });

  afterAll(async () => {
    await server?.stop();
    await cluster?.destroy();
  });

  it('loses no order, duplicates none, charges and fulfils each paid order once', async () => {
    const recorder = new Recorder();
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    const accounts = await createBuyers(setup, `kill-${Date.now()}-`, BUYERS);
    const { digital, physical } = await sellableOfferings(
      setup,
      BUYERS * CHECKOUTS_PER_BUYER,
      STOCKED_OFFERINGS,
    );
    await setup.query('update offerings set stock = $1 where id = any($2::int[])', [
      STOCK,
      physical,
    ]);
    const stockBefore = await stockOf(setup, physical);
    await setup.end();
    const buyers = accounts.map(
      (account) => new Buyer(recorder, () => server.base, account.email, account.userId),
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
    const pays = all.filter((o) => o.label === 'pay');
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
    console.log(`kill -9 mid-checkout:\n${JSON.stringify(figures, null, 2)}`);
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
    ).finally(() => client.end());
    console.log(`kill -9 mid-checkout, consistency:\n${JSON.stringify(consistency, null, 2)}`);
    expect(consistency.violations, context()).toEqual([]);
    expect(consistency.paidOrders).toBe(figures.checkouts.succeeded);
    expect(consistency.lowestStock ?? 0).toBeGreaterThanOrEqual(0);
  }, 240_000);
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
