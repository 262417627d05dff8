// What bench/rush-week.ts prints after its rounds: the targets as PASS/FAIL lines,
// the spread over rounds, and /metrics before against after.
import { type Sample, sumOf } from './stats.ts';

/** The targets (issue 40, "Measured"). */
export const TARGET = {
  payP99Ms: 1_500,
  journeyP99Ms: 8_000,
  anonymousRatio: 3,
  loggedInRatio: 5,
  mailP95Ms: 10_000,
  workersSpeedup: 1.7,
};

/** One round's figures; NaN where the round had nothing to measure (a FAIL). */
export type RoundFigures = {
  workers: number | null;
  ordersPerSecond: number;
  payP99: number;
  journeyP99: number;
  anonymousRatio: number;
  loggedInRatio: number;
  mailP95: number;
  unsentMails: number;
  errors: number;
  failedJourneys: number;
  violations: string[];
};

const log = (line = '') => console.log(line);

export function metricsDelta(before: Sample[] | null, after: Sample[] | null): string[] {
  if (!before || !after) {
    return [
      '/metrics: not readable here (behind a proxy? give --metrics-url, or METRICS_TOKEN is set)',
    ];
  }
  const delta = (name: string, where: Record<string, string> = {}) =>
    sumOf(after, name, where) - sumOf(before, name, where);
  const rows = [
    '| /metrics | before → after | change |',
    '|---|---:|---:|',
    ...['2xx', '3xx', '4xx', '5xx'].map(
      (cls) =>
        `| http_requests_total{status_class="${cls}"} | ${sumOf(before, 'http_requests_total', { status_class: cls })} → ${sumOf(after, 'http_requests_total', { status_class: cls })} | ${delta('http_requests_total', { status_class: cls })} |`,
    ),
    ...[
      'http_server_errors_total',
      'shelfmark_overloaded_requests_total',
      'shelfmark_outbox_backlog',
      'shelfmark_outbox_parked',
      'shelfmark_outbox_lag_seconds',
      'shelfmark_orders_paid_last_minute',
      'db_pool_connections',
      'db_pool_waiting_queries',
      'process_cpu_seconds_total',
    ].map(
      (name) => `| ${name} | ${sumOf(before, name)} → ${sumOf(after, name)} | ${delta(name)} |`,
    ),
  ];
  return rows;
}

/** min–max of the rounds' figures; a round without the figure (no answers to measure) says so. */
export const range = (values: number[], digits = 0) => {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  const missing = values.length - finite.length;
  const f = (n: number) => n.toFixed(digits);
  const text =
    finite.length === 0
      ? 'n/a'
      : finite.length > 1
        ? `${f(finite[0]!)}–${f(finite.at(-1)!)}`
        : f(finite[0]!);
  return missing > 0 && finite.length > 0 ? `${text} (n/a in ${missing})` : text;
};
const worst = (values: number[]) => Math.max(...values);

export function verdicts(figures: RoundFigures[]): boolean {
  const lines: [string, boolean, string][] = [
    [
      '0 errors (no answer or 4xx/5xx, no failed journey)',
      figures.every((f) => f.errors === 0 && f.failedJourneys === 0),
      `${figures.map((f) => f.errors + f.failedJourneys).join(', ')}`,
    ],
    [
      'nothing lost or doubled (database checks)',
      figures.every((f) => f.violations.length === 0),
      `${figures.map((f) => f.violations.length).join(', ')} violations`,
    ],
    [
      `pay p99 ≤ ${TARGET.payP99Ms} ms`,
      worst(figures.map((f) => f.payP99)) <= TARGET.payP99Ms,
      `${range(figures.map((f) => f.payP99))} ms`,
    ],
    [
      `journey p99 ≤ ${TARGET.journeyP99Ms} ms`,
      worst(figures.map((f) => f.journeyP99)) <= TARGET.journeyP99Ms,
      `${range(figures.map((f) => f.journeyP99))} ms`,
    ],
    [
      `anonymous product page p99 burst ≤ ${TARGET.anonymousRatio}× idle`,
      worst(figures.map((f) => f.anonymousRatio)) <= TARGET.anonymousRatio,
      `×${range(
        figures.map((f) => f.anonymousRatio),
        1,
      )}`,
    ],
    [
      `logged-in product page p99 burst ≤ ${TARGET.loggedInRatio}× idle`,
      worst(figures.map((f) => f.loggedInRatio)) <= TARGET.loggedInRatio,
      `×${range(
        figures.map((f) => f.loggedInRatio),
        1,
      )}`,
    ],
    [
      `every confirmation sent, p95 lag ≤ ${TARGET.mailP95Ms} ms`,
      figures.every((f) => f.unsentMails === 0 && f.mailP95 <= TARGET.mailP95Ms),
      `${range(figures.map((f) => f.mailP95))} ms, unsent ${figures.map((f) => f.unsentMails).join(', ')}`,
    ],
  ];
  log('\n### Targets (issue 40)\n');
  for (const [name, pass, got] of lines) log(`- ${pass ? 'PASS' : 'FAIL'}: ${name} — ${got}`);
  return lines.every(([, pass]) => pass);
}

export function summary(figures: RoundFigures[]) {
  log('\n### Spread over rounds\n');
  log(
    '| Workers | Rounds | orders/s | pay p99 ms | journey p99 ms | anon ×idle | logged-in ×idle | mail lag p95 ms |',
  );
  log('|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const workers of [...new Set(figures.map((f) => f.workers))]) {
    const mine = figures.filter((f) => f.workers === workers);
    log(
      `| ${workers ?? 'as deployed'} | ${mine.length} | ${range(
        mine.map((f) => f.ordersPerSecond),
        1,
      )} | ${range(mine.map((f) => f.payP99))} | ${range(mine.map((f) => f.journeyP99))} | ${range(
        mine.map((f) => f.anonymousRatio),
        1,
      )} | ${range(
        mine.map((f) => f.loggedInRatio),
        1,
      )} | ${range(mine.map((f) => f.mailP95))} |`,
    );
  }
}

/**
 * The server's own time for its busiest routes over the round (http_request_duration_seconds,
 * before against after): what the server took, without the load generator's own waits (it
 * shares the cores). p50/p99 are the upper bounds of the histogram's buckets.
 */
export function serverTimes(before: Sample[] | null, after: Sample[] | null, top = 8): string[] {
  if (!before || !after) return [];
  const name = 'http_request_duration_seconds_bucket';
  const series = new Map<string, Map<string, number>>();
  for (const s of after) {
    if (s.name !== name) continue;
    const key = `${s.labels.method} ${s.labels.route}`;
    const earlier = sumOf(before, name, s.labels);
    const buckets = series.get(key) ?? new Map<string, number>();
    buckets.set(s.labels.le!, s.value - earlier);
    series.set(key, buckets);
  }
  const quantile = (buckets: Map<string, number>, q: number) => {
    const total = buckets.get('+Inf') ?? 0;
    const bounds = [...buckets.keys()]
      .filter((le) => le !== '+Inf')
      .map(Number)
      .sort((a, b) => a - b);
    for (const le of bounds) {
      if ((buckets.get(String(le)) ?? 0) >= q * total) return `≤ ${Math.round(le * 1000)}`;
    }
    return '> 10000';
  };
  const rows = [...series]
    .map(([key, buckets]) => ({ key, buckets, n: buckets.get('+Inf') ?? 0 }))
    .filter((r) => r.n > 0)
    .sort((a, b) => b.n - a.n)
    .slice(0, top)
    .map(
      (r) => `| ${r.key} | ${r.n} | ${quantile(r.buckets, 0.5)} | ${quantile(r.buckets, 0.99)} |`,
    );
  return [
    '| Server time (its own histogram, whole round) | requests | p50 ms | p99 ms |',
    '|---|---:|---:|---:|',
    ...rows,
  ];
}
