import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerProbe, DatabaseReadiness, probeOf, READY_REUSE_MS } from './probes.ts';

// Issue 40: what a load balancer asks each process, /healthz and /readyz.

describe('issue 40: which requests are probes', () => {
  it('names /healthz and /readyz, with or without a query, and nothing else', () => {
    expect(probeOf('/healthz')).toBe('health');
    expect(probeOf('/readyz?from=haproxy')).toBe('ready');
    expect(probeOf('/healthz/')).toBeNull();
    expect(probeOf('/api/healthz')).toBeNull();
    expect(probeOf('/')).toBeNull();
  });
});

describe('issue 40: the database answers, asked once for many probes', () => {
  it('shares one question among probes at once and reuses its answer for a second', async () => {
    let clock = 0;
    let asked = 0;
    const readiness = new DatabaseReadiness(
      async () => {
        asked += 1;
      },
      () => clock,
    );
    expect(await Promise.all([readiness.answers(), readiness.answers()])).toEqual([true, true]);
    clock += READY_REUSE_MS - 1;
    expect(await readiness.answers()).toBe(true);
    expect(asked).toBe(1);
    clock += 1;
    await readiness.answers();
    expect(asked).toBe(2);
  });

  it('is not ready when the database refuses, or does not answer within the timeout', async () => {
    const refused = new DatabaseReadiness(() => Promise.reject(new Error('ECONNREFUSED')));
    expect(await refused.answers()).toBe(false);
    const silent = new DatabaseReadiness(() => new Promise(() => {}));
    const started = performance.now();
    expect(await silent.answers()).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

describe('issue 40: the probes over HTTP', () => {
  let ready = true;
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (!answerProbe(req, res, async () => ready)) {
        res.writeHead(418).end('not a probe');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('/healthz is 200 plain text, never stored', async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe('ok\n');
  });

  it('/readyz is 200 while ready and 503 with Retry-After when not; HEAD has no body', async () => {
    ready = true;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    ready = false;
    const refused = await fetch(`${base}/readyz`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    const head = await fetch(`${base}/readyz`, { method: 'HEAD' });
    expect(head.status).toBe(503);
    expect(await head.text()).toBe('');
    ready = true;
  });

  it('refuses other methods with 405 and leaves other paths alone', async () => {
    const posted = await fetch(`${base}/healthz`, { method: 'POST', body: 'x' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    expect((await fetch(`${base}/`)).status).toBe(418);
  });
});
