import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Buyer,
  type Cluster,
  connectWithin,
  createBuyers,
  describeOutcome,
  isProperUnavailable,
  Recorder,
  type Server,
  sellableOfferings,
  send,
  sleep,
  startCluster,
  startReplica,
  startServer,
  whyNoPostgres,
} from './harness.ts';

// Issue 40, DATABASE_READ_URL: "catalog, search and product reads go to a PostgreSQL streaming
// replica; everything a user has just written (cart, order, shelf, opting) is read from the
// primary. Prove it in CI with a real replica (`pg_basebackup -R` on this machine): a purchase
// shows on the shelf at once, and the catalog keeps answering while the primary restarts."
//
// The replica's replay is paused (lag without end): a product renamed on the primary still
// shows its old title on its page, so the page was read from the replica, while a book bought
// meanwhile is on the buyer's shelf at once, so the shelf was read from the primary. Then the
// primary stops (`pg_ctl stop -m fast`): product pages no one has asked for yet, a search and
// the catalog API still answer 200, from the replica; once it is back, buying works again.

const DATABASE = 'shelfmark_replica';
/** Product pages asked for only while the primary is away (none stored by the page cache). */
const UNSEEN_PRODUCTS = 6;
const REPLICA_APPLICATION = 'shelfmark catalog reads';
/** What the server waits after a change notice before forgetting it once more (app.ts). */
const REPLICA_CATCH_UP_MS = 2_000;

const skipReason = whyNoPostgres();
if (skipReason) console.warn(`Read replica test skipped: ${skipReason}`);

type Product = { offeringId: number; productId: number; title: string };

/** As React writes text into HTML. */
const inHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');

/** Resolves once the replica has replayed everything the primary has written so far. */
async function caughtUp(primary: pg.Client, replica: pg.Client, withinMs = 30_000) {
  const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
  const deadline = Date.now() + withinMs;
  for (;;) {
    const replayed = await replica.query<{ ok: boolean }>(
      'select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok',
      [rows[0]!.lsn],
    );
    if (replayed.rows[0]?.ok) return;
    if (Date.now() > deadline) throw new Error('the replica did not catch up');
    await sleep(50);
  }
}

describe.skipIf(skipReason !== null)('read replica (DATABASE_READ_URL)', () => {
  let primary: Cluster;
  let replica: Cluster;
  let server: Server;
  let primaryUrl: string;
  let replicaUrl: string;
  const recorder = new Recorder();
  let buyer: Buyer;
  let products: Product[] = [];

  beforeAll(async () => {
    primary = await startCluster();
    primaryUrl = await primary.createDatabase(DATABASE);
    replica = await startReplica(primary);
    replicaUrl = replica.url(DATABASE);
    server = await startServer(primaryUrl, { DATABASE_READ_URL: replicaUrl });
    const client = await connectWithin(primaryUrl, 10_000);
    try {
      const [account] = await createBuyers(client, `replica-${Date.now()}-`, 1);
      buyer = new Buyer(recorder, () => server.base, account!.email, account!.userId);
      const { digital } = await sellableOfferings(client, UNSEEN_PRODUCTS + 3, 0);
      const { rows } = await client.query<{ id: number; product_id: number; title: string }>(
        `select o.id, o.product_id, p.title
           from offerings o join products p on p.id = o.product_id
          where o.id = any($1::int[]) order by o.id`,
        [digital],
      );
      products = rows.map((r) => ({ offeringId: r.id, productId: r.product_id, title: r.title }));
    } finally {
      await client.end();
    }
    if (!(await buyer.logIn())) throw new Error(`${buyer.email} could not log in`);
  });

  afterAll(async () => {
    await server?.stop();
    await replica?.destroy();
    await primary?.destroy();
  });

  const context = () =>
    `server log:\n${server.logTail()}\nprimary log:\n${primary.log()}\nreplica log:\n${replica.log()}`;

  it('reads the catalog from the replica, and what the buyer just bought from the primary', async () => {
    const [bought, renamed] = products;
    const primaryClient = await connectWithin(primaryUrl, 10_000);
    const replicaClient = await connectWithin(replicaUrl, 10_000);
    try {
      await caughtUp(primaryClient, replicaClient);
      // The catalog's connections are the replica's: none of that name on the primary.
      const home = await send(recorder, `${server.base}/search?terms=replica`, { label: 'search' });
      expect(home.outcome.status, context()).toBe(200);
      const named = `select count(*)::int as n from pg_stat_activity where application_name = $1`;
      const onReplica = await replicaClient.query<{ n: number }>(named, [REPLICA_APPLICATION]);
      const onPrimary = await primaryClient.query<{ n: number }>(named, [REPLICA_APPLICATION]);
      expect(onReplica.rows[0]!.n).toBeGreaterThan(0);
      expect(onPrimary.rows[0]!.n).toBe(0);

      // Lag without end: the replica replays nothing from here on.
      await replicaClient.query('select pg_wal_replay_pause()');
      for (;;) {
        const { rows } = await replicaClient.query<{ state: string }>(
          'select pg_get_wal_replay_pause_state() as state',
        );
        if (rows[0]!.state === 'paused') break;
        await sleep(20);
      }
      const newTitle = `Replica lag probe ${Date.now()}`;
      await primaryClient.query('update products set title = $1 where id = $2', [
        newTitle,
        renamed!.productId,
      ]);
      const renamedAt = Date.now();
      const page = await send(
        recorder,
        `${server.base}/product-detail/${renamed!.productId}?while=paused`,
        { label: 'renamed product, replay paused' },
      );
      expect(page.outcome.status, context()).toBe(200);
      // Read from the replica: the old title, not the primary's new one.
      expect(
        page.body.includes(inHtml(renamed!.title)),
        'the old title, read from the replica',
      ).toBe(true);
      expect(page.body.includes(newTitle), "the primary's new title").toBe(false);

      // Bought while the replica knows nothing of it: the shelf shows it at once.
      const result = await buyer.checkout(
        { offeringIds: [bought!.offeringId], needsAddress: false },
        () => recorder.now() + 60_000,
        () => 250,
      );
      expect(result.failure, context()).toBeNull();
      expect(result.orderId).toBeTruthy();
      const shelf = await buyer.get('/shelf', 'shelf after the purchase');
      expect(shelf.outcome.status, context()).toBe(200);
      expect(shelf.body.includes(inHtml(bought!.title)), 'the book bought, on the shelf').toBe(
        true,
      );
      const notYet = await replicaClient.query('select 1 from orders where id = $1', [
        result.orderId,
      ]);
      expect(notYet.rowCount, 'the replica has not seen the order').toBe(0);

      // Replay resumes: past the server's second forgetting of the notice, the page is new.
      await replicaClient.query('select pg_wal_replay_resume()');
      await caughtUp(primaryClient, replicaClient);
      await sleep(Math.max(0, renamedAt + REPLICA_CATCH_UP_MS + 200 - Date.now()));
      const after = await send(
        recorder,
        `${server.base}/product-detail/${renamed!.productId}?while=replaying`,
        { label: 'renamed product, replay resumed' },
      );
      expect(after.outcome.status, context()).toBe(200);
      expect(after.body.includes(newTitle), 'the new title, once replayed').toBe(true);
    } finally {
      await replicaClient.query('select pg_wal_replay_resume()').catch(() => undefined);
      await primaryClient.end();
      await replicaClient.end();
    }
  });

  it('keeps answering catalog pages from the replica while the primary restarts', async () => {
    const unseen = products.slice(2, 2 + UNSEEN_PRODUCTS);
    const later = products.at(-1)!;
    await primary.stop();
    const stoppedAt = recorder.now();
    try {
      const anonymous = async (path: string, label: string, headers = {}) =>
        (await send(recorder, `${server.base}${path}`, { label, headers })).outcome;
      // The first request after the stop may be the one that finds the primary gone.
      for (let n = 0; recorder.now() < stoppedAt + 5_000; n += 1) {
        const probe = await anonymous(`/search?terms=settle${n}`, 'settling');
        if (probe.status === 200) break;
        await sleep(100);
      }
      const answers: string[] = [];
      for (const product of unseen) {
        const answer = await send(recorder, `${server.base}/product-detail/${product.productId}`, {
          label: 'unseen product page, primary away',
        });
        answers.push(
          `${product.productId}: ${describeOutcome(answer.outcome)}${
            answer.body.includes(inHtml(product.title)) ? '' : ' (without its title)'
          }`,
        );
      }
      expect(answers, context()).toEqual(unseen.map((p) => `${p.productId}: 200`));
      const word = /[A-Za-z]{4,}/.exec(unseen[0]!.title)?.[0] ?? 'book';
      expect((await anonymous(`/search?terms=${word}`, 'search, primary away')).status).toBe(200);
      expect(
        (
          await anonymous(`/api/catalog-items/${unseen[1]!.productId}`, 'catalog API', {
            Accept: 'application/vnd.api+json',
          })
        ).status,
      ).toBe(200);
      expect((await anonymous('/readyz', 'readiness, primary away')).status).toBe(200);
      // What is personal waits for the primary: a proper 503, never a 500.
      const shelf = await buyer.get('/shelf', 'shelf, primary away');
      expect(isProperUnavailable(shelf.outcome), describeOutcome(shelf.outcome)).toBe(true);
    } finally {
      await primary.start();
    }
    const backAt = recorder.now();
    for (;;) {
      const shelf = await buyer.get('/shelf', 'shelf, primary back');
      if (shelf.outcome.status === 200) break;
      expect(recorder.now() - backAt, context()).toBeLessThan(10_000);
      await sleep(100);
    }
    const result = await buyer.checkout(
      { offeringIds: [later.offeringId], needsAddress: false },
      () => recorder.now() + 60_000,
      () => 250,
    );
    expect(result.failure, context()).toBeNull();
    const shelf = await buyer.get('/shelf', 'shelf after the second purchase');
    expect(shelf.body.includes(inHtml(later.title)), 'the second book, on the shelf').toBe(true);
    expect(server.unexpectedExits).toEqual([]);
    expect(server.uncaughtExceptions()).toBe(0);
    expect(
      recorder.outcomes
        .filter((o) => o.status >= 500 && !isProperUnavailable(o))
        .map((o) => `${o.label} → ${describeOutcome(o)}`),
      context(),
    ).toEqual([]);
  });
  it('reads the catalog from the primary while the replica is away, and goes back to it', async () => {
    const gauge = async () => {
      const metrics = await fetch(`${server.base}/metrics`).then((r) => r.text());
      return /^db_read_replica_up (\d)/m.exec(metrics)?.[1] ?? null;
    };
    expect(await gauge()).toBe('1');
    await replica.stop();
    const statuses: number[] = [];
    for (const [n, product] of products.entries()) {
      const answer = await send(
        recorder,
        `${server.base}/product-detail/${product.productId}?replica=away${n}`,
        { label: 'product page, replica away' },
      );
      statuses.push(answer.outcome.status);
    }
    const search = await send(recorder, `${server.base}/search?terms=away`, {
      label: 'search, replica away',
    });
    statuses.push(search.outcome.status);
    // Every read answered by the primary, the first one included (asked again of it).
    expect(statuses, context()).toEqual(statuses.map(() => 200));
    expect(await gauge()).toBe('0');
    await replica.start();
    const backAt = Date.now();
    while ((await gauge()) !== '1') {
      expect(Date.now() - backAt, context()).toBeLessThan(10_000);
      await send(recorder, `${server.base}/search?terms=back${Date.now()}`, { label: 'search' });
      await sleep(200);
    }
    const log = server.logTail(400);
    expect(log.split('the read replica does not answer').length - 1, log).toBe(1);
    expect(log.split('the read replica answers again').length - 1, log).toBe(1);
  });
});
