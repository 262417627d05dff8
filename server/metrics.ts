import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { Counter, collectDefaultMetrics, Gauge, Histogram, register } from 'prom-client';
import { type DatabaseHandle, queryRows } from '#db/client.ts';
import { type Admission, LANES } from './admission.ts';
import { answerPrimaryScrapes, isClusterWorker, machineMetrics } from './cluster-metrics.ts';
import type { Logger } from './logger.ts';

// Issue 40, "Operate it": the store's numbers in Prometheus's text format at GET /metrics
// (decision 042). The metrics live in prom-client's global registry, which is what its
// AggregatorRegistry reads from each worker of a node:cluster primary; each metric says how
// its workers' values combine (`aggregator`): counts and histograms add up, the database's
// numbers are the same whichever worker asks (`max`). In a worker of server/cluster.ts, the
// worker that takes a scrape answers with the whole machine's sum (server/cluster-metrics.ts).
//
// Labels have few values by construction: `route` is a route's pattern or one of ROUTE_LABELS,
// never a URL; `method` is one of METHODS or 'other'; `status_class` is '2xx'…'5xx'.

/** `route` of a request no route table answered. */
export const ROUTE_LABELS = {
  /** A static file of the client build. */
  static: 'static',
  /** A path no page or API call serves (the catch-all page, an unknown /api/ path). */
  unmatched: 'unmatched',
  /** Answered before a route was chosen (refused at the edge, CSRF, the database away). */
  unrouted: 'unrouted',
  /** This endpoint. */
  metrics: '/metrics',
} as const;

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** 5 ms … 10 s: a stored page is under 5 ms, a search about 50, a checkout up to seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How long one reading of the database's numbers serves scrapes (every worker asks). */
const DATABASE_READING_MS = 5_000;

/** The registered metric of that name, or a new one: a second app in a process (tests) reuses it. */
function once<M>(name: string, make: () => M): M {
  return (register.getSingleMetric(name) as M | undefined) ?? make();
}

const requests = once(
  'http_requests_total',
  () =>
    new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status class',
      labelNames: ['method', 'route', 'status_class'] as const,
      aggregator: 'sum',
    }),
);
const durations = once(
  'http_request_duration_seconds',
  () =>
    new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request reaching the server to the last byte of its answer',
      labelNames: ['method', 'route'] as const,
      buckets: DURATION_BUCKETS,
      aggregator: 'sum',
    }),
);
const serverErrors = once(
  'http_server_errors_total',
  () =>
    new Counter({
      name: 'http_server_errors_total',
      help: 'Requests answered 5xx, by method and route pattern',
      labelNames: ['method', 'route'] as const,
      aggregator: 'sum',
    }),
);
const overloads = once(
  'shelfmark_overloaded_requests_total',
  () =>
    new Counter({
      name: 'shelfmark_overloaded_requests_total',
      help: 'Requests answered 503 because every database connection stayed busy (DATABASE_POOL_WAIT_MS)',
      aggregator: 'sum',
    }),
);

// A worker answers the primary from the moment its code is loaded (server/cluster-metrics.ts).
answerPrimaryScrapes();

/** What the gauges read at scrape time: the database of the app this process serves. */
let source: { database: DatabaseHandle; log: Logger; admission?: Admission } | null = null;

type DatabaseReading = {
  backlog: number;
  parked: number;
  lagSeconds: number;
  paidLastMinute: number;
};
let reading: { at: number; value: Promise<DatabaseReading | null> } | null = null;

/**
 * The outbox and order numbers, read in one query on the partial indexes `outbox_pending` and
 * `orders_paid_at` and kept DATABASE_READING_MS: a scrape every few seconds from each worker
 * of each machine costs the database almost nothing.
 */
function databaseReading(): Promise<DatabaseReading | null> {
  const current = source;
  if (!current) return Promise.resolve(null);
  const now = Date.now();
  if (reading && now - reading.at < DATABASE_READING_MS) return reading.value;
  const value = queryRows<{
    backlog: number;
    parked: number;
    lag: number | null;
    paid: number;
  }>(
    current.database.db,
    sql`select
      (select count(*)::int from outbox where sent_at is null) as backlog,
      (select count(*)::int from outbox where sent_at is null and available_at = 'infinity') as parked,
      (select extract(epoch from now() - min(created_at))::float8 from outbox
        where sent_at is null and available_at < 'infinity') as lag,
      (select count(*)::int from orders where paid_at >= now() - interval '1 minute') as paid`,
  ).then(
    ([row]) => ({
      backlog: Number(row?.backlog ?? 0),
      parked: Number(row?.parked ?? 0),
      lagSeconds: Math.max(0, Number(row?.lag ?? 0)),
      paidLastMinute: Number(row?.paid ?? 0),
    }),
    (error: unknown) => {
      current.log.warn({ err: error }, 'metrics: the outbox and orders were not read');
      reading = null;
      return null;
    },
  );
  reading = { at: now, value };
  return value;
}

function databaseGauge(name: string, help: string, pick: (reading: DatabaseReading) => number) {
  once(
    name,
    () =>
      new Gauge({
        name,
        help,
        // Every worker and every machine reads the same database.
        aggregator: 'max',
        async collect() {
          const value = await databaseReading();
          if (value) this.set(pick(value));
        },
      }),
  );
}

databaseGauge(
  'shelfmark_outbox_backlog',
  'Outbox messages not sent yet (parked ones included)',
  (r) => r.backlog,
);
databaseGauge(
  'shelfmark_outbox_parked',
  'Outbox messages that failed every attempt and wait for a person',
  (r) => r.parked,
);
databaseGauge(
  'shelfmark_outbox_lag_seconds',
  'Age of the oldest outbox message still being tried (0: none waiting)',
  (r) => r.lagSeconds,
);
databaseGauge(
  'shelfmark_orders_paid_last_minute',
  'Orders that became paid in the last 60 seconds, whichever process took the payment',
  (r) => r.paidLastMinute,
);

function poolGauge(
  name: string,
  help: string,
  pick: (stats: NonNullable<ReturnType<DatabaseHandle['poolStats']>>) => number,
) {
  once(
    name,
    () =>
      new Gauge({
        name,
        help,
        // Each worker has a pool of its own: the machine's connections are their sum.
        aggregator: 'sum',
        collect() {
          const stats = source?.database.poolStats();
          if (stats) this.set(pick(stats));
        },
      }),
  );
}

/** Registered once a process opens a pool: PGlite has one session and no pool to report. */
function registerPoolGauges() {
  poolGauge(
    'db_pool_max_connections',
    'Largest number of connections the pool opens',
    (s) => s.max,
  );
  poolGauge('db_pool_connections', 'Connections the pool holds open', (s) => s.total);
  poolGauge('db_pool_idle_connections', 'Open connections not in use', (s) => s.idle);
  poolGauge('db_pool_waiting_queries', 'Queries waiting for a free connection', (s) => s.waiting);
}

/** Decision 044: requests worked on, and waiting by lane (server/admission.ts). */
function registerAdmissionGauges() {
  once(
    'shelfmark_requests_active',
    () =>
      new Gauge({
        name: 'shelfmark_requests_active',
        help: 'Requests being worked on (at most MAX_ACTIVE_REQUESTS a process)',
        aggregator: 'sum',
        collect() {
          const admission = source?.admission;
          if (admission) this.set(admission.active);
        },
      }),
  );
  once(
    'shelfmark_requests_waiting',
    () =>
      new Gauge({
        name: 'shelfmark_requests_waiting',
        help: 'Requests waiting their turn, by lane: finishing (checkout), browsing, arriving (log in)',
        labelNames: ['lane'] as const,
        aggregator: 'sum',
        collect() {
          const admission = source?.admission;
          if (!admission) return;
          for (const lane of LANES) this.set({ lane }, admission.waiting(lane));
        },
      }),
  );
}

/** Registered once a process has a read replica (DATABASE_READ_URL, issue 40). */
function registerReplicaGauges() {
  once(
    'db_read_replica_up',
    () =>
      new Gauge({
        name: 'db_read_replica_up',
        help: 'Whether catalog reads go to the read replica (1) or fell back to the primary (0)',
        // One worker that fell back is enough to say so.
        aggregator: 'min',
        collect() {
          const replica = source?.database.replica;
          if (replica) this.set(replica.isUp() ? 1 : 0);
        },
      }),
  );
  once(
    'db_read_replica_pool_connections',
    () =>
      new Gauge({
        name: 'db_read_replica_pool_connections',
        help: 'Connections the read replica pool holds open',
        aggregator: 'sum',
        collect() {
          const stats = source?.database.replica?.poolStats();
          if (stats) this.set(stats.total);
        },
      }),
  );
}

/** The route of the request being answered, noted by whoever knows it; read when it ends. */
const exchanges = new AsyncLocalStorage<{ route: string }>();

/** Notes the request's route label ('/product/:slug', or one of ROUTE_LABELS). */
export function noteRoute(route: string): void {
  const exchange = exchanges.getStore();
  if (exchange) exchange.route = route;
}

/** A page pattern React Router matched, as a label: leading slash; the catch-all is unmatched. */
export function pageRouteLabel(pattern: string | null): string {
  if (pattern === null) return ROUTE_LABELS.unrouted;
  if (pattern === '*' || pattern === '/*') return ROUTE_LABELS.unmatched;
  return pattern.startsWith('/') ? pattern : `/${pattern}`;
}

export function noteOverload(): void {
  overloads.inc();
}

export type MetricsOptions = {
  database: DatabaseHandle;
  /** The requests this process works on and those waiting their turn (decision 044). */
  admission?: Admission;
  log: Logger;
  /** METRICS_TOKEN: a scraper presents it as `Authorization: Bearer …`; unset, loopback only. */
  token?: string;
};

export type Metrics = {
  /** The listener that times every request and answers GET /metrics itself. */
  observe(
    inner: (req: IncomingMessage, res: ServerResponse) => void,
  ): (req: IncomingMessage, res: ServerResponse) => void;
  /** Stops reading this app's database. */
  close(): void;
};

export function createMetrics(options: MetricsOptions): Metrics {
  // Event loop lag, heap and RSS, GC pauses, open handles, CPU (prom-client's defaults), once
  // a process however many times this module is loaded (tests load it once per file).
  if (!register.getSingleMetric('nodejs_eventloop_lag_seconds')) {
    collectDefaultMetrics({ register });
  }
  if (options.database.poolStats()) registerPoolGauges();
  if (options.admission) registerAdmissionGauges();
  if (options.database.replica) registerReplicaGauges();
  const own = { database: options.database, log: options.log, admission: options.admission };
  source = own;
  reading = null;
  const tokenDigest = options.token ? digest(options.token) : null;

  return {
    observe(inner) {
      return (req, res) => {
        const started = process.hrtime.bigint();
        const exchange = { route: ROUTE_LABELS.unrouted as string };
        res.once('close', () => {
          const method = METHODS.has(req.method ?? '') ? req.method! : 'other';
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          const status = res.statusCode;
          const route = exchange.route;
          requests.inc({ method, route, status_class: `${Math.floor(status / 100)}xx` });
          durations.observe({ method, route }, seconds);
          if (status >= 500) serverErrors.inc({ method, route });
        });
        if (isMetricsRequest(req)) {
          exchange.route = ROUTE_LABELS.metrics;
          void answerMetrics(req, res, tokenDigest, options.log);
          return;
        }
        exchanges.run(exchange, () => inner(req, res));
      };
    },
    close() {
      if (source === own) {
        source = null;
        reading = null;
      }
    },
  };
}

function isMetricsRequest(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url ?? '';
  return url === '/metrics' || url.startsWith('/metrics?');
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** A proxy on this machine connects from loopback: what it forwards is not from here. */
const FORWARDED = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * Who may read the metrics: with METRICS_TOKEN, whoever presents it (401 otherwise); without,
 * a client on this machine that is not a proxy forwarding someone (404 for everyone else, as
 * if there were nothing here).
 */
export function metricsAccess(
  req: Pick<IncomingMessage, 'headers'> & { socket: { remoteAddress?: string } },
  tokenDigest: Buffer | null,
): 200 | 401 | 404 {
  if (tokenDigest) {
    const header = req.headers.authorization ?? '';
    const presented = /^Bearer (\S+)$/i.exec(header)?.[1];
    return presented && timingSafeEqual(digest(presented), tokenDigest) ? 200 : 401;
  }
  const local = LOOPBACK.has(req.socket.remoteAddress ?? '');
  return local && !FORWARDED.some((name) => req.headers[name] !== undefined) ? 200 : 404;
}

async function answerMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  tokenDigest: Buffer | null,
  log: Logger,
): Promise<void> {
  // Never stored by anyone: not by a shared cache, not by the page cache (never reached).
  const headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
  const access = metricsAccess(req, tokenDigest);
  if (access !== 200) {
    res.writeHead(access, {
      ...headers,
      'Content-Type': 'text/plain; charset=utf-8',
      ...(access === 401 ? { 'WWW-Authenticate': 'Bearer realm="metrics"' } : {}),
    });
    res.end(access === 401 ? 'Unauthorized\n' : 'Not Found\n');
    return;
  }
  try {
    // One process: its own registry. A worker: every worker's, summed by the primary.
    const body = isClusterWorker() ? await machineMetrics() : await register.metrics();
    res.writeHead(200, { ...headers, 'Content-Type': register.contentType });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch (error) {
    log.error({ err: error }, 'metrics');
    res.writeHead(500, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Internal Server Error\n');
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
