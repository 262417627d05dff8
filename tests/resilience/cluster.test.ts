import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Cluster,
  REQUEST_TIMEOUT_MS,
  type Server,
  sleep,
  startCluster,
  startServer,
  whyNoPostgres,
} from './harness.ts';

// Issue 40: "`npm run serve` on PostgreSQL uses both cores". The built server (`node server.js`)
// on PostgreSQL with WEB_CONCURRENCY=2: a primary, a background process (mail, sweeps,
// imports) and two workers sharing the port, both
// answering; /metrics counts the requests of both; a worker killed with SIGKILL under a light
// load is replaced, and only requests that were on it fail (requests held in flight on each
// worker at that moment: the victim's connections close unanswered, the survivor's are
// answered); SIGTERM to the primary drains the workers and it exits 0. Which process answered is read from /proc (Linux): the worker that
// holds the server's end of a connection is the one that answers on it.

const skipReason =
  whyNoPostgres() ??
  (existsSync('/proc/net/tcp') ? null : 'no /proc/net/tcp to tell the workers apart');
if (skipReason) console.warn(`cluster test skipped: ${skipReason}`);

const LOAD_WORKERS = 4;
const SHUTDOWN_TIMEOUT_MS = 10_000;

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": the command may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children.sort((a, b) => a - b);
}

/** The part a forked process plays (server/cluster.ts ROLE_ENV): `web` or `background`. */
function roleOf(pid: number): string | null {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    return environ.find((line) => line.startsWith('SHELFMARK_ROLE='))?.slice(15) ?? null;
  } catch {
    return null;
  }
}

const webWorkersOf = (primary: number) =>
  childrenOf(primary).filter((pid) => roleOf(pid) === 'web');

/**
 * The client ports of the established connections to `port` on this machine whose server end
 * process `pid` holds: the connections that worker answers.
 */
function clientPortsServedBy(pid: number, port: number): number[] {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (socket) inodes.add(socket[1]!);
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    return [];
  }
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      // local address, remote address, state (01: established), …, inode.
      if (columns[1]?.endsWith(local) && columns[3] === '01' && inodes.has(columns[9] ?? '')) {
        ports.push(Number.parseInt(columns[2]!.split(':')[1]!, 16));
      }
    }
  }
  return ports;
}

function connectionsServedBy(pid: number, port: number): number {
  return clientPortsServedBy(pid, port).length;
}

/**
 * A request in flight on a connection of its own: its line and first header sent, the rest
 * held back until `finish`. `answer` resolves with the status, or 0 when the connection closed
 * without one.
 */
async function requestInFlight(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  const answer = new Promise<number>((resolve) => {
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0)));
  });
  socket.write('GET /api/account/login HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  return {
    clientPort: socket.localPort!,
    answer,
    finish() {
      if (!socket.destroyed) socket.write('Connection: close\r\n\r\n');
      return answer;
    },
  };
}

type Outcome = { startedAt: number; endedAt: number; status: number; error: string | null };

/** One GET; `agent` false: a connection of its own, closed after the answer. */
function get(
  url: string,
  agent: http.Agent | false = false,
): Promise<Outcome & { body: string; headers: http.IncomingHttpHeaders }> {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const done = (
      status: number,
      error: string | null,
      body = '',
      headers: http.IncomingHttpHeaders = {},
    ) => resolve({ startedAt, endedAt: performance.now(), status, error, body, headers });
    const request = http.get(url, { agent, timeout: REQUEST_TIMEOUT_MS }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        done(response.statusCode ?? 0, null, Buffer.concat(chunks).toString(), response.headers),
      );
      response.on('error', (error: NodeJS.ErrnoException) => done(0, error.code ?? error.message));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => done(0, error.code ?? error.message));
  });
}

/**
 * Opens `connections` keep-alive connections at once, one request on each, and says how many
 * of them each worker serves (node:cluster hands new connections to the workers in turn).
 */
async function servedBy(
  base: string,
  port: number,
  workers: number[],
  connections = 8,
): Promise<Map<number, number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  try {
    await Promise.all(
      Array.from({ length: connections }, () => get(`${base}/api/account/login`, agent)),
    );
    return new Map(workers.map((pid) => [pid, connectionsServedBy(pid, port)]));
  } finally {
    agent.destroy();
  }
}

async function until<T>(
  what: string | (() => string),
  ms: number,
  check: () => Promise<T | null>,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) {
      throw new Error(`not within ${ms} ms: ${typeof what === 'string' ? what : what()}`);
    }
    await sleep(200);
  }
}

describe.skipIf(skipReason !== null)('every core on PostgreSQL (issue 40)', () => {
  let cluster: Cluster;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    cluster = await startCluster();
    const databaseUrl = await cluster.createDatabase('shelfmark_cluster');
    server = await startServer(databaseUrl, {
      WEB_CONCURRENCY: '2',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      LOG_LEVEL: 'info',
    });
    port = Number(new URL(server.base).port);
  });

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await cluster?.destroy();
  });

  it('two workers answer, a killed one is replaced, SIGTERM drains them and exits 0', async () => {
    const primary = server.process.pid!;
    const failure = () => `\n${server.logTail(40)}`;

    // Both workers listen and both take connections.
    const workers = await until('two web workers', 30_000, async () => {
      const children = webWorkersOf(primary);
      return children.length === 2 ? children : null;
    });
    // And one background process (the outbox, sweeps, imports), which listens on no port.
    const background = childrenOf(primary).filter((pid) => roleOf(pid) === 'background');
    expect(background, failure()).toHaveLength(1);
    expect(connectionsServedBy(background[0]!, port)).toBe(0);
    await until(
      () => `both workers answering${failure()}`,
      30_000,
      async () => {
        const served = await servedBy(server.base, port, workers);
        return workers.every((pid) => (served.get(pid) ?? 0) > 0) ? served : null;
      },
    );

    // /metrics is the machine's: every worker's requests, whichever worker took the scrape.
    const asked = 20;
    for (let i = 0; i < asked; i += 1) await get(`${server.base}/api/catalog-items/1`);
    const counts: number[] = [];
    // A request is counted when its response closes, a moment after the client has it.
    await until(
      () => `/metrics counting ${asked} requests: ${counts.join(', ')}`,
      5_000,
      async () => {
        const metrics = await get(`${server.base}/metrics`);
        expect(metrics.status).toBe(200);
        const counted = metrics.body
          .split('\n')
          .filter(
            (line) =>
              line.startsWith('http_requests_total{') &&
              line.includes('route="/api/catalog-items/:id"'),
          )
          .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
        counts.push(counted);
        return counted === asked ? counted : null;
      },
    );

    // A light load, new connections each (as many clients would), then one worker killed.
    const outcomes: Outcome[] = [];
    let loading = true;
    const paths = ['/', '/api/account/login', '/api/catalog-items/2'];
    const load = Array.from({ length: LOAD_WORKERS }, async (_, loader) => {
      for (let i = loader; loading; i += 1) {
        outcomes.push(await get(`${server.base}${paths[i % paths.length]}`));
        await sleep(20);
      }
    });
    await sleep(1_500);
    // Requests in flight when the worker dies, on connections of either worker.
    const victim = workers[0]!;
    const survivor = workers[1]!;
    const inFlight = await until('requests in flight on both workers', 10_000, async () => {
      const opened = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const request = await requestInFlight(port);
          const owner = await until('the connection handed to a worker', 5_000, async () => {
            const found = workers.find((pid) =>
              clientPortsServedBy(pid, port).includes(request.clientPort),
            );
            return found ?? null;
          });
          return { ...request, owner };
        }),
      );
      if (workers.every((pid) => opened.some((request) => request.owner === pid))) return opened;
      await Promise.all(opened.map((request) => request.finish()));
      return null;
    });
    const killedAt = performance.now();
    process.kill(victim, 'SIGKILL');
    // The victim's connections close unanswered; the survivor answers what it was sent.
    const inFlightAnswers = await Promise.all(
      inFlight.map(async (request) => ({
        owner: request.owner,
        status: await (request.owner === victim ? request.answer : request.finish()),
      })),
    );
    const replacement = await until(
      () => `a new worker${failure()}`,
      30_000,
      async () => {
        const children = webWorkersOf(primary);
        const fresh = children.filter((pid) => !workers.includes(pid));
        return children.length === 2 && fresh.length === 1 ? fresh[0]! : null;
      },
    );
    await until(
      () => `the new worker answering${failure()}`,
      60_000,
      async () => {
        const served = await servedBy(server.base, port, [survivor, replacement]);
        return (served.get(replacement) ?? 0) > 0 ? served : null;
      },
    );
    const replacedAt = performance.now();
    await sleep(1_000);
    loading = false;
    await Promise.all(load);

    const failed = outcomes.filter((o) => o.status === 0 || o.status >= 500);
    const report = {
      requests: outcomes.length,
      failed: failed.map((o) => ({
        at: Math.round(o.startedAt - killedAt),
        error: o.error ?? o.status,
      })),
      replacedAfterMs: Math.round(replacedAt - killedAt),
      inFlight: inFlightAnswers.map(
        (a) => `${a.owner === victim ? 'victim' : 'survivor'} ${a.status}`,
      ),
    };
    console.info(`cluster: ${JSON.stringify(report)}`);
    expect(server.unexpectedExits).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(50);
    // Only requests that were on the killed worker failed: begun before it died (or in the
    // moment before the primary heard of it), at most one or two per client.
    expect(failed.length, JSON.stringify(report)).toBeLessThanOrEqual(2 * LOAD_WORKERS);
    for (const outcome of failed) {
      expect(outcome.startedAt, JSON.stringify(report)).toBeLessThan(killedAt + 1_000);
    }
    expect(outcomes.filter((o) => o.startedAt > killedAt + 1_000).length).toBeGreaterThan(10);
    expect(server.logTail(200)).toMatch(/worker exited unexpectedly: starting another/);
    for (const { owner, status } of inFlightAnswers) {
      expect(status, JSON.stringify(report)).toBe(owner === victim ? 0 : 200);
    }

    // SIGTERM to the primary: every worker drains and stops, then the primary exits 0.
    const child = server.process;
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const stoppingAt = performance.now();
    child.kill('SIGTERM');
    const exit = await exited;
    expect(exit, failure()).toEqual({ code: 0, signal: null });
    expect(performance.now() - stoppingAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    for (const pid of [survivor, replacement, ...background]) {
      expect(existsSync(`/proc/${pid}`)).toBe(false);
    }
    expect(server.logTail(400)).toMatch(/background process stopping/);
    expect(server.uncaughtExceptions()).toBe(0);
  }, 120_000);
});
