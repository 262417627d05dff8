// Small per-process caches for data every visitor shares (sites, banners, trays, search
// answers). Each entry lives `ttlMs`; the oldest entry goes when `maxEntries` is reached.
// When the catalog or a site changes, the server's invalidation listener calls
// `clearTimedCaches()` so that no process keeps serving what was just edited (DESIGN.md,
// Scale path: nothing here is state another process needs).

const registry = new Set<TimedCache<unknown, unknown>>();

export class TimedCache<K, V> {
  readonly #entries = new Map<K, { value: V; at: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1_000,
  ) {
    registry.add(this as TimedCache<unknown, unknown>);
  }

  get(key: K): V | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at >= this.ttlMs) {
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

  /** The cached value, or the loader's answer stored for next time. */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    this.set(key, value);
    return value;
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  /** Forgets the entries whose value matches (a changed account's sessions). */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** Forgets every cached value in this process (the catalog or a site just changed). */
export function clearTimedCaches(): void {
  for (const cache of registry) cache.clear();
}
