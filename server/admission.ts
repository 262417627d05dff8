// Issue 40, "Buying never slows browsing": how many requests a process works on at once, and
// which waiting one goes next (decision 044).
//
// Node works on every request it has accepted at the same time. When 400 students arrive in
// the same second, each of their database round trips goes to the back of one queue of 400,
// so a payment of 40 round trips takes 40 turns of the whole queue (8 s in the rush-week
// test), though it needs 50 ms of work. Here a process works on at most `limit` requests; the
// others wait their turn before any work is done for them, in three lanes:
//   finishing  a checkout and its payment: what a student already decided to buy;
//   browsing   everything else: pages, the cart, the shelf, the reader, the API;
//   arriving   a password checked (log in, sign up, a new password): the costliest request,
//              and the one a student can best wait for, at the door rather than at the till.
// Finishing goes before browsing. Arriving requests have places of their own (`door`, doorFor): their
// password hash runs on libuv's threads, so a log in keeps another core busy while the event
// loop serves pages. They come in while no page or checkout waits for a place, so those let in
// finish their visit before more come in; at least once every BROWSING_SHARE pages let in
// meanwhile, and whenever the first in line has waited PATIENCE_MS, so pages never keep anyone
// out. The door is small on purpose: in the rush-week test 4 or 8 places let so many journeys
// in at once that every page slowed (anonymous pages ×9–16 their idle time against ×1–2 with
// 2; docs/benchmarks.md, session 33).
// Stored anonymous pages and static files are served before this (server/edge.ts serveDirect)
// and never wait here, nor does a logged-in page composed from one (server/app.ts composable).

export type Lane = 'finishing' | 'browsing' | 'arriving';

export const LANES: readonly Lane[] = ['finishing', 'browsing', 'arriving'];

/** Browsing requests let in, at most, for each arriving one while both wait. */
const BROWSING_SHARE = 16;

/** How long the first at the door waits at most while pages wait (then the door's places alone). */
const PATIENCE_MS = 8_000;

/**
 * Arriving requests worked on at once, besides `limit`, and password hashes at once
 * (domain/accounts/password.ts): the machine's cores shared among its web workers, from 1 to 4.
 * One worker on this 2-core machine gets 2; two workers get 1 each, 2 for the machine: more,
 * and the hashes take the cores the event loops need (decision 044).
 */
export function doorFor(cores: number, workers: number): number {
  return Math.max(1, Math.min(4, Math.floor(cores / Math.max(1, workers))));
}

/** Paths whose POST checks a password (page routes; the `.data` twin and a final slash alike). */
const PASSWORD_PATHS = [
  /^\/accounts\/login$/,
  /^\/accounts\/signup$/,
  /^\/accounts\/password\/reset\/[^/]+$/,
];

/** The lane of a request, from its method and path alone (nothing is read to decide it). */
export function laneOf(method: string, pathname: string): Lane {
  const path = pathname.replace(/\.data$/, '').replace(/\/+$/, '') || '/';
  if (
    path === '/checkout' ||
    path.startsWith('/checkout/') ||
    path === '/api/payments' ||
    path.startsWith('/api/payments/')
  ) {
    return 'finishing';
  }
  if (method === 'POST' && PASSWORD_PATHS.some((pattern) => pattern.test(path))) return 'arriving';
  return 'browsing';
}

type Waiter = { at: number; admit: () => void };

export class Admission {
  #active = 0;
  #atTheDoor = 0;
  readonly #queues: Record<Lane, Waiter[]> = { finishing: [], browsing: [], arriving: [] };
  /** Browsing requests let in since an arriving one was, while one waited. */
  #browsingInARow = 0;

  constructor(
    readonly limit: number,
    readonly door: number = 2,
    private readonly browsingShare: number = BROWSING_SHARE,
    private readonly patienceMs: number = PATIENCE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    for (const n of [limit, door, browsingShare]) {
      if (!Number.isInteger(n) || n < 1) throw new RangeError('limits are whole numbers ≥ 1');
    }
  }

  /** Requests being worked on (the door's included). */
  get active(): number {
    return this.#active + this.#atTheDoor;
  }

  waiting(lane: Lane): number {
    return this.#queues[lane].length;
  }

  /**
   * Runs `work` once this process has room for it, in its lane's turn. A request whose visitor
   * went away while it waited (`signal` aborted) is dropped from its lane: `gone()` answers it
   * and no work is done.
   */
  async run<T>(
    lane: Lane,
    signal: AbortSignal | undefined,
    work: () => Promise<T>,
    gone: () => T,
  ): Promise<T> {
    if (!(await this.#enter(lane, signal))) return gone();
    try {
      return await work();
    } finally {
      if (lane === 'arriving') this.#atTheDoor -= 1;
      else this.#active -= 1;
      this.#letIn();
    }
  }

  #enter(lane: Lane, signal: AbortSignal | undefined): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const queue = this.#queues[lane];
      const onAbort = () => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        resolve(false);
      };
      const waiter: Waiter = {
        at: this.now(),
        admit: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(true);
        },
      };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#letIn();
    });
  }

  /** Lets in whoever may come in now, in turn. */
  #letIn() {
    const { finishing, browsing, arriving } = this.#queues;
    for (;;) {
      const pagesWaiting = finishing.length + browsing.length > 0;
      // Someone at the door comes in when no page or checkout waits, or after their share.
      if (
        arriving.length > 0 &&
        this.#atTheDoor < this.door &&
        (!pagesWaiting ||
          this.#browsingInARow >= this.browsingShare ||
          this.now() - arriving[0]!.at >= this.patienceMs)
      ) {
        this.#browsingInARow = 0;
        this.#atTheDoor += 1;
        arriving.shift()!.admit();
        continue;
      }
      if (!pagesWaiting || this.#active >= this.limit) return;
      this.#active += 1;
      if (finishing.length > 0) {
        finishing.shift()!.admit();
      } else {
        if (arriving.length > 0) this.#browsingInARow += 1;
        browsing.shift()!.admit();
      }
    }
  }
}
