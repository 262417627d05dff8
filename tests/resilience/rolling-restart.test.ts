import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Cluster,
  describeOutcome,
  type Outcome,
  Recorder,
  type Server,
  send,
  sleep,
  startCluster,
  startServer,
  whyNoPostgres,
} from './harness.ts';

// Issue 40, "Operate it": a deploy or a scale-down drops no request. Two rolling restarts under
// a steady load: a new process starts on the same database, the balancer puts it in rotation
// once its /readyz answers 200, then the old one is sent SIGTERM. The balancer is played by
// the test as HAProxy would be: it asks each process's /readyz every 200 ms and sends requests
// round-robin to those that answered 200 (no retries, so any dropped request shows).
// The old process must answer every request it took, those in flight at SIGTERM included
// (bodies still being sent then), never reset a connection, and exit 0 within its deadline.

const skipReason = whyNoPostgres();
if (skipReason) console.warn(`rolling restart test skipped: ${skipReason}`);

/**
 * The balancer's checks, as HAProxy's `inter 200ms fall 3` with a check timeout of 2 s: three
 * failures in a row take a process out (a check can be slow on a busy machine: the CI runner
 * starts a new process beside two loaded ones). The delay covers three quick 503s twice over.
 */
const CHECK_EVERY_MS = 200;
const CHECK_TIMEOUT_MS = 2_000;
const FALL = 3;
const SHUTDOWN_DELAY_MS = 1_500;
const SHUTDOWN_TIMEOUT_MS = 10_000;
const LOAD_WORKERS = 4;

type Backend = {
  server: Server;
  name: string;
  inRotation: boolean;
  /** Failed checks in a row. */
  failures: number;
  readyz: number[];
};

/** Health-checks backends on /readyz and picks the next one in rotation. */
class Balancer {
  readonly backends: Backend[] = [];
  #next = 0;
  #timer: NodeJS.Timeout | null = null;

  async add(server: Server, name: string): Promise<Backend> {
    const backend: Backend = { server, name, inRotation: false, failures: 0, readyz: [] };
    this.backends.push(backend);
    while (!backend.inRotation) {
      await this.#check(backend);
      if (!backend.inRotation) await sleep(CHECK_EVERY_MS);
    }
    this.#timer ??= setInterval(() => {
      for (const each of this.backends) void this.#check(each);
    }, CHECK_EVERY_MS);
    return backend;
  }

  async #check(backend: Backend): Promise<void> {
    let status = 0;
    try {
      const response = await fetch(`${backend.server.base}/readyz`, {
        signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      status = 0;
    }
    backend.readyz.push(status);
    backend.failures = status === 200 ? 0 : backend.failures + 1;
    if (status === 200) backend.inRotation = true;
    else if (backend.failures >= FALL) backend.inRotation = false;
  }

  /** Times no process was in rotation (checks too slow on a starved machine): waited for one. */
  emptyWaits = 0;

  async pick(): Promise<Backend> {
    for (let waited = 0; ; waited += 50) {
      const live = this.backends.filter((backend) => backend.inRotation);
      if (live.length > 0) {
        this.#next = (this.#next + 1) % live.length;
        return live[this.#next]!;
      }
      if (waited === 0) this.emptyWaits += 1;
      if (waited > 10_000) {
        throw new Error(
          `no process in rotation: ${JSON.stringify(this.backends.map((b) => [b.name, b.readyz.slice(-10)]))}`,
        );
      }
      await sleep(50);
    }
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }
}

/**
 * A POST whose body takes `ms` to arrive (a slow phone on a page view), on a connection of its
 * own: in flight while the process is told to stop.
 */
function slowPost(
  recorder: Recorder,
  backend: Backend,
  csrf: { cookie: string; token: string },
  ms: number,
): Promise<Outcome & { connection: string | undefined }> {
  const body = Buffer.from(JSON.stringify({ path: '/rolling-restart' }));
  const pieces = 5;
  const startedAt = recorder.now();
  return new Promise((resolve) => {
    const done = (status: number, error: string | null, connection?: string) => {
      const outcome: Outcome = {
        startedAt,
        endedAt: recorder.now(),
        label: `${backend.name} slow page view`,
        method: 'POST',
        status,
        error,
        retryAfter: null,
        cacheControl: null,
        saysUnavailable: false,
        location: null,
      };
      recorder.outcomes.push(outcome);
      resolve({ ...outcome, connection });
    };
    const request = http.request(`${backend.server.base}/api/events/page-view`, {
      method: 'POST',
      agent: false,
      headers: {
        'Content-Type': 'application/vnd.api+json',
        'Content-Length': String(body.length),
        Cookie: csrf.cookie,
        'X-CSRFToken': csrf.token,
      },
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0, null, response.headers.connection));
    });
    request.on('error', (error: NodeJS.ErrnoException) => done(0, error.code ?? error.message));
    const size = Math.ceil(body.length / pieces);
    void (async () => {
      for (let i = 0; i < pieces; i += 1) {
        request.write(body.subarray(i * size, (i + 1) * size));
        await sleep(ms / pieces);
      }
      request.end();
    })();
  });
}

describe.skipIf(skipReason !== null)('rolling restart under load (issue 40)', () => {
  let cluster: Cluster;
  let databaseUrl: string;
  const servers: Server[] = [];
  // One deployment: the processes share their keys, as they would share their configuration.
  const settings = {
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
    LTI_KEY: randomBytes(32).toString('hex'),
    SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    // Every page rendered, none answered from memory: requests spend time in the process.
    PAGE_CACHE_MB: '0',
    LOG_LEVEL: 'info',
  };
  const start = async () => {
    const server = await startServer(databaseUrl, settings);
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    cluster = await startCluster();
    databaseUrl = await cluster.createDatabase('shelfmark_rolling_restart');
  });

  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
    await cluster?.destroy();
  });

  it('drops no request: in-flight ones finish, the old process exits 0 in time', async () => {
    const balancer = new Balancer();
    const recorder = new Recorder();
    await balancer.add(await start(), 'first');
    const first = balancer.backends[0]!;

    // What the load asks for: product pages (a canonical address each), the catalog API.
    const paths: string[] = ['/'];
    for (const id of [1, 2, 3, 4, 5, 6]) {
      const moved = await fetch(`${first.server.base}/book/${id}`, { redirect: 'manual' });
      await moved.arrayBuffer();
      paths.push(moved.headers.get('location') ?? `/book/${id}`, `/api/catalog-items/${id}`);
    }
    const login = await fetch(`${first.server.base}/api/account/login`);
    const csrf = {
      token: /"csrfToken":"([^"]+)"/.exec(await login.text())?.[1] ?? '',
      cookie: login.headers
        .getSetCookie()
        .map((cookie) => cookie.split(';')[0])
        .join('; '),
    };
    expect(csrf.token).not.toBe('');

    let loading = true;
    const load = Array.from({ length: LOAD_WORKERS }, async (_, worker) => {
      for (let i = worker; loading; i += 1) {
        const backend = await balancer.pick();
        await send(recorder, `${backend.server.base}${paths[i % paths.length]}`, {
          label: `${backend.name} ${paths[i % paths.length]}`,
        });
      }
    });

    type Roll = {
      old: Backend;
      sigtermAt: number;
      exit: { code: number | null; signal: string | null; ms: number };
      slow: (Outcome & { connection: string | undefined })[];
    };
    const rolls: Roll[] = [];
    let old = first;
    for (const name of ['second', 'third']) {
      await sleep(1_500);
      const next = await balancer.add(await start(), name);
      await sleep(500);
      // Requests whose bodies are still arriving when the signal comes, and still when the
      // process stops accepting connections after its delay.
      const slow = [0, 1, 2].map(() => slowPost(recorder, old, csrf, SHUTDOWN_DELAY_MS + 2_000));
      await sleep(400);
      const child = old.server.process;
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      const sigtermAt = recorder.now();
      child.kill('SIGTERM');
      const exit = await exited;
      rolls.push({
        old,
        sigtermAt,
        exit: { ...exit, ms: Math.round(recorder.now() - sigtermAt) },
        slow: await Promise.all(slow),
      });
      old = next;
    }
    await sleep(1_000);
    loading = false;
    await Promise.all(load);
    balancer.stop();

    const failed = recorder.outcomes.filter((o) => o.status === 0 || o.status >= 500);
    const report = {
      requests: recorder.outcomes.length,
      emptyWaits: balancer.emptyWaits,
      failed: failed.slice(0, 10).map((o) => `${o.label}: ${describeOutcome(o)}`),
      rolls: rolls.map((roll) => ({
        old: roll.old.name,
        exit: roll.exit,
        slow: roll.slow.map(
          (o) => `${describeOutcome(o)} at +${Math.round(o.endedAt - roll.sigtermAt)} ms`,
        ),
        readyz503: roll.old.readyz.filter((status) => status === 503).length,
        // Taken after the signal, before the balancer took the process out: answered too.
        takenAfterSigterm: recorder.outcomes.filter(
          (o) => o.label.startsWith(`${roll.old.name} `) && o.startedAt > roll.sigtermAt,
        ).length,
      })),
    };
    console.info(`rolling restart: ${JSON.stringify(report)}`);
    if (failed.length > 0) {
      console.error(JSON.stringify(report, null, 2));
      for (const roll of rolls) console.error(roll.old.server.logTail(30));
    }
    expect(failed).toEqual([]);
    expect(recorder.outcomes.length).toBeGreaterThan(100);
    for (const roll of rolls) {
      // Exited by itself, cleanly, before its deadline (and after its delay).
      expect(roll.exit).toMatchObject({ code: 0, signal: null });
      expect(roll.exit.ms).toBeGreaterThanOrEqual(SHUTDOWN_DELAY_MS);
      expect(roll.exit.ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
      // The requests in flight at the signal were answered, after the listener closed.
      for (const outcome of roll.slow) {
        expect(outcome.status, outcome.label).toBe(204);
        // Begun before the signal, answered after it: told not to reuse the connection.
        expect(outcome.connection).toBe('close');
        expect(outcome.endedAt).toBeGreaterThan(roll.sigtermAt + SHUTDOWN_DELAY_MS);
      }
      const inFlight = recorder.outcomes.filter(
        (o) =>
          o.label.startsWith(`${roll.old.name} `) &&
          o.startedAt < roll.sigtermAt &&
          o.endedAt > roll.sigtermAt,
      );
      expect(inFlight.length).toBeGreaterThanOrEqual(roll.slow.length);
      expect(inFlight.every((o) => o.status >= 200 && o.status < 400)).toBe(true);
      // The balancer was told to take it out (/readyz 503) before it stopped accepting.
      expect(roll.old.readyz).toContain(503);
    }
    for (const server of servers) expect(server.uncaughtExceptions()).toBe(0);
  }, 120_000);
});
