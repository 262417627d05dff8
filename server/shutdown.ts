import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from './logger.ts';

// Graceful shutdown (issue 40): a deploy or a scale-down must drop no request. On SIGTERM or
// SIGINT (or `begin` called by whoever manages this process, such as a cluster's primary):
//  1. the process says it is not ready (/readyz 503, server/probes.ts) and every response from
//     now on carries `Connection: close`, so clients and balancers stop reusing its connections;
//  2. after SHUTDOWN_DELAY_MS (time for a balancer that polls /readyz to take it out; requests
//     are still served meanwhile) it stops accepting connections and closes the idle ones;
//  3. requests in flight finish; each connection closes after its last response;
//  4. then `close` stops the background work at a safe point (the mail being sent is finished,
//     the rest given back) and closes the database pool;
//  5. exit 0. Past SHUTDOWN_TIMEOUT_MS from the signal, it exits 1 anyway, saying what was left.
// Everything here is per process, so each worker of a cluster drains on its own.

export type ShutdownOptions = {
  log: Logger;
  /** From the signal to the forced exit. */
  timeoutMs: number;
  /** From the signal to closing the listening socket, serving as usual meanwhile. */
  delayMs: number;
  /** Called once, first: mark the process not ready, stop claiming background work. */
  onBegin?: () => void;
  /** After the last connection closed: stop the background work, close the database. */
  close: () => Promise<void>;
  exit?: (code: number) => void;
};

export class GracefulShutdown {
  readonly #options: ShutdownOptions;
  readonly #servers: Server[] = [];
  /** Responses begun and not yet closed, on every server. */
  readonly #open = new Set<ServerResponse>();
  #began: Promise<void> | null = null;
  /** From the end of the delay: the listening socket is closed, idle connections too. */
  #draining = false;
  #reason = '';

  constructor(options: ShutdownOptions) {
    this.#options = options;
  }

  /** True from the signal on. */
  get stopping(): boolean {
    return this.#began !== null;
  }

  /** Requests being answered now. */
  get inFlight(): number {
    return this.#open.size;
  }

  /**
   * Follows a server's requests. Runs before the server's own request listener, so a response
   * answered at once (a stored page) still learns that the connection is to close.
   */
  attach(server: Server): this {
    this.#servers.push(server);
    const follow = (_req: IncomingMessage, res: ServerResponse) => {
      this.#open.add(res);
      res.once('close', () => {
        this.#open.delete(res);
        // Its connection is idle now (unless the response said close): close it too. Not
        // during the delay: a client may be sending its next request on it, and is answered.
        if (this.#draining) setImmediate(() => server.closeIdleConnections());
      });
      if (this.stopping) closeAfter(res);
    };
    server.prependListener('request', follow);
    // Only beside a listener of the server's own: one alone would stop Node answering
    // `100 Continue` by itself.
    if (server.listenerCount('checkContinue') > 0) server.prependListener('checkContinue', follow);
    return this;
  }

  /** Handles SIGTERM and SIGINT; a second signal while stopping is logged, not obeyed. */
  onSignals(signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): this {
    for (const signal of signals) process.on(signal, () => void this.begin(signal));
    return this;
  }

  /** Starts the shutdown (once; later calls return the same promise). */
  begin(reason: string): Promise<void> {
    if (this.#began) {
      this.#options.log.info({ reason, first: this.#reason }, 'already shutting down');
      return this.#began;
    }
    this.#reason = reason;
    this.#began = this.#run(reason);
    return this.#began;
  }

  async #run(reason: string): Promise<void> {
    const { log, timeoutMs, delayMs } = this.#options;
    const exit = this.#options.exit ?? ((code: number) => process.exit(code));
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    log.info({ reason, inFlight: this.inFlight, delayMs, timeoutMs }, 'shutting down');
    const deadline = setTimeout(() => {
      log.error(
        { reason, inFlight: this.inFlight, ms: elapsed() },
        'shutdown deadline passed (SHUTDOWN_TIMEOUT_MS): exiting with work unfinished',
      );
      exit(1);
    }, timeoutMs);
    try {
      this.#options.onBegin?.();
      for (const res of this.#open) closeAfter(res);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      this.#draining = true;
      await Promise.all(this.#servers.map((server) => stopAccepting(server)));
      log.info({ ms: elapsed() }, 'every request answered');
      await this.#options.close();
      clearTimeout(deadline);
      log.info({ reason, ms: elapsed() }, 'stopped');
      exit(0);
    } catch (error) {
      clearTimeout(deadline);
      log.error({ err: error, reason, ms: elapsed() }, 'shutdown failed');
      exit(1);
    }
  }
}

/** The connection closes once this response is sent (when it is not sent yet). */
function closeAfter(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}

/** Closes the listening socket and idle connections; resolves once every connection closed. */
function stopAccepting(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
