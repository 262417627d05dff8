// Real processes for the resilience tests (issue 13, "Survives its database going away"): a
// throwaway PostgreSQL cluster of the test's own, the built server (`node server.js`) on it,
// buyers that log in and pay over HTTP as a browser without JavaScript would, and the checks
// of what the database holds afterwards. Everything listens on 127.0.0.1 only.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { en } from '#i18n/messages/en.ts';

export const UNAVAILABLE_TEXT = en['error.unavailable'];
export const DEMO_PASSWORD = 'shelfmark-demo';
/** The longest a visitor may wait for any answer, database or not. */
export const REQUEST_TIMEOUT_MS = 7_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The newest PostgreSQL's bin directory (Debian's layout, as .ci/run), or null. */
export function findPostgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest ? path.join(root, newest, 'bin') : null;
}

const asRoot = process.getuid?.() === 0;
const execFileAsync = promisify(execFile);

/** Why the tests cannot run here (no PostgreSQL binaries, no postgres user as root), or null. */
export function whyNoPostgres(): string | null {
  if (!findPostgresBin()) {
    return 'no PostgreSQL binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)';
  }
  if (asRoot) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    } catch {
      return 'running as root and there is no postgres user to run PostgreSQL as';
    }
  }
  return null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export type Cluster = {
  port: number;
  url(database: string): string;
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl stop -m immediate`: every backend gone at once, as a crash or a pulled plug. */
  crash(): Promise<void>;
  /** `pg_ctl stop -m fast`: a restart by its operator (sessions ended, a clean shutdown). */
  stop(): Promise<void>;
  /** `pg_ctl start -w`: resolves once PostgreSQL accepts connections again. */
  start(): Promise<void>;
  destroy(): Promise<void>;
  log(): string;
};

/** A data directory of the postgres user when we are root (PostgreSQL refuses to run as root). */
function newDataDir(): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-resilience-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dataDir, uid, gid);
  }
  return dataDir;
}

/** Runs one of PostgreSQL's programs, as the postgres user when we are root. */
async function runPostgres(command: string, args: string[]): Promise<void> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('no PostgreSQL binaries');
  // Asynchronous: the load keeps running (and its clocks stay true) while pg_ctl works.
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args]]
    : [path.join(bin, command), args];
  await execFileAsync(file, argv, { timeout: 60_000 });
}

/** initdb, then pg_ctl start on a free port on 127.0.0.1, as .ci/run does. */
export async function startCluster(): Promise<Cluster> {
  const dataDir = newDataDir();
  await runPostgres('initdb', ['-D', dataDir, '-U', 'shelfmark', '--auth=trust', '-E', 'UTF8']);
  return clusterIn(dataDir);
}

/**
 * A hot standby of `primary` (issue 40, DATABASE_READ_URL): `pg_basebackup -R` copies its data
 * and writes the streaming settings (initdb --auth=trust lets 127.0.0.1 replicate), then it
 * starts on a port of its own and replays the primary's changes as they come.
 */
export async function startReplica(primary: Cluster): Promise<Cluster> {
  const dataDir = newDataDir();
  await runPostgres('pg_basebackup', [
    ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'shelfmark'],
    ...['-D', dataDir, '-R', '-X', 'stream', '-c', 'fast'],
  ]);
  return clusterIn(dataDir);
}

async function clusterIn(dataDir: string): Promise<Cluster> {
  const port = await freePort();
  const options = [
    `-p ${port}`,
    '-k /tmp',
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c max_connections=200',
  ].join(' ');
  const logFile = path.join(dataDir, 'log');
  const start = () =>
    runPostgres('pg_ctl', ['-D', dataDir, '-o', options, '-w', '-l', logFile, 'start']);
  await start();
  const url = (database: string) => `postgres://shelfmark@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`create database ${pg.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    crash: () => runPostgres('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']),
    stop: () => runPostgres('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']),
    start,
    async destroy() {
      await runPostgres('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']).catch(
        () => undefined,
      );
      rmSync(dataDir, { recursive: true, force: true });
    },
    log: () => {
      try {
        return execFileSync('tail', ['-n', '40', logFile]).toString();
      } catch {
        return '';
      }
    },
  };
}

export type Server = {
  base: string;
  process: ChildProcess;
  /** Every exit of this process that the test did not ask for. */
  unexpectedExits: string[];
  /** SIGKILL; resolves when the process is gone. */
  kill(): Promise<void>;
  /** A new process with the same environment, same port; resolves when it answers. */
  restart(): Promise<number>;
  stop(): Promise<void>;
  logTail(lines?: number): string;
  /** Lines the server logged as 'uncaught exception' (server.js keeps running after them). */
  uncaughtExceptions(): number;
  dataDir: string;
};

/**
 * The built server as production runs it (NODE_ENV=production), test payments, demo data,
 * random keys. Its output goes to a file in its data directory, read back on a failure.
 */
export async function startServer(
  databaseUrl: string,
  /** Environment for the server on top of the defaults; undefined removes a default. */
  settings: Record<string, string | undefined> = {},
): Promise<Server> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-resilience-data-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DEMO_DATA: 'on',
    PAYMENTS: 'test',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
    LTI_KEY: randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    // One process, whose pid is the server's (the checks count its connections and kill it);
    // cluster.test.ts asks for several.
    WEB_CONCURRENCY: '1',
    ...settings,
  };
  for (const [name, value] of Object.entries(settings)) if (value === undefined) delete env[name];
  const base = `http://127.0.0.1:${port}`;
  const logPath = path.join(dataDir, 'server.log');
  const log = createWriteStream(logPath, { flags: 'a' });
  const unexpectedExits: string[] = [];
  let killing = false;
  let child: ChildProcess;

  const spawnOne = () => {
    // HARNESS_SERVER_EXEC_ARGV: node's own flags for the server, e.g. `--cpu-prof
    // --cpu-prof-dir=/tmp/p` to profile a load test (node:cluster's workers inherit them).
    const execArgv = (process.env.HARNESS_SERVER_EXEC_ARGV ?? '').split(' ').filter(Boolean);
    const next = spawn(process.execPath, [...execArgv, 'server.js'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    next.stdout?.pipe(log, { end: false });
    next.stderr?.pipe(log, { end: false });
    next.once('exit', (code, signal) => {
      if (!killing) unexpectedExits.push(`pid ${next.pid} exited: code ${code}, signal ${signal}`);
    });
    child = next;
    return next;
  };

  const waitUntilAnswering = async () => {
    const started = Date.now();
    const deadline = started + 120_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`server exited while starting:\n${tail(logPath, 40)}`);
      }
      try {
        const response = await fetch(`${base}/api/account/login`, {
          signal: AbortSignal.timeout(2_000),
        });
        await response.arrayBuffer();
        if (response.ok) return Date.now() - started;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server did not start:\n${tail(logPath, 40)}`);
      await sleep(100);
    }
  };

  const gone = (proc: ChildProcess) =>
    proc.exitCode !== null || proc.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => proc.once('exit', () => resolve()));

  spawnOne();
  await waitUntilAnswering();
  return {
    base,
    get process() {
      return child;
    },
    unexpectedExits,
    dataDir,
    async kill() {
      const current = child;
      killing = true;
      current.kill('SIGKILL');
      await gone(current);
      killing = false;
    },
    async restart() {
      spawnOne();
      return waitUntilAnswering();
    },
    async stop() {
      const current = child;
      killing = true;
      current.kill('SIGTERM');
      const timer = setTimeout(() => current.kill('SIGKILL'), 10_000);
      await gone(current);
      clearTimeout(timer);
      log.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
    logTail: (lines = 60) => tail(logPath, lines),
    uncaughtExceptions: () => {
      try {
        return readFileSync(logPath, 'utf8').split('"msg":"uncaught exception"').length - 1;
      } catch {
        return 0;
      }
    },
  };
}

/**
 * How many TCP connections a process has open (or opening) to a port on this machine, read
 * from /proc (Linux); null where there is no /proc. The server should hold its pool (10), the
 * LISTEN connection and a probe: a few more than that means it is leaking or storming.
 */
export function connectionsTo(pid: number, port: number): number | null {
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
    return null;
  }
  const remote = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      if (columns.length > 9 && columns[2]!.endsWith(remote) && inodes.has(columns[9]!)) {
        count += 1;
      }
    }
  }
  return count;
}

/** Samples a process's connections to PostgreSQL twice a second; `stop` gives the peak. */
export function sampleConnections(pid: () => number | undefined, port: number) {
  let peak = 0;
  let peakAt = 0;
  const started = Date.now();
  const timer = setInterval(() => {
    const id = pid();
    const count = id === undefined ? null : connectionsTo(id, port);
    if (count !== null && count > peak) {
      peak = count;
      peakAt = Date.now() - started;
    }
  }, 500);
  return {
    stop() {
      clearInterval(timer);
      return { peak, peakAtMs: peakAt };
    },
  };
}

/** A connection for the test's own checks, tried for a while (the server may hold them all). */
export async function connectWithin(url: string, ms: number): Promise<pg.Client> {
  const deadline = Date.now() + ms;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}

function tail(file: string, lines: number): string {
  try {
    return execFileSync('tail', ['-n', String(lines), file]).toString();
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP, as a browser without JavaScript: cookies kept per visitor, every request timed.

export type Outcome = {
  /** Milliseconds since the test's clock started. */
  startedAt: number;
  endedAt: number;
  label: string;
  method: string;
  /** The HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
  /** 'timeout' when no answer came within REQUEST_TIMEOUT_MS; else the network error's code. */
  error: string | null;
  retryAfter: string | null;
  cacheControl: string | null;
  /** The body carries the translated 'error.unavailable' text. */
  saysUnavailable: boolean;
  location: string | null;
};

export class Recorder {
  readonly outcomes: Outcome[] = [];
  readonly clockStart = performance.now();
  now(): number {
    return performance.now() - this.clockStart;
  }
}

export type Answer = { outcome: Outcome; body: string; setCookies: string[] };

export async function send(
  recorder: Recorder,
  url: string,
  options: {
    label: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** How long to wait for the answer (REQUEST_TIMEOUT_MS unless told; a load test waits longer). */
    timeoutMs?: number;
  },
): Promise<Answer> {
  const method = options.method ?? 'GET';
  const startedAt = recorder.now();
  let status = 0;
  let error: string | null = null;
  let body = '';
  let headers: Headers | null = null;
  try {
    const response = await fetch(url, {
      method,
      headers: options.headers,
      body: options.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    headers = response.headers;
    body = await response.text();
    status = response.status;
  } catch (caught) {
    const err = caught as Error & { cause?: { code?: string } };
    error =
      err.name === 'TimeoutError' || err.name === 'AbortError'
        ? 'timeout'
        : (err.cause?.code ?? err.name);
  }
  const outcome: Outcome = {
    startedAt,
    endedAt: recorder.now(),
    label: options.label,
    method,
    status,
    error,
    retryAfter: headers?.get('retry-after') ?? null,
    cacheControl: headers?.get('cache-control') ?? null,
    saysUnavailable: body.includes(UNAVAILABLE_TEXT),
    location: headers?.get('location') ?? null,
  };
  recorder.outcomes.push(outcome);
  return { outcome, body, setCookies: headers?.getSetCookie() ?? [] };
}

/** A 503 as the issue asks for it: Retry-After and the visitor's text. */
export function isProperUnavailable(outcome: Outcome): boolean {
  return outcome.status === 503 && outcome.retryAfter !== null && outcome.saysUnavailable;
}

/** A page answered from the edge's store of anonymous pages. */
export function isStoredPage(outcome: Outcome): boolean {
  return outcome.status === 200 && outcome.cacheControl === 'public, no-cache';
}

const ADDRESS = {
  name: 'Resilience Buyer',
  line1: '1 Main Street',
  line2: '',
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'US',
};

export type Checkout = {
  offeringIds: number[];
  needsAddress: boolean;
};

export type CheckoutResult = {
  buyer: string;
  userId: number;
  offeringIds: number[];
  /** The idempotency key of the form that was posted (the checkout route's hidden field). */
  key: string | null;
  orderId: string | null;
  /** Times Pay was pressed (the same form posted again after a failure). */
  presses: number;
  startedAt: number;
  endedAt: number;
  /** Why the checkout stopped without success (the deadline, or an answer no retry mends). */
  failure: string | null;
};

/** A logged-in shopper using the site with plain HTTP requests. */
/**
 * What a buyer does when a press of Pay gets no answer (issue 37):
 * - `same-form`: presses Pay again on the same form (issue 13's test);
 * - `return-to-cart`: goes back to the cart, as people do, and if it does not say the payment
 *   went through, empties it, fills it again (new cart lines, so a new checkout key) and pays
 *   from a new checkout page.
 */
export type Retry = 'same-form' | 'return-to-cart';

/**
 * Paying with Stripe (the stand-in): what Stripe.js does in the buyer's browser, confirming
 * the payment with Stripe; answers the order the payment is for (its return address).
 */
export type BrowserStripe = { confirm(ref: string): string };

export class Buyer {
  #cookies = new Map<string, string>();
  #csrf: string | null = null;
  /** Orders this buyer has been told went through. */
  readonly #told = new Set<string>();
  /** What this checkout asked and was answered, said when it fails. */
  #trail: string[] = [];
  /** How long each request waits for its answer (bench/rush-week.ts waits longer than tests). */
  requestTimeoutMs = REQUEST_TIMEOUT_MS;

  constructor(
    private readonly recorder: Recorder,
    private readonly base: () => string,
    readonly email: string,
    readonly userId: number,
    private readonly retry: Retry = 'same-form',
    private readonly stripe: BrowserStripe | null = null,
  ) {}

  #cookieHeader(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  #keep(setCookies: string[]) {
    for (const line of setCookies) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (/max-age=0/i.test(line) || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  async #send(
    path: string,
    label: string,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> {
    const answer = await send(this.recorder, `${this.base()}${path}`, {
      label,
      ...options,
      headers: { Cookie: this.#cookieHeader(), ...options.headers },
      timeoutMs: this.requestTimeoutMs,
    });
    this.#keep(answer.setCookies);
    const { status, error, location } = answer.outcome;
    this.#trail.push(`${label} → ${status || error}${location ? ` ${location}` : ''}`);
    return answer;
  }

  /** A page, as this buyer's browser asks for it (their session's cookies). */
  get(path: string, label: string): Promise<Answer> {
    return this.#send(path, label);
  }

  /** The login form, as a person fills it in; true once the session cookie is set. */
  async logIn(): Promise<boolean> {
    const form = await this.#send('/accounts/login/', 'login form');
    const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(form.body)?.[1];
    if (form.outcome.status !== 200 || !token) return false;
    const posted = await this.#send('/accounts/login/', 'log in', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: this.base(),
      },
      body: new URLSearchParams({
        email: this.email,
        password: DEMO_PASSWORD,
        csrfmiddlewaretoken: token,
      }).toString(),
    });
    return posted.outcome.status === 302 && this.#cookies.has('sid');
  }

  /** Any page or call as this visitor, with its cookies, timed under `label`. */
  visit(path: string, label: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.#send(path, label, { headers });
  }

  /** The order-complete page a paid checkout lands on (GET /checkout/complete/{orderId}). */
  async orderComplete(orderId: string): Promise<boolean> {
    const answer = await this.#send(`/checkout/complete/${orderId}`, 'order complete');
    return answer.outcome.status === 200;
  }

  /** My Shelf (GET /shelf/): the materials this account owns. */
  async openShelf(label = 'shelf'): Promise<boolean> {
    const answer = await this.#send('/shelf/', label);
    return answer.outcome.status === 200;
  }

  /** The reader on a book this account owns (GET /book/read/{productId}). */
  async openReader(productId: number, label = 'reader'): Promise<boolean> {
    const answer = await this.#send(`/book/read/${productId}`, label);
    return answer.outcome.status === 200;
  }

  /** One EPUB chapter as the open reader fetches it (GET /api/reading/{productId}/parts/{part}). */
  async readerPart(productId: number, part: number, label = 'book part'): Promise<boolean> {
    const answer = await this.#send(`/api/reading/${productId}/parts/${part}`, label, {
      headers: { Accept: 'application/vnd.api+json' },
    });
    return answer.outcome.status === 200;
  }

  /** The session's CSRF token, as the browser's code asks for it. */
  async csrfToken(): Promise<string | null> {
    if (this.#csrf) return this.#csrf;
    const answer = await this.#send('/api/account/login', 'login status (buyer)', {
      headers: { Accept: 'application/vnd.api+json' },
    });
    if (answer.outcome.status !== 200) return null;
    const attributes = JSON.parse(answer.body)?.data?.attributes;
    if (!attributes?.isLoggedIn) throw new Error(`${this.email} is not logged in any more`);
    this.#csrf = attributes.csrfToken ?? null;
    return this.#csrf;
  }

  async addToCart(offeringId: number): Promise<'added' | 'retry' | string> {
    const token = await this.csrfToken();
    if (!token) return 'retry';
    const answer = await this.#send('/api/cart/items', 'add to cart', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/vnd.api+json',
        Accept: 'application/vnd.api+json',
        'X-CSRFToken': token,
        Origin: this.base(),
      },
      body: JSON.stringify({ data: { type: 'cart-item', attributes: { offeringId } } }),
    });
    if (answer.outcome.status === 201) return 'added';
    if (answer.outcome.status === 0 || answer.outcome.status === 503) return 'retry';
    return `add to cart answered ${answer.outcome.status}: ${answer.body.slice(0, 300)}`;
  }

  /**
   * GET /checkout/: the form's idempotency key and CSRF token, 'empty' for a redirect to the
   * cart, the order when the store found this cart's payment went through (issue 37).
   */
  async checkoutForm(): Promise<
    { key: string; csrf: string } | { orderId: string } | 'empty' | 'retry' | string
  > {
    const answer = await this.#send('/checkout/', 'checkout page');
    const { status } = answer.outcome;
    const completed = /^\/checkout\/complete\/([0-9a-f-]{36})$/.exec(answer.outcome.location ?? '');
    if (status === 302 && completed) return { orderId: completed[1]! };
    if (status === 302 && answer.outcome.location?.includes('/cart')) return 'empty';
    if (status === 0 || status === 503) return 'retry';
    if (status !== 200) return `checkout page answered ${status}`;
    const key = /name="key" value="([^"]+)"/.exec(answer.body)?.[1];
    const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(answer.body)?.[1];
    if (!key || !csrf) return 'checkout page without its form';
    return { key, csrf };
  }

  /**
   * The cart page (issue 37): an order it says went through ("Your payment of … went through
   * — here is your order") that this buyer was not told of yet, or 'none'.
   */
  async cartNotice(): Promise<{ orderId: string } | 'none' | 'retry' | string> {
    const answer = await this.#send('/cart/', 'cart page');
    const { status } = answer.outcome;
    if (status === 0 || status === 503) return 'retry';
    if (status !== 200) return `cart page answered ${status}`;
    for (const found of answer.body.matchAll(
      /<p class="alert alert--success"><a href="\/account\/orders\/([0-9a-f-]{36})"/g,
    )) {
      if (!this.#told.has(found[1]!)) return { orderId: found[1]! };
    }
    return 'none';
  }

  /** Removes every line from the cart (GET /api/cart, then DELETE each line). */
  async emptyCart(): Promise<'emptied' | 'retry' | string> {
    const token = await this.csrfToken();
    if (!token) return 'retry';
    const listed = await this.#send('/api/cart', 'cart (API)', {
      headers: { Accept: 'application/vnd.api+json' },
    });
    if (listed.outcome.status === 0 || listed.outcome.status === 503) return 'retry';
    if (listed.outcome.status !== 200) return `GET /api/cart answered ${listed.outcome.status}`;
    const lines = (JSON.parse(listed.body)?.data ?? []) as { id: string }[];
    for (const line of lines) {
      const removed = await this.#send(`/api/cart/items/${line.id}`, 'remove from cart', {
        method: 'DELETE',
        headers: { Accept: 'application/vnd.api+json', 'X-CSRFToken': token, Origin: this.base() },
      });
      if (removed.outcome.status === 0 || removed.outcome.status === 503) return 'retry';
      if (removed.outcome.status !== 204) return `DELETE answered ${removed.outcome.status}`;
    }
    return 'emptied';
  }

  /**
   * Pay with Stripe (decision 007), as the checkout page does it: the form's start places the
   * order and answers its payment's client secret; Stripe.js confirms it with Stripe (here the
   * stand-in, which the server's kill cannot touch); Stripe sends the browser back to
   * /checkout/return/{orderId}, which reads the payment and answers the order-complete page.
   */
  async payWithStripe(
    form: { key: string; csrf: string },
    needsAddress: boolean,
  ): Promise<{ orderId: string } | 'retry' | string> {
    const started = await this.#send('/checkout/', 'start payment', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: this.base() },
      body: new URLSearchParams({
        csrfmiddlewaretoken: form.csrf,
        intent: 'start',
        key: form.key,
        ...(needsAddress ? ADDRESS : {}),
      }).toString(),
    });
    const { status, location } = started.outcome;
    const completed = /^\/checkout\/complete\/([0-9a-f-]{36})$/.exec(location ?? '');
    if ((status === 302 || status === 303) && completed) return { orderId: completed[1]! };
    if (status === 0 || status === 503) return 'retry';
    if ((status === 302 || status === 303) && location?.startsWith('/cart')) return 'to the cart';
    const secret = /(pi_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+/.exec(started.body);
    if (status !== 200 || !secret) {
      return `start answered ${status}: ${started.body.replace(/\s+/g, ' ').slice(0, 300)}`;
    }
    const ref = secret[1]!;
    const orderId = this.stripe!.confirm(ref);
    const back = await this.#send(
      `/checkout/return/${orderId}?payment_intent=${ref}&redirect_status=succeeded`,
      'stripe return',
    );
    const done = /^\/checkout\/complete\/([0-9a-f-]{36})$/.exec(back.outcome.location ?? '');
    if (back.outcome.status === 302 && done) return { orderId: done[1]! };
    if (back.outcome.status === 0 || back.outcome.status === 503) return 'retry';
    return `return answered ${back.outcome.status} ${back.outcome.location ?? ''}`;
  }

  /** Pay with the test card 4242 4242 4242 4242: the order id, or why not. */
  async pay(
    form: { key: string; csrf: string },
    needsAddress: boolean,
  ): Promise<{ orderId: string } | 'retry' | string> {
    const fields: Record<string, string> = {
      csrfmiddlewaretoken: form.csrf,
      key: form.key,
      number: '4242 4242 4242 4242',
      expiry: '12/30',
      cvc: '123',
      ...(needsAddress ? ADDRESS : {}),
    };
    const answer = await this.#send('/checkout/', 'pay', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: this.base() },
      body: new URLSearchParams(fields).toString(),
    });
    const { status, location } = answer.outcome;
    const completed = /^\/checkout\/complete\/([0-9a-f-]{36})$/.exec(location ?? '');
    if ((status === 302 || status === 303) && completed) return { orderId: completed[1]! };
    if (status === 0 || status === 503) return 'retry';
    // The form's cart is gone (its order was paid meanwhile, or the cart emptied): the page
    // sends the buyer to the cart, which says what became of it.
    if ((status === 302 || status === 303) && location?.startsWith('/cart')) return 'to the cart';
    return `pay answered ${status} ${location ?? ''}: ${answer.body.replace(/\s+/g, ' ').slice(0, 300)}`;
  }

  /**
   * One checkout, as a patient person does it: put the items in the cart, open the checkout,
   * press Pay, and press it again on the same form after every failure (an error page, no
   * answer) until the order-complete page comes or `giveUpAt` passes.
   */
  async checkout(
    checkout: Checkout,
    giveUpAt: () => number,
    pauseMs: () => number,
  ): Promise<CheckoutResult> {
    const result: CheckoutResult = {
      buyer: this.email,
      userId: this.userId,
      offeringIds: checkout.offeringIds,
      key: null,
      orderId: null,
      presses: 0,
      startedAt: this.recorder.now(),
      endedAt: 0,
      failure: null,
    };
    this.#trail = [];
    const finish = (failure: string | null) => {
      result.failure = failure && `${failure} (after: ${this.#trail.slice(-12).join('; ')})`;
      result.endedAt = this.recorder.now();
      return result;
    };
    const overdue = () => this.recorder.now() > giveUpAt();
    const told = (orderId: string) => {
      this.#told.add(orderId);
      result.orderId = orderId;
      return finish(null);
    };
    let stage: 'cart' | 'form' | 'pay' | 'back to the cart' = 'cart';
    let form: { key: string; csrf: string } | null = null;
    let added = 0;
    while (!overdue()) {
      if (stage === 'cart') {
        const answer = await this.addToCart(checkout.offeringIds[added]!);
        if (answer === 'added') {
          added += 1;
          if (added === checkout.offeringIds.length) stage = 'form';
          continue;
        }
        // The store refuses what the buyer already has (issue 19): an earlier press of Pay in
        // this checkout went through while its answer was lost. The buyer goes to the cart,
        // which names a paid order they were never shown (issue 37).
        if (answer.includes('"code":"purchase.refused.')) {
          stage = 'back to the cart';
          continue;
        }
        if (answer !== 'retry') return finish(answer);
      } else if (stage === 'form') {
        const answer = await this.checkoutForm();
        if (answer === 'empty') {
          added = 0;
          stage = 'cart';
          continue;
        }
        if (typeof answer === 'object' && 'orderId' in answer) return told(answer.orderId);
        if (typeof answer === 'object') {
          form = answer;
          result.key = answer.key;
          stage = 'pay';
          continue;
        }
        if (answer !== 'retry') return finish(answer);
      } else if (stage === 'pay') {
        result.presses += 1;
        const answer = this.stripe
          ? await this.payWithStripe(form!, checkout.needsAddress)
          : await this.pay(form!, checkout.needsAddress);
        if (typeof answer === 'object') return told(answer.orderId);
        if (answer === 'to the cart') {
          stage = 'back to the cart';
          continue;
        }
        if (answer !== 'retry') return finish(answer);
        if (this.retry === 'return-to-cart') stage = 'back to the cart';
      } else {
        const notice = await this.cartNotice();
        if (typeof notice === 'object') return told(notice.orderId);
        if (notice === 'none') {
          const emptied = await this.emptyCart();
          if (emptied === 'emptied') {
            added = 0;
            stage = 'cart';
          } else if (emptied !== 'retry') {
            return finish(emptied);
          }
        } else if (notice !== 'retry') {
          return finish(notice);
        }
      }
      await sleep(pauseMs());
    }
    return finish(`gave up at stage '${stage}' after ${result.presses} presses`);
  }
}

// ---------------------------------------------------------------------------------------------
// Direct database access: buyers, what to buy, and the invariants afterwards.

/** New accounts with the demo password (its hash copied from a demo account), EULA accepted. */
export async function createBuyers(
  client: pg.Client,
  prefix: string,
  count: number,
): Promise<{ email: string; userId: number }[]> {
  const { rows } = await client.query<{ email: string; id: number }>(
    `insert into users (email, first_name, last_name, password_hash, must_accept_eula, eula_accepted_at)
     select $1 || n || '@resilience.test', 'Buyer', n::text, u.password_hash, false, now()
       from generate_series(1, $2::int) n, users u
      where u.email = 'student@demo.test'
     returning email, id`,
    [prefix, count],
  );
  if (rows.length !== count) throw new Error('the demo account student@demo.test is missing');
  return rows.map((row) => ({ email: row.email, userId: row.id }));
}

/**
 * Offerings anyone may buy with a card, each of a different product: digital ones (owned on
 * payment, order fulfilled at once) and physical ones with counted stock (a shipment each).
 */
export async function sellableOfferings(
  client: pg.Client,
  digitalCount: number,
  physicalCount: number,
): Promise<{ digital: number[]; physical: number[] }> {
  const pick = async (where: string, count: number, except: number[]) =>
    (
      await client.query<{ id: number; product_id: number }>(
        `select distinct on (o.product_id) o.id, o.product_id
           from offerings o join products p on p.id = o.product_id
          where ${where} and o.is_active and p.status = 'active' and not p.is_disabled
            and coalesce(array_length(p.blocked_countries, 1), 0) = 0
            and coalesce(array_length(p.blocked_hosts, 1), 0) = 0
            and o.price_cents >= 100 and not (o.product_id = any($2::int[]))
          order by o.product_id, o.id
          limit $1`,
        [count, except],
      )
    ).rows;
  const physical = await pick(
    "o.type = 'physical' and o.stock is not null and not o.is_rental",
    physicalCount,
    [],
  );
  // Books only: a collection or an ebundle bought by one checkout would make its items the
  // buyer's already, and the store refuses to sell them again (issue 19).
  const digital = await pick(
    "o.type = 'digital' and p.product_type = 'book'",
    digitalCount,
    physical.map((row) => row.product_id),
  );
  if (digital.length < digitalCount || physical.length < physicalCount) {
    throw new Error(
      `the demo catalog has ${digital.length}/${digitalCount} digital and ${physical.length}/${physicalCount} physical offerings to sell`,
    );
  }
  return { digital: digital.map((row) => row.id), physical: physical.map((row) => row.id) };
}

export type StockLedger = Map<number, number>;

export async function stockOf(client: pg.Client, offeringIds: number[]): Promise<StockLedger> {
  const { rows } = await client.query<{ id: number; stock: number }>(
    'select id, stock from offerings where id = any($1::int[])',
    [offeringIds],
  );
  return new Map(rows.map((row) => [row.id, row.stock]));
}

export type Consistency = {
  violations: string[];
  orders: number;
  paidOrders: number;
  pendingOrders: number;
  /** Charges the store gave back by itself (a duplicate, money for an order not waiting). */
  refundedCharges: number;
  shipments: number;
  ownerships: number;
  mails: number;
  lowestStock: number | null;
};

/**
 * What the database holds for these buyers, against what their checkouts were told:
 * - every success answer has its order, the buyer's, for the key of the posted form, paid;
 * - no order without a success answer, no two orders for one key or for one digital product;
 * - every paid order: one successful payment and one charge at the gateway, of its total; one
 *   move to paid; one confirmation mail in the outbox; each item owned, shipped or printed;
 *   fulfilled exactly when nothing is left to post;
 * - no charge at the gateway for an order that is not paid;
 * - stock never negative, and every unit taken is held by exactly one live order line.
 */
/** A charge at the gateway: `succeeded` (kept), `refunded`, or not taken. */
export type Charge = { order_id: string; status: string; amount_cents: number };

export async function checkConsistency(
  client: pg.Client,
  userIds: number[],
  results: CheckoutResult[],
  stockBefore: StockLedger,
  options: {
    /**
     * A buyer back at the cart pays from a new form, whose key may not be the order's: the
     * order placed by the first form is the one they are shown (issue 37).
     */
    keysMayDiffer?: boolean;
    /** The gateway's charges when it is not the test gateway (Stripe's stand-in). */
    charges?: Charge[];
  } = {},
): Promise<Consistency> {
  const violations: string[] = [];
  const orders = (
    await client.query<{
      id: string;
      user_id: number;
      idempotency_key: string;
      status: string;
      total_cents: number;
    }>(
      'select id, user_id, idempotency_key, status, total_cents from orders where user_id = any($1::int[])',
      [userIds],
    )
  ).rows;
  const orderIds = orders.map((order) => order.id);
  const byId = new Map(orders.map((order) => [order.id, order]));
  const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = [orderIds]) =>
    (await client.query<T>(sql, params)).rows;
  const items = await query<{
    id: number;
    order_id: string;
    product_id: number;
    offering_id: number;
    took_stock: boolean;
    type: string;
  }>(
    `select oi.id, oi.order_id, oi.product_id, oi.offering_id, oi.took_stock, o.type
       from order_items oi join offerings o on o.id = oi.offering_id
      where oi.order_id = any($1::uuid[])`,
  );
  const payments = await query<{ order_id: string; status: string; amount_cents: number }>(
    'select order_id, status, amount_cents from payments where order_id = any($1::uuid[])',
  );
  const charges =
    options.charges?.filter((charge) => byId.has(charge.order_id)) ??
    (await query<Charge>(
      'select order_id, status, amount_cents from test_gateway_payments where order_id = any($1::uuid[])',
    ));
  const ownerships = await query<{ user_id: number; product_id: number; order_id: string }>(
    'select user_id, product_id, order_id from ownerships where order_id = any($1::uuid[]) and revoked_at is null',
  );
  const shipments = await query<{ order_id: string; order_item_id: number }>(
    'select order_id, order_item_id from shipments where order_id = any($1::uuid[])',
  );
  const prints = await query<{ order_id: string; order_item_id: number }>(
    'select order_id, order_item_id from print_orders where order_id = any($1::uuid[])',
  );
  const transitions = await query<{ order_id: string; to_status: string }>(
    'select order_id, to_status from order_transitions where order_id = any($1::uuid[])',
  );
  const mails = await query<{ dedupe_key: string; kind: string }>(
    'select dedupe_key, kind from outbox where dedupe_key = any($1::text[])',
    [orderIds.map((id) => `order-confirmation:${id}`)],
  );

  const countBy = <T>(rows: T[], keyOf: (row: T) => string | null) => {
    const counts = new Map<string, number>();
    for (const row of rows) {
      const key = keyOf(row);
      if (key !== null) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };
  const succeededPayments = countBy(payments, (p) =>
    p.status === 'succeeded' ? p.order_id : null,
  );
  const succeededCharges = countBy(charges, (c) => (c.status === 'succeeded' ? c.order_id : null));
  const paidMoves = countBy(transitions, (t) => (t.to_status === 'paid' ? t.order_id : null));
  const mailCount = countBy(mails, (m) => m.dedupe_key);
  const owned = new Set(ownerships.map((o) => `${o.order_id}|${o.user_id}|${o.product_id}`));
  const shipped = new Set(shipments.map((s) => s.order_item_id));
  const printed = new Set(prints.map((p) => p.order_item_id));

  // Success answers against orders.
  const successes = results.filter((result) => result.orderId);
  const confirmed = new Set<string>();
  for (const result of successes) {
    const order = byId.get(result.orderId!);
    confirmed.add(result.orderId!);
    if (!order) {
      violations.push(
        `lost: ${result.buyer} was told order ${result.orderId} succeeded; no such order`,
      );
      continue;
    }
    if (order.user_id !== result.userId) {
      violations.push(
        `order ${order.id} confirmed to ${result.buyer} belongs to user ${order.user_id}`,
      );
    }
    if (!options.keysMayDiffer && order.idempotency_key !== result.key) {
      violations.push(
        `order ${order.id} has key ${order.idempotency_key}, the form posted ${result.key}`,
      );
    }
    if (order.status !== 'paid' && order.status !== 'fulfilled') {
      violations.push(`order ${order.id} confirmed to ${result.buyer} is ${order.status}`);
    }
  }
  if (confirmed.size !== successes.length) {
    violations.push(
      `${successes.length - confirmed.size} success answers named an order already confirmed for another checkout`,
    );
  }
  for (const order of orders) {
    if (!confirmed.has(order.id)) {
      violations.push(
        `order ${order.id} (${order.status}, key ${order.idempotency_key}) was never confirmed to its buyer`,
      );
    }
  }
  for (const [key, n] of countBy(orders, (o) => `${o.user_id}|${o.idempotency_key}`)) {
    if (n > 1) violations.push(`duplicated: ${n} orders for user|key ${key}`);
  }
  const paidOrders = orders.filter((o) => o.status === 'paid' || o.status === 'fulfilled');
  const paidIds = new Set(paidOrders.map((o) => o.id));
  const digitalBought = countBy(
    items.filter((item) => paidIds.has(item.order_id) && item.type === 'digital'),
    (item) => `${byId.get(item.order_id)!.user_id}|${item.product_id}`,
  );
  for (const [key, n] of digitalBought) {
    if (n > 1) violations.push(`duplicated: user|product ${key} bought in ${n} paid orders`);
  }

  // Every paid order: paid once, charged once, fulfilled, one mail.
  for (const order of paidOrders) {
    const payment = succeededPayments.get(order.id) ?? 0;
    if (payment !== 1) violations.push(`order ${order.id}: ${payment} successful payments`);
    const charged = succeededCharges.get(order.id) ?? 0;
    if (charged !== 1)
      violations.push(`order ${order.id}: charged ${charged} times at the gateway`);
    for (const p of payments.filter((p) => p.order_id === order.id && p.status === 'succeeded')) {
      if (p.amount_cents !== order.total_cents) {
        violations.push(
          `order ${order.id}: paid ${p.amount_cents} for a total of ${order.total_cents}`,
        );
      }
    }
    if ((paidMoves.get(order.id) ?? 0) !== 1) {
      violations.push(`order ${order.id}: moved to paid ${paidMoves.get(order.id) ?? 0} times`);
    }
    const mail = mailCount.get(`order-confirmation:${order.id}`) ?? 0;
    if (mail !== 1) violations.push(`order ${order.id}: ${mail} confirmation mails in the outbox`);
    const lines = items.filter((item) => item.order_id === order.id);
    if (lines.length === 0) violations.push(`order ${order.id}: no items`);
    let toPost = false;
    for (const line of lines) {
      if (line.type === 'digital' || line.type === 'combo') {
        if (!owned.has(`${order.id}|${order.user_id}|${line.product_id}`)) {
          violations.push(
            `unfulfilled: order ${order.id} paid, product ${line.product_id} not owned`,
          );
        }
      }
      if (line.type === 'print') {
        toPost = true;
        if (!printed.has(line.id))
          violations.push(`unfulfilled: order ${order.id} item ${line.id} not printed`);
      } else if (line.type !== 'digital') {
        toPost = true;
        if (!shipped.has(line.id))
          violations.push(`unfulfilled: order ${order.id} item ${line.id} not shipped`);
      }
    }
    const expected = toPost ? 'paid' : 'fulfilled';
    if (order.status !== expected) {
      violations.push(`order ${order.id} is ${order.status}, expected ${expected}`);
    }
  }
  for (const order of orders.filter((o) => !paidIds.has(o.id))) {
    if ((succeededCharges.get(order.id) ?? 0) > 0) {
      violations.push(
        `order ${order.id} is ${order.status} but its payment succeeded at the gateway`,
      );
    }
  }

  // Stock: never negative; what left the shelf is what live orders hold.
  const [{ lowest } = { lowest: null }] = (
    await client.query<{ lowest: number | null }>('select min(stock) lowest from offerings')
  ).rows;
  if (lowest !== null && lowest < 0) violations.push(`negative stock: ${lowest}`);
  const stockAfter = await stockOf(client, [...stockBefore.keys()]);
  const held = await client.query<{ offering_id: number; n: number }>(
    `select oi.offering_id, count(*)::int n from order_items oi join orders o on o.id = oi.order_id
      where oi.took_stock and o.status <> 'canceled' and oi.offering_id = any($1::int[])
      group by oi.offering_id`,
    [[...stockBefore.keys()]],
  );
  const heldBy = new Map(held.rows.map((row) => [row.offering_id, row.n]));
  for (const [offeringId, before] of stockBefore) {
    const after = stockAfter.get(offeringId) ?? 0;
    const taken = heldBy.get(offeringId) ?? 0;
    if (before - after !== taken) {
      violations.push(
        `stock of offering ${offeringId}: ${before} → ${after}, but ${taken} units held by orders`,
      );
    }
  }

  return {
    violations,
    orders: orders.length,
    paidOrders: paidOrders.length,
    pendingOrders: orders.filter((o) => o.status === 'pending').length,
    refundedCharges: charges.filter((c) => c.status === 'refunded').length,
    shipments: shipments.length,
    ownerships: ownerships.length,
    mails: mails.length,
    lowestStock: lowest,
  };
}

/** Counts by a key, for the report. */
export function tally<T>(rows: T[], keyOf: (row: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const key = keyOf(row);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

export function describeOutcome(outcome: Outcome): string {
  return outcome.status === 0 ? (outcome.error ?? 'no answer') : String(outcome.status);
}
