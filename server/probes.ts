import type { IncomingMessage, ServerResponse } from 'node:http';

// What a load balancer asks each process (issue 40), on every site's host, before the edge,
// the page cache or a session is looked at: no database work for liveness, no log line, no
// cookie, never stored by a cache.
// - `/healthz`: 200 while the process runs and its event loop turns (restart it otherwise).
// - `/readyz`: 200 while it should be sent requests: started (migrations ran: the process
//   listens only after them), not shutting down, and the database answers a trivial query
//   within READY_TIMEOUT_MS. 503 otherwise, so the balancer takes the process out first.

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
/** How long the database has to answer `select 1` for the process to be ready. */
export const READY_TIMEOUT_MS = 1_000;
/** Balancers (and several of them) ask often: one answer of the database serves them this long. */
export const READY_REUSE_MS = 1_000;

export type ProbeKind = 'health' | 'ready';

/** Which probe a request target asks for (a query string is ignored), or null. */
export function probeOf(target: string): ProbeKind | null {
  const pathname = target.split('?', 1)[0];
  if (pathname === HEALTH_PATH) return 'health';
  if (pathname === READY_PATH) return 'ready';
  return null;
}

/**
 * Whether the database answers, asked at most once per READY_REUSE_MS however many probes
 * come (one question at a time, shared by every probe waiting for it).
 */
export class DatabaseReadiness {
  #answer: { ok: boolean; at: number } | null = null;
  #asking: Promise<boolean> | null = null;

  constructor(
    private readonly ping: (timeoutMs: number) => Promise<void>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  answers(): Promise<boolean> {
    const answer = this.#answer;
    if (answer && this.now() - answer.at < READY_REUSE_MS) return Promise.resolve(answer.ok);
    this.#asking ??= withTimeout(this.ping(READY_TIMEOUT_MS), READY_TIMEOUT_MS)
      .then(
        () => true,
        () => false,
      )
      .then((ok) => {
        this.#answer = { ok, at: this.now() };
        this.#asking = null;
        return ok;
      });
    return this.#asking;
  }
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const HEADERS = {
  'Content-Type': 'text/plain; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * Answers a probe and returns true, or returns false for any other request. GET and HEAD
 * only; another method is 405.
 */
export function answerProbe(
  req: IncomingMessage,
  res: ServerResponse,
  isReady: () => Promise<boolean>,
): boolean {
  const kind = probeOf(req.url ?? '/');
  if (!kind) return false;
  const method = req.method ?? 'GET';
  const head = method === 'HEAD';
  const reply = (status: number, text: string, extra: Record<string, string> = {}) => {
    const body = `${text}\n`;
    res.writeHead(status, {
      ...HEADERS,
      ...extra,
      'Content-Length': String(Buffer.byteLength(body)),
    });
    res.end(head ? undefined : body);
  };
  // A probe has no body; whatever is sent is dropped.
  req.resume();
  if (method !== 'GET' && !head) {
    reply(405, 'method not allowed', { Allow: 'GET, HEAD' });
  } else if (kind === 'health') {
    reply(200, 'ok');
  } else {
    isReady().then(
      (ready) => (ready ? reply(200, 'ready') : reply(503, 'not ready', { 'Retry-After': '5' })),
      () => reply(503, 'not ready', { 'Retry-After': '5' }),
    );
  }
  return true;
}
