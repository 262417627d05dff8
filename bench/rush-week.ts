// Rush week (issue 40, "Measured"): the first week of term on one machine. At once:
// - buyers, each with an account of their own, through the real form path as a browser without
//   JavaScript (tests/resilience/harness.ts's Buyer): login page, log in, add a book, checkout
//   page, pay with the test card, the order-complete page, the book opened in the reader;
// - students who already own a book opening My Shelf, then the reader, then a chapter of it;
// - anonymous visitors browsing product pages and searching, and a few logged-in ones opening
//   product pages, in a steady loop from `--idle-seconds` before the burst to its end: their
//   latency idle (before) against during the burst.
// Then, from the database: orders paid = charges = fulfilments = confirmation mails, nothing
// doubled, no stock below zero; how long the confirmations took to leave the outbox (waiting up
// to `--drain-seconds` for it to drain); and /metrics' counters before and after.
// Prints Markdown tables for docs/benchmarks.md and the issue's targets as PASS/FAIL lines.
// Exits 1 on any error answer, failed journey or inconsistency (`--strict`: a missed target too).
//
//   npm run build
//   npx tsx bench/rush-week.ts [--buyers 200] [--readers 200] [--browsers 50]
//     [--logged-in-browsers 10] [--workers 1|2] [--rounds 1] [--idle-seconds 10]
//     [--drain-seconds 30] [--browse-pause-ms 200] [--timeout-ms 60000] [--strict]
//   npx tsx bench/rush-week.ts --compare-workers ...   (1 worker, then 2: orders/s of each)
//   npx tsx bench/rush-week.ts --proxy ...   (every visitor through Debian's nginx running
//     deploy/nginx/shelfmark.conf, its micro-cache included; /metrics asked of the server)
//   npx tsx bench/rush-week.ts --base-url http://127.0.0.1:8080 --database-url postgres://…
//     [--metrics-url http://127.0.0.1:3000/metrics]   (a deployment already running)
//   npx tsx bench/rush-week.ts --smtp ...   (the outbox over SMTP to a relay on 127.0.0.1,
//     rush-week/relay.ts, instead of .eml files)
//   npx tsx bench/rush-week.ts --sustain 20 [--sustain-seconds 60] [--workers N] [--rounds N]
//     (no burst: logged-in buyers order at a steady 20 a second, mail over SMTP to the relay;
//     whether the outbox builds a backlog, rush-week/sustained.ts)
// Without --base-url it makes a PostgreSQL cluster of its own (initdb in a temporary directory,
// Debian's binaries) and starts the built server on it in production mode with
// WEB_CONCURRENCY=--workers, a fresh database and demo data for each server. Only 127.0.0.1.
import os from 'node:os';
import pg from 'pg';
import {
  Buyer,
  type Cluster,
  checkConsistency,
  describeOutcome,
  type Outcome,
  Recorder,
  sleep,
  startCluster,
  startServer,
  stockOf,
  tally,
  whyNoPostgres,
} from '../tests/resilience/harness.ts';
import { startNginx } from '../tests/resilience/nginx.ts';
import {
  type Catalog,
  drainMails,
  makeAccounts,
  prepareCatalog,
  rushInvariants,
} from './rush-week/fixture.ts';
import { type Relay, startRelay } from './rush-week/relay.ts';
import {
  metricsDelta,
  type RoundFigures,
  serverTimes,
  summary,
  TARGET,
  verdicts,
} from './rush-week/report.ts';
import {
  isError,
  machineCpu,
  ms,
  percentile,
  type Spread,
  STEP_HEADER,
  scrapeMetrics,
  sortedTimes,
  spreadOf,
  startedAtAbsolute,
  stepRows,
} from './rush-week/stats.ts';
import { type SustainedFigures, sustainedRound, sustainedVerdicts } from './rush-week/sustained.ts';
import {
  buyerJourney,
  type Journey,
  readerJourney,
  startBrowsing,
  warmUp,
} from './rush-week/visitors.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
};
const count = (name: string, fallback: number) => Number(option(name) ?? fallback);
const config = {
  buyers: count('buyers', 200),
  readers: count('readers', 200),
  browsers: count('browsers', 50),
  loggedInBrowsers: count('logged-in-browsers', Math.max(1, Math.ceil(count('browsers', 50) / 5))),
  workers: count('workers', 1),
  rounds: count('rounds', 1),
  idleSeconds: count('idle-seconds', 10),
  drainSeconds: count('drain-seconds', 30),
  browsePauseMs: count('browse-pause-ms', 200),
  // A client waits as long as the shipped nginx waits for the app (proxy_read_timeout 60s):
  // since decision 044 a log in may wait its turn at the door for most of a burst.
  timeoutMs: count('timeout-ms', 60_000),
  baseUrl: option('base-url'),
  databaseUrl: option('database-url'),
  metricsUrl: option('metrics-url'),
  compareWorkers: args.includes('--compare-workers'),
  proxy: args.includes('--proxy'),
  strict: args.includes('--strict'),
  // Orders a second, held for --sustain-seconds, instead of a burst (bench/rush-week/sustained.ts).
  sustain: count('sustain', 0),
  sustainSeconds: count('sustain-seconds', 60),
  // The outbox over SMTP to a relay on 127.0.0.1 (relay.ts) rather than .eml files; always
  // with --sustain.
  smtp: args.includes('--smtp') || count('sustain', 0) > 0,
};
/** Books on sale: a buyer buys one, round-robin (orders of one line, so one ownership each). */
const BOOKS_ON_SALE = 6;

type Target = {
  base: string;
  databaseUrl: string;
  metricsUrl: string;
  workers: number | null;
  stop(): Promise<void>;
  logTail(): string;
};

const log = (line = '') => console.log(line);

async function localTarget(
  cluster: Cluster,
  workers: number,
  name: string,
  relay: Relay | null,
): Promise<Target> {
  const databaseUrl = await cluster.createDatabase(name);
  const server = await startServer(databaseUrl, {
    WEB_CONCURRENCY: String(workers),
    ...(relay ? { SMTP_URL: relay.url } : {}),
    ...(config.proxy ? { TRUSTED_PROXIES: '127.0.0.1' } : {}),
  });
  // The balancer in front, as deployed (docs/scaling.md, "Behind a reverse proxy"); /metrics
  // answers only a direct local request, so it is asked of the server itself.
  const proxy = config.proxy ? await startNginx([server.base]) : null;
  return {
    base: proxy?.base ?? server.base,
    databaseUrl,
    metricsUrl: `${server.base}/metrics`,
    workers,
    stop: async () => {
      await proxy?.stop();
      await server.stop();
    },
    logTail: () =>
      `${server.logTail(30)}${proxy ? `\nnginx:\n${proxy.errorLog().slice(-3000)}` : ''}`,
  };
}

async function runRound(
  target: Target,
  client: pg.Client,
  catalog: Catalog,
  round: number,
): Promise<RoundFigures> {
  const prefix = `rush-${Date.now()}-${round}`;
  const accounts = await makeAccounts(
    client,
    prefix,
    { buyers: config.buyers, readers: config.readers, loggedIn: config.loggedInBrowsers },
    catalog.readerBooks,
  );
  const offeringIds = catalog.offerings.map((o) => o.offeringId);
  const stockBefore = await stockOf(client, offeringIds);
  const buyersRecorder = new Recorder();
  const readersRecorder = new Recorder();
  const browseRecorder = new Recorder();
  const visitor = (recorder: Recorder, account: { email: string; userId: number }) => {
    const buyer = new Buyer(recorder, () => target.base, account.email, account.userId);
    buyer.requestTimeoutMs = config.timeoutMs;
    return buyer;
  };
  const loggedIn = accounts.loggedIn.map((account) => visitor(browseRecorder, account));
  const loggedInOk = await Promise.all(loggedIn.map((b) => b.logIn()));
  if (loggedInOk.some((ok) => !ok)) throw new Error('a logged-in browser could not log in');
  for (const [n, browser] of loggedIn.entries()) {
    for (const path of catalog.productPaths.slice(n % 5, (n % 5) + 2)) {
      await browser.visit(path, 'warm-up (logged in)');
    }
  }

  const metricsBefore = await scrapeMetrics(target.metricsUrl);
  const stopBrowsing = startBrowsing(target.base, catalog, loggedIn, browseRecorder, {
    anonymous: config.browsers,
    pauseMs: config.browsePauseMs,
    timeoutMs: config.timeoutMs,
  });
  await sleep(config.idleSeconds * 1000);
  const cpuBefore = { machine: machineCpu(), client: process.cpuUsage() };
  const burstStart = performance.now();
  const [buyerJourneys, readerJourneys] = await Promise.all([
    Promise.all(
      accounts.buyers.map((account, i) => {
        const book = catalog.offerings[i % catalog.offerings.length]!;
        return buyerJourney(
          visitor(buyersRecorder, account),
          buyersRecorder,
          book.productId,
          book.offeringId,
        );
      }),
    ),
    Promise.all(
      accounts.readers.map((account) =>
        readerJourney(visitor(readersRecorder, account), readersRecorder, account.productId),
      ),
    ),
  ]);
  const burstEnd = performance.now();
  const cpuAfter = { machine: machineCpu(), client: process.cpuUsage(cpuBefore.client) };
  await stopBrowsing();
  const burstSeconds = (burstEnd - burstStart) / 1000;

  // Mail: every confirmation of this round's orders, waited for up to --drain-seconds.
  const results = buyerJourneys.flatMap((j) => (j.result ? [j.result] : []));
  const orderIds = results.flatMap((r) => (r.orderId ? [r.orderId] : []));
  const mails = await drainMails(client, orderIds, config.drainSeconds * 1000);
  const metricsAfter = await scrapeMetrics(target.metricsUrl);

  // Database: the harness's checks of every order against what its buyer was told, and ours.
  const buyerIds = accounts.buyers.map((a) => a.userId);
  const consistency = await checkConsistency(client, buyerIds, results, stockBefore);
  const invariants = await rushInvariants(client, buyerIds);
  const violations = [...consistency.violations, ...invariants.violations];

  // Figures.
  const buyerOutcomes = buyersRecorder.outcomes;
  const readerOutcomes = readersRecorder.outcomes;
  const phase = (outcome: Outcome) => {
    const at = startedAtAbsolute(browseRecorder, outcome);
    return at < burstStart ? 'idle' : at <= burstEnd ? 'burst' : 'after';
  };
  const browsing = browseRecorder.outcomes.filter((o) => !o.label.startsWith('log'));
  const browseIn = (label: string, when: 'idle' | 'burst') =>
    spreadOf(sortedTimes(browsing.filter((o) => o.label === label && phase(o) === when)));
  const anonIdle = browseIn('product page (anonymous)', 'idle');
  const anonBurst = browseIn('product page (anonymous)', 'burst');
  const knownIdle = browseIn('product page (logged in)', 'idle');
  const knownBurst = browseIn('product page (logged in)', 'burst');
  // No figure (NaN, a FAIL) unless both phases have answers to compare.
  const ratio = (burst: Spread, idle: Spread) =>
    burst.n > 0 && idle.n > 0 && idle.p99 > 0 ? burst.p99 / idle.p99 : Number.NaN;
  const figure = (spread: Spread, value: number) => (spread.n > 0 ? value : Number.NaN);
  const paid = orderIds.length;
  // Checkout throughput: orders paid over the time from the burst's start to the last one
  // answered as paid (the reader opened afterwards is not part of it).
  const lastPaid = Math.max(
    0,
    ...results.filter((r) => r.orderId).map((r) => buyersRecorder.clockStart + r.endedAt),
  );
  const checkoutSeconds = paid > 0 ? (lastPaid - burstStart) / 1000 : burstSeconds;
  const ordersPerSecond = paid / checkoutSeconds;
  const journeyTimes = (journeys: Journey[]) =>
    journeys.map((j) => j.endedAt - j.startedAt).sort((a, b) => a - b);
  const buyerJourneySpread = spreadOf(journeyTimes(buyerJourneys));
  const readerJourneySpread = spreadOf(journeyTimes(readerJourneys));
  const paySpread = spreadOf(sortedTimes(buyerOutcomes.filter((o) => o.label === 'pay')));
  const everyOutcome = [
    ...buyerOutcomes.map((o) => ({ who: 'buyer', o })),
    ...readerOutcomes.map((o) => ({ who: 'reader', o })),
    ...browseRecorder.outcomes.map((o) => ({ who: 'browser', o })),
  ];
  const errors = everyOutcome.filter(({ o }) => isError(o));
  const failedJourneys = [...buyerJourneys, ...readerJourneys].filter((j) => !j.ok);

  log(
    `\n### Round ${round}${target.workers ? `, ${target.workers} worker(s)` : ''}${config.proxy ? ', through nginx' : ''}\n`,
  );
  log(
    `${config.buyers} buyers + ${config.readers} readers at once, ${config.browsers} anonymous and ${config.loggedInBrowsers} logged-in visitors browsing from ${config.idleSeconds} s before. Burst: ${burstSeconds.toFixed(1)} s; ${paid} orders paid in ${checkoutSeconds.toFixed(1)} s: **${ordersPerSecond.toFixed(1)} orders/s**.\n`,
  );
  const machineBusy =
    (cpuAfter.machine.busy - cpuBefore.machine.busy) /
    Math.max(1, cpuAfter.machine.total - cpuBefore.machine.total);
  const clientCpuSeconds = (cpuAfter.client.user + cpuAfter.client.system) / 1e6;
  // The burst's work, whoever did it (server, PostgreSQL, nginx, this generator): those arriving
  // in the same second cannot all be done before the machine has done it, whatever the order.
  const cores = os.availableParallelism();
  const coreSeconds = machineBusy * cores * burstSeconds;
  const journeys = config.buyers + config.readers;
  log(
    `CPU during the burst: the machine's ${cores} cores ${(machineBusy * 100).toFixed(0)} % busy, ${coreSeconds.toFixed(1)} core-seconds (${journeys > 0 ? ((coreSeconds / journeys) * 1000).toFixed(0) : '–'} ms a journey); this load generator ${clientCpuSeconds.toFixed(1)} s of it (${((clientCpuSeconds / burstSeconds) * 100).toFixed(0)} % of a core). With every core on it, this work alone takes ${(coreSeconds / cores).toFixed(1)} s: the least the last of those arriving together can wait.\n`,
  );
  log(STEP_HEADER.join('\n'));
  for (const row of stepRows('buyer', buyerOutcomes)) log(row);
  for (const row of stepRows('reader', readerOutcomes)) log(row);
  for (const row of stepRows('visitor', browseRecorder.outcomes)) log(row);
  log('\n| Journey | n | failed | p50 ms | p95 ms | p99 ms | max ms |');
  log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [name, spread, journeys] of [
    ['buyer: login → pay → order complete → reader', buyerJourneySpread, buyerJourneys],
    ['reader: login → shelf → reader → chapter', readerJourneySpread, readerJourneys],
  ] as const) {
    log(
      `| ${name} | ${spread.n} | ${journeys.filter((j) => !j.ok).length} | ${ms(spread.p50)} | ${ms(spread.p95)} | ${ms(spread.p99)} | ${ms(spread.max)} |`,
    );
  }
  log(
    '\n| Browsing | idle n | idle p50 / p99 ms | burst n | burst p50 / p99 ms | p99 burst ÷ idle |',
  );
  log('|---|---:|---:|---:|---:|---:|');
  for (const [name, idle, burst] of [
    ['product page, anonymous', anonIdle, anonBurst],
    ['product page, logged in', knownIdle, knownBurst],
    [
      'search, anonymous',
      browseIn('search (anonymous)', 'idle'),
      browseIn('search (anonymous)', 'burst'),
    ],
  ] as const) {
    log(
      `| ${name} | ${idle.n} | ${ms(idle.p50)} / ${ms(idle.p99)} | ${burst.n} | ${ms(burst.p50)} / ${ms(burst.p99)} | ×${ratio(burst, idle).toFixed(1)} |`,
    );
  }
  const lag = spreadOf(mails.lagsMs);
  log(
    '\n| Confirmation mails | paid orders | mails | sent | unsent | lag p50 ms | lag p95 ms | lag max ms | waited s |',
  );
  log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  log(
    `| paid_at → sent_at | ${paid} | ${mails.total} | ${mails.total - mails.unsent} | ${mails.unsent} | ${ms(lag.p50)} | ${ms(lag.p95)} | ${ms(lag.max)} | ${(mails.waitedMs / 1000).toFixed(1)} |`,
  );
  log('\n| Database afterwards | count |');
  log('|---|---:|');
  for (const [name, n] of Object.entries(invariants.counts)) log(`| ${name} | ${n} |`);
  log(`| lowest stock of any offering | ${consistency.lowestStock ?? 'none counted'} |`);
  log('');
  for (const line of metricsDelta(metricsBefore, metricsAfter)) log(line);
  log();
  for (const line of serverTimes(metricsBefore, metricsAfter)) log(line);
  if (errors.length > 0) {
    log('\nErrors by status:');
    for (const [key, n] of Object.entries(
      tally(errors, ({ who, o }) => `${who} ${o.label}: ${describeOutcome(o)}`),
    )) {
      log(`- ${n} × ${key}`);
    }
  }
  if (failedJourneys.length > 0) {
    log('\nFailed journeys (first 5):');
    for (const j of failedJourneys.slice(0, 5)) log(`- ${j.failure?.slice(0, 400)}`);
  }
  if (violations.length > 0) {
    log(`\nConsistency violations (${violations.length}, first 20):`);
    for (const v of violations.slice(0, 20)) log(`- ${v}`);
  }
  return {
    workers: target.workers,
    ordersPerSecond,
    payP99: figure(paySpread, paySpread.p99),
    journeyP99: figure(buyerJourneySpread, buyerJourneySpread.p99),
    anonymousRatio: ratio(anonBurst, anonIdle),
    loggedInRatio: ratio(knownBurst, knownIdle),
    mailP95: figure(lag, lag.p95),
    unsentMails: mails.unsent,
    errors: errors.length,
    failedJourneys: failedJourneys.length,
    violations,
  };
}

async function runRounds(target: Target): Promise<RoundFigures[]> {
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const catalog = await prepareCatalog(client, BOOKS_ON_SALE);
    if (catalog.readerBooks.length === 0) throw new Error('no EPUB for the readers');
    await warmUp(target.base, catalog, new Recorder(), config.timeoutMs);
    const figures: RoundFigures[] = [];
    for (let round = 1; round <= config.rounds; round += 1) {
      figures.push(await runRound(target, client, catalog, round));
    }
    return figures;
  } finally {
    await client.end();
  }
}

async function runSustainedRounds(target: Target, relay: Relay): Promise<SustainedFigures[]> {
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const catalog = await prepareCatalog(client, BOOKS_ON_SALE);
    await warmUp(target.base, catalog, new Recorder(), config.timeoutMs);
    const figures: SustainedFigures[] = [];
    for (let round = 1; round <= config.rounds; round += 1) {
      figures.push(
        await sustainedRound({
          base: target.base,
          client,
          catalog,
          relay,
          rate: config.sustain,
          seconds: config.sustainSeconds,
          timeoutMs: config.timeoutMs,
          drainSeconds: config.drainSeconds,
          prefix: `rush-s${round}-${Date.now().toString(36)}`,
          round,
          log,
        }),
      );
    }
    return figures;
  } finally {
    await client.end();
  }
}

/** Runs `work` on a server started here: its log printed if it throws, stopped either way. */
async function onTarget<T>(target: Target, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    log(`\nserver log:\n${target.logTail()}`);
    throw error;
  } finally {
    await target.stop();
  }
}

/** --sustain: a steady rate on a server of its own, the outbox over SMTP to a local relay. */
async function sustained(): Promise<number> {
  if (config.baseUrl || config.compareWorkers) {
    throw new Error(
      '--sustain starts its own server and relay: without --base-url or --compare-workers',
    );
  }
  const noPostgres = whyNoPostgres();
  if (noPostgres) throw new Error(noPostgres);
  const relay = await startRelay();
  const cluster = await startCluster();
  try {
    const target = await localTarget(cluster, config.workers, 'shelfmark_rush_sustained', relay);
    const figures = await onTarget(target, () => runSustainedRounds(target, relay));
    const met = sustainedVerdicts(figures, log);
    const broken = figures.some((f) => f.errors + f.failed > 0 || f.violations.length > 0);
    return broken || (config.strict && !met) ? 1 : 0;
  } finally {
    await cluster.destroy();
    await relay.stop();
  }
}

async function main(): Promise<number> {
  log(`## Rush week: ${args.join(' ') || '(defaults)'}\n`);
  if (config.sustain > 0) return sustained();
  const figures: RoundFigures[] = [];
  if (config.baseUrl) {
    if (!config.databaseUrl)
      throw new Error('--base-url needs --database-url (accounts and checks)');
    if (config.compareWorkers)
      throw new Error('--compare-workers starts its own servers: run without --base-url');
    const base = config.baseUrl.replace(/\/$/, '');
    figures.push(
      ...(await runRounds({
        base,
        databaseUrl: config.databaseUrl,
        metricsUrl: config.metricsUrl ?? `${base}/metrics`,
        workers: null,
        stop: async () => undefined,
        logTail: () => '',
      })),
    );
  } else {
    const noPostgres = whyNoPostgres();
    if (noPostgres) throw new Error(noPostgres);
    const cluster = await startCluster();
    const relay = config.smtp ? await startRelay() : null;
    try {
      const workerCounts = config.compareWorkers ? [1, 2] : [config.workers];
      for (const workers of workerCounts) {
        const target = await localTarget(cluster, workers, `shelfmark_rush_${workers}w`, relay);
        figures.push(...(await onTarget(target, () => runRounds(target))));
      }
    } finally {
      await cluster.destroy();
      await relay?.stop();
    }
  }
  summary(figures);
  let met = verdicts(figures);
  if (config.compareWorkers) {
    const median = (w: number) => {
      const values = figures
        .filter((f) => f.workers === w)
        .map((f) => f.ordersPerSecond)
        .sort((a, b) => a - b);
      return percentile(values, 50);
    };
    const speedup = median(2) / median(1);
    met &&= speedup >= TARGET.workersSpeedup;
    log(
      `- ${speedup >= TARGET.workersSpeedup ? 'PASS' : 'FAIL'}: checkout throughput 2 workers ≥ ${TARGET.workersSpeedup}× 1 worker — ${median(2).toFixed(1)} ÷ ${median(1).toFixed(1)} orders/s = ×${speedup.toFixed(2)} (medians)`,
    );
  }
  const broken = figures.some(
    (f) => f.errors > 0 || f.failedJourneys > 0 || f.violations.length > 0,
  );
  return broken || (config.strict && !met) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
