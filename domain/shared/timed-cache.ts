// Small per-process caches for data every visitor shares (sites, banners, trays, search
// answers). Each entry lives `ttlMs`; the oldest entry goes when `maxEntries` is reached.
// When the catalog or a site changes, the server's invalidation listener (server/app.ts) makes
// every process forget what it showed (DESIGN.md, Scale path: nothing here is state another
// process needs):
// - a change to named products (a manager's edit, a catalog import's batch) forgets the
//   entries that show one of those products, and the caches of product lists; the lists at
//   most once every LIST_FORGET_INTERVAL_MS, so that an import naming a thousand products a
//   second does not send every shopper's tray and search to a busy database each time (issue
//   15). A list is then at most that long behind; the last change always clears it;
// - any other change (a site, a banner, a mass update) forgets everything.

/** What a cache's entries show, for what a products notice forgets. */
export type CacheShows<V> =
  /** Each entry shows the products it names: an entry naming a changed one goes. */
  | { products: (value: V) => readonly number[] }
  /** Entries list products (trays, search, counts): all go, at most once an interval. */
  | 'product lists'
  /** Nothing a product change touches (sessions, sites). */
  | 'other';

export const LIST_FORGET_INTERVAL_MS = 2_000;

const registry = new Set<TimedCache<unknown, unknown>>();

export class TimedCache<K, V> {
  readonly #entries = new Map<K, { value: V; at: number }>();
  /** Loads under way (`getOrLoad`): every caller asking meanwhile waits for the same one. */
  readonly #loading = new Map<K, Promise<V>>();
  /** Changes on every forgetting: a load begun before one is not stored. */
  #generation = 0;

  /**
   * `staleMs`: how long past `ttlMs` an entry is still answered while `getOrLoad` loads it
   * again in the background (0: never). For what the hot path needs and a change notification
   * already forgets (a site): on expiry, shoppers' requests used to wait for a busy database
   * all at once (issue 15).
   */
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1_000,
    readonly shows: CacheShows<V> = 'other',
    private readonly staleMs = 0,
  ) {
    registry.add(this as TimedCache<unknown, unknown>);
  }

  /** The value, while within its time to live (or, for a cache with `staleMs`, within that). */
  get(key: K): V | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at >= this.ttlMs + this.staleMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: K, value: V): void {
    if (!this.#entries.has(key) && this.#entries.size >= this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value as K);
    }
    this.#entries.set(key, { value, at: Date.now() });
  }

  /**
   * The cached value, or the loader's answer stored for next time. One load per key at a
   * time: callers arriving while it runs share it. Past the time to live but within `staleMs`,
   * the old value is answered at once and the load runs in the background (its failure keeps
   * the old value until `staleMs` runs out).
   */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.#entries.get(key);
    const age = hit ? Date.now() - hit.at : Number.POSITIVE_INFINITY;
    if (hit && age < this.ttlMs) return hit.value;
    if (hit && age < this.ttlMs + this.staleMs) {
      this.#load(key, load).catch(() => {});
      return hit.value;
    }
    if (hit) this.#entries.delete(key);
    return this.#load(key, load);
  }

  #load(key: K, load: () => Promise<V>): Promise<V> {
    const under = this.#loading.get(key);
    if (under) return under;
    const generation = this.#generation;
    const loading = load().then(
      (value) => {
        if (generation === this.#generation) this.set(key, value);
        this.#doneLoading(key, loading);
        return value;
      },
      (error: unknown) => {
        this.#doneLoading(key, loading);
        throw error;
      },
    );
    this.#loading.set(key, loading);
    return loading;
  }

  #doneLoading(key: K, loading: Promise<V>): void {
    if (this.#loading.get(key) === loading) this.#loading.delete(key);
  }

  delete(key: K): void {
    this.#forgetting();
    this.#entries.delete(key);
  }

  /**
   * Forgets the entries whose value matches (a changed account's sessions, a changed
   * product's details). Loads under way go on: which of them read the change cannot be told
   * before they end, and an import's notices, twenty a second, would otherwise keep every
   * product page's details from being stored (issue 15).
   */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#entries.delete(key);
  }

  clear(): void {
    this.#forgetting();
    this.#entries.clear();
  }

  /** What a load under way read may be what is being forgotten: it is neither shared nor kept. */
  #forgetting(): void {
    this.#generation += 1;
    this.#loading.clear();
  }
}

/** Forgets every cached value in this process (the catalog or a site just changed). */
export function clearTimedCaches(): void {
  listsForgottenAt = Number.NEGATIVE_INFINITY;
  clearTimeout(pendingListForget);
  pendingListForget = undefined;
  for (const cache of registry) cache.clear();
}

let listsForgottenAt = Number.NEGATIVE_INFINITY;
let pendingListForget: ReturnType<typeof setTimeout> | undefined;

function forgetLists(): void {
  listsForgottenAt = Date.now();
  pendingListForget = undefined;
  for (const cache of registry) if (cache.shows === 'product lists') cache.clear();
}

/** These products changed: forgets what shows them (see the top of this file). */
export function forgetProducts(ids: readonly number[]): void {
  const changed = new Set(ids);
  for (const cache of registry) {
    const { shows } = cache;
    if (typeof shows === 'object') {
      cache.deleteWhere((value) => shows.products(value).some((id) => changed.has(id)));
    }
  }
  const wait = listsForgottenAt + LIST_FORGET_INTERVAL_MS - Date.now();
  if (wait <= 0) {
    forgetLists();
  } else if (pendingListForget === undefined) {
    // Within the interval: once more at its end, so the last change is not missed.
    pendingListForget = setTimeout(forgetLists, wait);
    pendingListForget.unref?.();
  }
}
