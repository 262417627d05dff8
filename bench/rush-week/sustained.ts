// bench/rush-week.ts --sustain R: issue 40's "a sustained 20 orders/s builds no backlog". Buyers
// already logged in place orders at a steady R a second for --sustain-seconds (order i starts
// at i/R s; each buyer buys each book on sale once, ten seconds or so apart), through the real
// form path (cart, checkout, Pay, order complete), while the outbox hands every confirmation to
// a real SMTP server on 127.0.0.1 (relay.ts). The database's unsent mails are counted every
// second: a backlog is a count that grows with time instead of staying near R × the lag.
import type pg from 'pg';
import {
  Buyer,
  type CheckoutResult,
  checkConsistency,
  Recorder,
  sleep,
  stockOf,
} from '../../tests/resilience/harness.ts';
import { type Catalog, drainMails, makeAccounts, rushInvariants } from './fixture.ts';
import type { Relay } from './relay.ts';
import { isError, ms, STEP_HEADER, sortedTimes, spreadOf, stepRows } from './stats.ts';

export type SustainedFigures = {
  rate: number;
  achieved: number;
  payP99: number;
  lateP99: number;
  maxBacklog: number;
  unsent: number;
  mailP95: number;
  duplicates: number;
  errors: number;
  failed: number;
  violations: string[];
};

/** A backlog: more unsent mails than this many seconds of orders. */
export const BACKLOG_SECONDS = 5;

export async function sustainedRound(input: {
  base: string;
  client: pg.Client;
  catalog: Catalog;
  relay: Relay;
  rate: number;
  seconds: number;
  timeoutMs: number;
  drainSeconds: number;
  prefix: string;
  round: number;
  log: (line?: string) => void;
}): Promise<SustainedFigures> {
  const { client, catalog, rate, log } = input;
  const total = Math.round(rate * input.seconds);
  const books = catalog.offerings;
  const buyerCount = Math.ceil(total / books.length);
  const accounts = await makeAccounts(
    client,
    input.prefix,
    { buyers: buyerCount, readers: 0, loggedIn: 0 },
    catalog.readerBooks,
  );
  const recorder = new Recorder();
  const buyers = accounts.buyers.map((account) => {
    const buyer = new Buyer(recorder, () => input.base, account.email, account.userId);
    buyer.requestTimeoutMs = input.timeoutMs;
    return buyer;
  });
  // Logged in beforehand, eight at a time: this run is about orders and mail, not the door.
  for (let at = 0; at < buyers.length; at += 8) {
    const done = await Promise.all(buyers.slice(at, at + 8).map((b) => b.logIn()));
    if (done.some((ok) => !ok)) throw new Error('a buyer could not log in before the run');
  }
  const stockBefore = await stockOf(
    client,
    books.map((b) => b.offeringId),
  );
  const relayBefore = input.relay.received();
  const duplicatesBefore = new Set(input.relay.duplicates());

  // The outbox's unsent mails, every second, until the drain ends.
  const samples: { at: number; unsent: number }[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      try {
        const { rows } = await client.query<{ n: number }>(
          'select count(*)::int n from outbox where sent_at is null',
        );
        samples.push({ at: recorder.now(), unsent: rows[0]?.n ?? 0 });
      } catch {
        // A missed reading leaves a gap in the series, not the run.
      }
      await sleep(1000);
    }
  })();

  const startAt = recorder.now() + 1000;
  const late: number[] = [];
  const results: CheckoutResult[] = [];
  const failures: string[] = [];
  await Promise.all(
    buyers.map(async (buyer, b) => {
      for (let k = 0; k < books.length; k += 1) {
        const i = k * buyerCount + b;
        if (i >= total) return;
        const due = startAt + (i * 1000) / rate;
        const wait = due - recorder.now();
        if (wait > 0) await sleep(wait);
        late.push(Math.max(0, recorder.now() - due));
        const giveUpAt = recorder.now() + 60_000;
        const result = await buyer.checkout(
          { offeringIds: [books[k]!.offeringId], needsAddress: false },
          () => giveUpAt,
          () => 500,
        );
        results.push(result);
        if (!result.orderId) {
          failures.push(result.failure ?? 'no order');
          continue;
        }
        if (!(await buyer.orderComplete(result.orderId))) failures.push('order-complete page');
      }
    }),
  );
  const ordersEnd = recorder.now();
  const orderIds = results.flatMap((r) => (r.orderId ? [r.orderId] : []));
  const mails = await drainMails(client, orderIds, input.drainSeconds * 1000);
  sampling = false;
  await sampler;

  const paid = orderIds.length;
  const lastPaid = Math.max(startAt, ...results.filter((r) => r.orderId).map((r) => r.endedAt));
  // Orders paid over the time their starts took (the last start, plus one interval): the pace
  // held, apart from how long the last order itself took.
  const lastStart = Math.max(startAt, ...results.map((r) => r.startedAt));
  const achieved = paid / ((lastStart - startAt) / 1000 + 1 / rate);
  const during = samples.filter((s) => s.at >= startAt && s.at <= ordersEnd);
  const maxBacklog = Math.max(0, ...during.map((s) => s.unsent));
  const lateSpread = spreadOf([...late].sort((a, b) => a - b));
  const pay = spreadOf(sortedTimes(recorder.outcomes.filter((o) => o.label === 'pay')));
  const lag = spreadOf(mails.lagsMs);
  const timed = recorder.outcomes.filter((o) => o.startedAt >= startAt);
  const errors = timed.filter(isError).length;
  const buyerIds = accounts.buyers.map((a) => a.userId);
  const consistency = await checkConsistency(client, buyerIds, results, stockBefore);
  const invariants = await rushInvariants(client, buyerIds);
  const duplicates = input.relay.duplicates().filter((id) => !duplicatesBefore.has(id));
  const violations = [
    ...consistency.violations,
    ...invariants.violations,
    ...duplicates.map((id) => `the relay received ${id} more than once`),
  ];

  log(`\n### Sustained round ${input.round}: ${rate} orders/s for ${input.seconds} s\n`);
  log(
    `${total} orders by ${buyerCount} buyers logged in beforehand, order i started at i/${rate} s. ${paid} paid, started over ${((lastStart - startAt) / 1000).toFixed(1)} s: **${achieved.toFixed(1)} orders/s**, the last paid ${((lastPaid - startAt) / 1000).toFixed(1)} s after the first start; starts late p50 / p99 ${ms(lateSpread.p50)} / ${ms(lateSpread.p99)} ms.\n`,
  );
  log(STEP_HEADER.join('\n'));
  for (const row of stepRows('buyer', timed)) log(row);
  log('\n| Outbox, unsent mails (every second) | max in each 5 s from the first order |');
  log('|---|---|');
  const buckets: number[] = [];
  for (const s of samples.filter((s) => s.at >= startAt)) {
    const n = Math.floor((s.at - startAt) / 5000);
    buckets[n] = Math.max(buckets[n] ?? 0, s.unsent);
  }
  log(`| while ordering, then draining | ${buckets.map((n) => n ?? '·').join(' ')} |`);
  log(
    `\nMost unsent while ordering: ${maxBacklog} (a backlog above ${BACKLOG_SECONDS} s of orders: ${BACKLOG_SECONDS * rate}).`,
  );
  log(
    '\n| Confirmation mails | paid orders | sent | unsent | lag p50 ms | lag p95 ms | lag max ms |',
  );
  log('|---|---:|---:|---:|---:|---:|---:|');
  log(
    `| paid_at → sent_at | ${paid} | ${mails.total - mails.unsent} | ${mails.unsent} | ${ms(lag.p50)} | ${ms(lag.p95)} | ${ms(lag.max)} |`,
  );
  log(
    `\nThe SMTP relay received ${input.relay.received() - relayBefore} mails this round (${duplicates.length} Message-IDs twice; at most ${input.relay.mostConnections()} connections open at once).`,
  );
  log('\n| Database afterwards | count |');
  log('|---|---:|');
  for (const [name, n] of Object.entries(invariants.counts)) log(`| ${name} | ${n} |`);
  if (failures.length > 0) {
    log('\nFailed orders (first 5):');
    for (const failure of failures.slice(0, 5)) log(`- ${failure.slice(0, 400)}`);
  }
  if (violations.length > 0) {
    log(`\nConsistency violations (${violations.length}, first 20):`);
    for (const v of violations.slice(0, 20)) log(`- ${v}`);
  }
  return {
    rate,
    achieved,
    payP99: pay.p99,
    lateP99: lateSpread.p99,
    maxBacklog,
    unsent: mails.unsent,
    mailP95: lag.p95,
    duplicates: duplicates.length,
    errors,
    failed: failures.length,
    violations,
  };
}

/** The sustained targets (issue 40): PASS or FAIL each; true when all pass. */
export function sustainedVerdicts(
  figures: SustainedFigures[],
  log: (line?: string) => void,
): boolean {
  const lines: [string, boolean, string][] = [];
  for (const [n, f] of figures.entries()) {
    const round = figures.length > 1 ? ` (round ${n + 1})` : '';
    lines.push(
      [
        `0 errors, every order paid${round}`,
        f.errors + f.failed === 0,
        `${f.errors} errors, ${f.failed} failed`,
      ],
      [
        `nothing lost or doubled, in the database and at the relay${round}`,
        f.violations.length === 0,
        `${f.violations.length} violations`,
      ],
      [
        `the pace held: ≥ 95 % of ${f.rate} orders/s${round}`,
        f.achieved >= 0.95 * f.rate,
        `${f.achieved.toFixed(1)} orders/s`,
      ],
      [
        `no backlog: never more than ${BACKLOG_SECONDS} s of orders unsent, all sent at the end${round}`,
        f.maxBacklog <= BACKLOG_SECONDS * f.rate && f.unsent === 0,
        `most ${f.maxBacklog}, unsent ${f.unsent}`,
      ],
      [`mail lag p95 ≤ 10 s${round}`, f.mailP95 <= 10_000, `${ms(f.mailP95)} ms`],
    );
  }
  log('\n### Targets (issue 40, sustained)\n');
  for (const [name, ok, value] of lines) log(`- ${ok ? 'PASS' : 'FAIL'}: ${name} — ${value}`);
  return lines.every(([, ok]) => ok);
}
