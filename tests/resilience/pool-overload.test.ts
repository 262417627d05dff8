import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Buyer,
  type Cluster,
  createBuyers,
  describeOutcome,
  isProperUnavailable,
  Recorder,
  type Server,
  send,
  startCluster,
  startServer,
  tally,
  whyNoPostgres,
} from './harness.ts';

// Issue 37, "A busy database is a wait or a 503, never a 500": 200 at once on one process whose
// pool is far too small for them (2 connections, 100 ms of waiting for one, the least the settings allow), so most requests
// find every connection busy: 100 buyers logging in (the login page, then its form, where the
// outside check saw 73 and 116 generic 500 pages) and 100 visitors searching. Each is
// answered: a page, or 503 with Retry-After and the store's "briefly unavailable" text; never
// a 500, never a timeout; and the server serves normally again once the burst is over.

const VISITORS = 200;
const POOL_SIZE = 2;
const POOL_WAIT_MS = 100;
const BURSTS = 4;

const skipReason = whyNoPostgres();
if (skipReason) console.warn(`pool overload test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('every database connection busy', () => {
  let cluster: Cluster;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    cluster = await startCluster();
    url = await cluster.createDatabase('shelfmark_overload');
    server = await startServer(url, {
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      DATABASE_POOL_WAIT_MS: String(POOL_WAIT_MS),
      // Every search is rendered (no stored copy), so every request needs the database.
      PAGE_CACHE_MB: '0',
      // All 200 in work at once, as before decision 044: the lanes would keep most of them
      // waiting their turn instead, and this is the test of a pool that runs dry anyway.
      MAX_ACTIVE_REQUESTS: '1000',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await cluster?.destroy();
  });

  it('200 at once: pages or 503 with Retry-After, never a 500', async () => {
    // How many of the 200 find the pool dry depends on how fast this machine answers the first
    // few, so a burst that happens not to overload it (or not to reach the login form) proves
    // nothing and is run again, up to BURSTS times; every burst must still answer properly.
    let overloaded = false;
    for (let burstNo = 1; burstNo <= BURSTS && !overloaded; burstNo += 1) {
      const recorder = new Recorder();
      const setup = new pg.Client({ connectionString: url });
      await setup.connect();
      const accounts = await createBuyers(
        setup,
        `overload-${Date.now()}-${burstNo}-`,
        VISITORS / 2,
      );
      await setup.end();
      const burst = Array.from({ length: VISITORS }, (_, i) => {
        if (i % 2 === 0) {
          const account = accounts[i / 2]!;
          return new Buyer(recorder, () => server.base, account.email, account.userId).logIn();
        }
        return send(recorder, `${server.base}/search?terms=chemistry+${i}`, {
          label: 'search',
        });
      });
      await Promise.all(burst);
      const outcomes = recorder.outcomes;
      const byStatus = tally(outcomes, describeOutcome);
      console.log(
        `pool overload, burst ${burstNo} (${VISITORS} at once, pool ${POOL_SIZE}):`,
        byStatus,
      );
      const improper = outcomes.filter(
        (o) => o.status === 0 || (o.status >= 500 && !isProperUnavailable(o)),
      );
      expect(improper.map((o) => `${o.label} → ${describeOutcome(o)}`)).toEqual([]);
      // The burst did overload the pool (else this test proves nothing), some got through, and
      // the login form was reached and posted under it.
      overloaded =
        outcomes.some((o) => o.status === 503) &&
        outcomes.some((o) => o.status === 200) &&
        outcomes.some((o) => o.label === 'log in');
    }
    expect(overloaded, `no burst of ${BURSTS} overloaded the pool and posted a login`).toBe(true);
    // Counted in the log, for the people running the store.
    expect(server.logTail(2_000)).toContain('every database connection busy: answered 503');
    // Once the burst is over, the store answers as usual.
    const after = await send(new Recorder(), `${server.base}/search?terms=after`, {
      label: 'after',
    });
    expect(after.outcome.status).toBe(200);
  }, 120_000);
});
