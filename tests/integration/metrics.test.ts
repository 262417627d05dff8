import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isNull, sql } from 'drizzle-orm';
import type { ServerBuild } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { outbox } from '#db/schema/events.ts';
import { type App, createApp } from '#server/app.ts';
import { metricsAccess } from '#server/metrics.ts';
import { routePatternInstrumentation } from '#server/route-pattern.ts';
import { openTestDatabase, unique } from '#tests/database.ts';

// Issue 40: requests through the real app and edge (server/app.ts), then GET /metrics. React
// Router runs a small build of three routes here, with the instrumentation web/entry.server.tsx
// exports; the API is the real one.

const TOKEN = 'metrics-token-for-the-test';

const build = {
  entry: {
    module: {
      default: (_request: Request, status: number, headers: Headers) => {
        headers.set('Content-Type', 'text/html; charset=utf-8');
        return new Response('<!DOCTYPE html><p>page</p>', { status, headers });
      },
      instrumentations: [routePatternInstrumentation],
    },
  },
  routes: {
    root: { id: 'root', path: '', module: { loader: () => null } },
    'routes/product': {
      id: 'routes/product',
      parentId: 'root',
      path: 'product/:slug',
      module: { loader: ({ params }: { params: { slug: string } }) => ({ slug: params.slug }) },
    },
    'routes/not-found': {
      id: 'routes/not-found',
      parentId: 'root',
      path: '*',
      module: {
        loader: () => {
          throw new Response('Not Found', { status: 404 });
        },
      },
    },
  },
  assets: { entry: { module: '/entry.js', imports: [] }, routes: {}, url: '/m.js', version: '1' },
  publicPath: '/',
  assetsBuildDirectory: 'build/client',
  future: {},
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
} as unknown as ServerBuild;

let database: DatabaseHandle;
let app: App;
let server: http.Server;
let base: string;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await createApp({
    build,
    database,
    env: {
      NODE_ENV: 'test',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'shelfmark-metrics-')),
      DEMO_DATA: 'off',
      LOG_LEVEL: 'silent',
      METRICS_TOKEN: TOKEN,
    },
  });
  server = http.createServer(app.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await app?.close();
});

async function get(pathname: string, headers: Record<string, string> = {}) {
  const response = await fetch(base + pathname, { headers });
  await response.text();
  return response;
}

async function scrape(): Promise<string> {
  const response = await fetch(`${base}/metrics`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one series (`name{labels}` exactly as prom-client writes it), 0 when absent. */
function seriesValue(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('GET /metrics (issue 40)', () => {
  // First in the file: the database's numbers are read at most every 5 s.
  it('the outbox backlog is the number of messages not sent yet', async () => {
    const later = new Date(Date.now() + 3_600_000);
    await database.db.insert(outbox).values(
      [1, 2, 3].map(() => ({
        kind: 'order-confirmation',
        dedupeKey: unique('metrics'),
        payload: {},
        availableAt: later,
      })),
    );
    const [unsent] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(isNull(outbox.sentAt));
    const text = await scrape();
    expect(unsent!.n).toBeGreaterThanOrEqual(3);
    expect(seriesValue(text, 'shelfmark_outbox_backlog')).toBe(Number(unsent!.n));
    expect(seriesValue(text, 'shelfmark_outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('shelfmark_orders_paid_last_minute ');
    // Prometheus's defaults for a Node process: event loop lag, memory, GC.
    expect(text).toContain('nodejs_eventloop_lag_seconds ');
    expect(text).toContain('process_resident_memory_bytes ');
    // Decision 044: requests worked on and waiting by lane; the scrape itself waits in none.
    expect(text).toContain('shelfmark_requests_active ');
    for (const lane of ['finishing', 'browsing', 'arriving']) {
      expect(seriesValue(text, `shelfmark_requests_waiting{lane="${lane}"}`)).toBe(0);
      expect(text).toContain(`shelfmark_requests_waiting{lane="${lane}"} 0`);
    }
    // The pool's use on PostgreSQL; PGlite has one session and no pool.
    if (database.kind === 'postgres') {
      expect(seriesValue(text, 'db_pool_max_connections')).toBeGreaterThan(0);
      expect(text).toContain('db_pool_waiting_queries 0');
    } else {
      expect(text).not.toContain('db_pool_connections ');
    }
  });

  it('counts and times a page by its route pattern, never by its URL', async () => {
    const slugs = [unique('first-book'), unique('second-book')];
    const count = 'http_requests_total{method="GET",route="/product/:slug",status_class="2xx"}';
    const timed = 'http_request_duration_seconds_count{method="GET",route="/product/:slug"}';
    const before = await scrape();
    for (const slug of slugs) expect((await get(`/product/${slug}`)).status).toBe(200);
    const after = await scrape();
    expect(seriesValue(after, count) - seriesValue(before, count)).toBe(2);
    expect(seriesValue(after, timed) - seriesValue(before, timed)).toBe(2);
    expect(after).toContain(
      'http_request_duration_seconds_bucket{le="10",method="GET",route="/product/:slug"}',
    );
    for (const slug of slugs) expect(after).not.toContain(slug);
  });

  it('labels a URL no route serves "unmatched", not by its path', async () => {
    const nowhere = unique('no-such-page');
    const series = 'http_requests_total{method="GET",route="unmatched",status_class="4xx"}';
    const before = await scrape();
    expect((await get(`/${nowhere}/at/all`)).status).toBe(404);
    expect((await get(`/api/${nowhere}`)).status).toBe(404);
    const after = await scrape();
    expect(seriesValue(after, series) - seriesValue(before, series)).toBe(2);
    expect(after).not.toContain(nowhere);
  });

  it('labels an API call by its pattern', async () => {
    const series =
      'http_requests_total{method="GET",route="/api/catalog-items/:id",status_class="4xx"}';
    const before = await scrape();
    await get('/api/catalog-items/987654321', { Accept: 'application/vnd.api+json' });
    const after = await scrape();
    expect(seriesValue(after, series) - seriesValue(before, series)).toBe(1);
    expect(after).not.toContain('987654321');
  });

  it('answers only with the token, and is never stored', async () => {
    expect((await get('/metrics')).status).toBe(401);
    expect((await get('/metrics', { Authorization: 'Bearer not-the-token-at-all' })).status).toBe(
      401,
    );
    const response = await fetch(`${base}/metrics`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    await response.text();
  });

  it('without a token, answers only this machine, and not through a proxy', () => {
    const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
      metricsAccess({ headers, socket: { remoteAddress } }, null);
    expect(from('127.0.0.1')).toBe(200);
    expect(from('::1')).toBe(200);
    expect(from('203.0.113.9')).toBe(404);
    expect(from('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).toBe(404);
    expect(from('127.0.0.1', { forwarded: 'for=203.0.113.9' })).toBe(404);
  });
});
