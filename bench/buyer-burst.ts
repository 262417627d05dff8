// A burst of buyers on one process (issue 37, "A busy database is a wait or a 503, never a
// 500"): N buyers at once each open the login page, log in, put a book in the cart, open the
// checkout and pay with the test card, as tests/resilience/harness.ts's Buyer does it over plain
// HTTP. Prints, per step, the answers by status and the p50/p99 latency, and how many buyers
// ended with their order. Runs the built server (`npm run build` first) in production mode on a
// PostgreSQL cluster of its own (initdb in a temporary directory, Debian's binaries), with the
// configuration's default pool unless told otherwise. Talks only to 127.0.0.1.
//   npx tsx bench/buyer-burst.ts [--buyers 200] [--rounds 3] [--pool 20] [--pool-wait-ms 5000]
import pg from 'pg';
import {
  Buyer,
  createBuyers,
  describeOutcome,
  isProperUnavailable,
  type Outcome,
  Recorder,
  sellableOfferings,
  startCluster,
  startServer,
  tally,
  whyNoPostgres,
} from '../tests/resilience/harness.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
};
const buyers = Number(option('buyers') ?? 200);
const rounds = Number(option('rounds') ?? 3);
const pool = option('pool');
const poolWaitMs = option('pool-wait-ms');

const noPostgres = whyNoPostgres();
if (noPostgres) {
  console.error(`buyer burst: ${noPostgres}`);
  process.exit(2);
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function row(label: string, outcomes: Outcome[]): string {
  const times = outcomes.map((o) => o.endedAt - o.startedAt).sort((a, b) => a - b);
  const statuses = Object.entries(tally(outcomes, describeOutcome))
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
  return `| ${label} | ${outcomes.length} | ${statuses} | ${Math.round(percentile(times, 50))} | ${Math.round(percentile(times, 99))} |`;
}

const cluster = await startCluster();
let exitCode = 0;
try {
  const url = await cluster.createDatabase('shelfmark_burst');
  const settings: Record<string, string> = {};
  if (pool) settings.DATABASE_POOL_SIZE = pool;
  if (poolWaitMs) settings.DATABASE_POOL_WAIT_MS = poolWaitMs;
  const server = await startServer(url, settings);
  try {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    const { digital } = await sellableOfferings(setup, 6, 0);
    console.log(
      `\n${buyers} buyers at once, ${rounds} rounds, pool ${pool ?? 'default'}, wait ${poolWaitMs ?? 'default'} ms\n`,
    );
    console.log('| Round: step | Requests | Answers | p50 ms | p99 ms |');
    console.log('|---|---:|---|---:|---:|');
    for (let round = 1; round <= rounds; round += 1) {
      const accounts = await createBuyers(setup, `burst-${Date.now()}-${round}-`, buyers);
      const recorder = new Recorder();
      const started = performance.now();
      const results = await Promise.all(
        accounts.map(async (account, i) => {
          const buyer = new Buyer(recorder, () => server.base, account.email, account.userId);
          if (!(await buyer.logIn())) return 'not logged in';
          const offering = digital[i % digital.length]!;
          const result = await buyer.checkout(
            { offeringIds: [offering], needsAddress: false },
            // A patient buyer: presses again after a 503 or no answer, for up to a minute.
            () => 60_000,
            () => 500,
          );
          return result.orderId ? 'paid' : (result.failure ?? 'failed').slice(0, 60);
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const outcomes = recorder.outcomes;
      for (const label of [...new Set(outcomes.map((o) => o.label))]) {
        console.log(
          row(
            `${round}: ${label}`,
            outcomes.filter((o) => o.label === label),
          ),
        );
      }
      console.log(row(`${round}: every request`, outcomes));
      const improper = outcomes.filter(
        (o) => o.status === 0 || (o.status >= 500 && !isProperUnavailable(o)),
      );
      const ends = Object.entries(tally(results, (r) => r))
        .map(([end, count]) => `${count} ${end}`)
        .join(', ');
      console.log(
        `|  | | **round ${round}: ${seconds.toFixed(1)} s; buyers: ${ends}; 500s or no answer: ${improper.length}** | | |`,
      );
      if (improper.length > 0) exitCode = 1;
    }
    await setup.end();
    const busy = server.logTail(100_000).match(/every database connection busy/g)?.length ?? 0;
    console.log(`\nserver log: "every database connection busy: answered 503" × ${busy}`);
  } finally {
    await server.stop();
  }
} finally {
  await cluster.destroy();
}
process.exit(exitCode);
