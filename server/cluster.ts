import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { serveMachineMetrics, WORKER_ENV } from './cluster-metrics.ts';
import { loadConfig } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import { type WorkerCount, workerCount } from './worker-count.ts';

// Every core of a machine (issue 40). server.js asks `planProcesses` first: on PostgreSQL in
// production it is one worker per core (WEB_CONCURRENCY), otherwise one process as before
// (server/worker-count.ts). With several, this process becomes the cluster's primary and
// never runs the app: it forks the workers, which all listen on the same port (node:cluster
// hands each new connection to the next worker in turn), restarts one that dies, answers the
// workers' requests for the machine's metrics (server/cluster-metrics.ts), and on SIGTERM or
// SIGINT lets every worker drain as a single process would (server/shutdown.ts), then exits.
// Nothing a request needs lives here: the workers share only the database (docs/scaling.md).
// Besides the web workers it forks one background process (SHELFMARK_ROLE=background): it
// answers no request and runs the outbox's mail, the order sweeper and roster imports, which
// the web workers then leave alone. In a rush those had to wait for every page the busy
// event loops had queued before them, and for their pool's connections: confirmations left
// 15-20 s after payment. In a process of their own the operating system shares the cores out.
//
// Built on its own (scripts/build-cluster.js → build/server/cluster.js) so that the primary
// loads neither React nor the database driver.

/** A worker that dies this soon after the previous death waits longer before the next try. */
const RESTART_FIRST_MS = 250;
const RESTART_MAX_MS = 30_000;
/** Deaths further apart than this start the back-off again. */
const RESTART_CALM_MS = 60_000;
/** Which part a forked process plays: `web` (listens) or `background` (mail, sweeps, imports). */
export const ROLE_ENV = 'SHELFMARK_ROLE';
/** What the background process sends its primary once it runs (it never listens). */
export const BACKGROUND_READY = 'shelfmark:background-ready';
/** The background process's slot; web workers have 1…wanted. */
const BACKGROUND_SLOT = 0;

/** How long past the workers' own SHUTDOWN_TIMEOUT_MS the primary waits before SIGKILL. */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * How many processes serve, from the environment; a bad variable throws the same "Invalid
 * configuration" naming it as the app's start (server/config.ts), before any worker is forked.
 */
export function planProcesses(env: NodeJS.ProcessEnv = process.env): WorkerCount {
  return workerCount(loadConfig(env), availableParallelism());
}

/** The wait before restarting a worker, from the deaths seen within RESTART_CALM_MS. */
export function restartDelay(recentDeaths: number): number {
  if (recentDeaths <= 1) return RESTART_FIRST_MS;
  return Math.min(RESTART_FIRST_MS * 2 ** (recentDeaths - 1), RESTART_MAX_MS);
}

export type PrimaryOptions = {
  count: WorkerCount;
  env?: NodeJS.ProcessEnv;
  /** Called once every worker listens, with the port (server.js prints the address). */
  onListening?: (port: number) => void;
  exit?: (code: number) => void;
};

/** Runs this process as the primary of `count.workers` workers of the same script. */
export function runPrimary(options: PrimaryOptions): void {
  const env = options.env ?? process.env;
  const config = loadConfig(env);
  const log = createLogger(config.LOG_LEVEL).child({ role: 'primary' });
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const wanted = options.count.workers;
  const primary = new Primary(log, wanted, config.SHUTDOWN_TIMEOUT_MS, exit, options.onListening);
  serveMachineMetrics();
  log.info({ workers: wanted, reason: options.count.reason }, 'starting workers');
  primary.start();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => primary.stop(signal));
  }
}

class Primary {
  /** Each live worker's slot (1…wanted; the background process 0), as SHELFMARK_WORKER. */
  readonly #slots = new Map<Worker, number>();
  readonly #listening = new Set<Worker>();
  #everyoneListened = false;
  /** When workers died unexpectedly, for the back-off. */
  #deaths: number[] = [];
  readonly #restarts = new Set<NodeJS.Timeout>();
  #stopping: string | null = null;
  /** A worker that did not exit 0 while stopping (its own deadline, or killed at ours). */
  #unclean = false;

  constructor(
    private readonly log: Logger,
    private readonly wanted: number,
    private readonly shutdownTimeoutMs: number,
    private readonly exit: (code: number) => void,
    private readonly onListening?: (port: number) => void,
  ) {}

  start(): void {
    let port = 0;
    const started = (worker: Worker, what: string) => {
      this.#listening.add(worker);
      this.log.info({ worker: worker.process.pid, slot: this.#slots.get(worker) }, what);
      // Every web worker listens and the background process runs: the start is done.
      if (!this.#everyoneListened && this.#listening.size === this.wanted + 1 && port) {
        this.#everyoneListened = true;
        this.onListening?.(port);
      }
    };
    cluster.on('exit', (worker, code, signal) => this.#exited(worker, code, signal));
    cluster.on('listening', (worker, address) => {
      port = address.port;
      started(worker, 'worker listening');
    });
    cluster.on('message', (worker, message) => {
      if (message === BACKGROUND_READY) started(worker, 'background process running');
    });
    this.#fork(BACKGROUND_SLOT);
    for (let slot = 1; slot <= this.wanted; slot += 1) this.#fork(slot);
  }

  #fork(slot: number): void {
    const role = slot === BACKGROUND_SLOT ? 'background' : 'web';
    const worker = cluster.fork({ [WORKER_ENV]: String(slot), [ROLE_ENV]: role });
    this.#slots.set(worker, slot);
  }

  #exited(worker: Worker, code: number | null, signal: string | null): void {
    const slot = this.#slots.get(worker) ?? 0;
    const listened = this.#listening.delete(worker);
    this.#slots.delete(worker);
    // `worker`, not `pid` (each line's own), and `exitCode`, not `code` (redacted).
    const facts = { worker: worker.process.pid, slot, exitCode: code, signal };
    if (this.#stopping) {
      if (code !== 0 && listened) this.#unclean = true;
      this.log.info(facts, 'worker stopped');
      if (this.#slots.size === 0) this.#finish();
      return;
    }
    if (!this.#everyoneListened && !listened) {
      // The first start failed (a bad database address, a migration that fails): each worker
      // would fail the same way, so the start fails as a single process's would.
      this.log.fatal(facts, 'a worker failed to start: stopping');
      this.#unclean = true;
      this.stop('a worker failed to start');
      return;
    }
    const now = Date.now();
    this.#deaths = [...this.#deaths.filter((at) => now - at < RESTART_CALM_MS), now];
    const delayMs = restartDelay(this.#deaths.length);
    this.log.error(
      { ...facts, restartInMs: delayMs },
      'worker exited unexpectedly: starting another',
    );
    const timer = setTimeout(() => {
      this.#restarts.delete(timer);
      if (!this.#stopping) this.#fork(slot);
    }, delayMs);
    this.#restarts.add(timer);
  }

  /** Every worker drains as on its own SIGTERM (server/shutdown.ts); then the primary exits. */
  stop(reason: string): void {
    if (this.#stopping) {
      this.log.info({ reason, first: this.#stopping }, 'already shutting down');
      return;
    }
    this.#stopping = reason;
    for (const timer of this.#restarts) clearTimeout(timer);
    this.#restarts.clear();
    this.log.info({ reason, workers: this.#slots.size }, 'shutting down the workers');
    if (this.#slots.size === 0) {
      this.#finish();
      return;
    }
    // A signal, not `worker.kill()`: that disconnects the worker first, which closes its share
    // of the port at once, before SHUTDOWN_DELAY_MS has let a balancer take the machine out.
    for (const worker of this.#slots.keys()) worker.process.kill('SIGTERM');
    const deadline = setTimeout(() => {
      this.log.error(
        { workers: [...this.#slots.keys()].map((w) => w.process.pid) },
        'workers still running past SHUTDOWN_TIMEOUT_MS: killing them',
      );
      this.#unclean = true;
      for (const worker of this.#slots.keys()) worker.process.kill('SIGKILL');
    }, this.shutdownTimeoutMs + SHUTDOWN_GRACE_MS);
    deadline.unref();
  }

  #finish(): void {
    const code = this.#unclean ? 1 : 0;
    this.log.info({ reason: this.#stopping, exitCode: code }, 'stopped');
    this.exit(code);
  }
}
