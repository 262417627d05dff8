import { createHash } from 'node:crypto';
import type { PersonalRecipe } from '#web/utils/personal-recipe.ts';
import { compressBuffer, type Encoding } from './compression.ts';

// Rendered anonymous catalog pages, kept in this process's memory (issue 3, "render once").
// A page is stored with the product ids it shows as tags; a change notification for one of
// those products (or 'all') evicts it at once, and every entry is rendered again in the
// background once past `ttlMs`, so time-bound content (banners, best-seller order) is never
// older than that and the time of a render (REFRESH_GRACE_MS at most). Entries are
// dropped oldest-first past `maxBytes`. Nothing personal is ever stored: the server only
// offers responses rendered for a visitor without a session (see app.ts).

export type CachedPage = {
  status: number;
  body: Buffer;
  etag: string;
  headers: [string, string][];
  tags: string[];
  /** The metrics' route label of the page (server/metrics.ts). */
  route?: string;
  /** CSP hashes of the page's inline scripts, for a response composed from it (decision 043). */
  scriptHashes?: string[];
  /** How a logged-in visitor's page is composed from this one, if it may be (decision 043). */
  personal?: PersonalRecipe | null;
  storedAt: number;
  /** The body compressed, made on first asking for each encoding (compression.ts). */
  encoded: Partial<Record<Encoding, Buffer>>;
  /** Past its time to live, when a render of it began (`claimRefresh`). */
  refreshingSince?: number;
};

/**
 * How long a render of a page past its time to live may take before another is begun; the old
 * copy is served meanwhile, and goes once twice this has passed without a render stored.
 */
export const REFRESH_GRACE_MS = 5_000;

/**
 * How long an eviction is remembered for the renders that were under way (set's `stale`); a
 * render that took longer than this is not stored.
 */
export const EVICTION_MEMORY_MS = 30_000;

export class PageCache {
  readonly #pages = new Map<string, CachedPage>();
  readonly #keysByTag = new Map<string, Set<string>>();
  #bytes = 0;
  #generation = 0;
  /**
   * Each tag's latest eviction (the generation it made), oldest first, kept only while a
   * render begun before it is under way, and at most EVICTION_MEMORY_MS.
   */
  readonly #evictions = new Map<string, { generation: number; at: number }>();
  /** The renders under way: how many began in each generation (`beginRender`). */
  readonly #rendering = new Map<number, number>();
  /** A render begun before this generation is not stored (a clear, or an eviction forgotten). */
  #storableFrom = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxBytes: number,
  ) {}

  /**
   * A render begins: its generation, for `set` and then `endRender`. The generation changes on
   * every eviction. A render that began before the eviction of one of the products it shows
   * must not be stored; one that shows none of them may (issue 15: an import evicts other
   * products twenty times a second, and a product page rendering meanwhile was never stored
   * again, so every shopper's request rendered it).
   */
  beginRender(): number {
    const generation = this.#generation;
    this.#rendering.set(generation, (this.#rendering.get(generation) ?? 0) + 1);
    return generation;
  }

  /**
   * That render is over, stored or not. An eviction no render under way began before is
   * forgotten: an import evicting a hundred thousand products kept a hundred thousand of them
   * in memory for EVICTION_MEMORY_MS, and the bookkeeping held every shopper's page behind it
   * (issue 15).
   */
  endRender(generation: number): void {
    const left = (this.#rendering.get(generation) ?? 0) - 1;
    if (left > 0) this.#rendering.set(generation, left);
    else this.#rendering.delete(generation);
    this.#forgetEvictions(Date.now());
  }

  /** Renders under way (for tests and metrics). */
  get rendersUnderWay(): number {
    let count = 0;
    for (const n of this.#rendering.values()) count += n;
    return count;
  }

  /** Evictions remembered (for tests and metrics). */
  get evictionsRemembered(): number {
    return this.#evictions.size;
  }

  /**
   * The stored page, if any: within its time to live, or past it by less than twice
   * REFRESH_GRACE_MS while it is rendered again (`claimRefresh`). Older, it goes: nobody asked
   * for it meanwhile, or its renders keep failing to be stored, and the visitor's request
   * renders it.
   */
  get(key: string, now = Date.now()): CachedPage | undefined {
    const page = this.#pages.get(key);
    if (!page) return undefined;
    if (now - page.storedAt < this.ttlMs) return page;
    if (now - page.storedAt >= this.ttlMs + 2 * REFRESH_GRACE_MS) {
      this.#delete(key);
      return undefined;
    }
    return page;
  }

  /**
   * Whether the caller should render this page again, in the background: it is past its time
   * to live, and no render began within REFRESH_GRACE_MS. Every request meanwhile, the first
   * included, gets the old copy: a shopper never waits for a render of a stored page, which on
   * a database an import keeps busy took hundreds of milliseconds (issue 15).
   */
  claimRefresh(key: string, now = Date.now()): boolean {
    const page = this.#pages.get(key);
    if (!page || now - page.storedAt < this.ttlMs) return false;
    if (page.refreshingSince !== undefined && now - page.refreshingSince < REFRESH_GRACE_MS) {
      return false;
    }
    page.refreshingSince = now;
    return true;
  }

  set(
    key: string,
    page: Omit<CachedPage, 'etag' | 'storedAt' | 'encoded'>,
    renderedInGeneration: number,
  ): CachedPage {
    const stored: CachedPage = {
      ...page,
      encoded: {},
      etag: `"${createHash('sha256').update(page.body).digest('base64url').slice(0, 27)}"`,
      storedAt: Date.now(),
    };
    const stale =
      renderedInGeneration < this.#storableFrom ||
      page.tags.some((tag) => (this.#evictions.get(tag)?.generation ?? 0) > renderedInGeneration);
    if (stale || page.body.length > this.maxBytes / 8) return stored;
    this.#delete(key);
    this.#pages.set(key, stored);
    this.#bytes += stored.body.length;
    for (const tag of stored.tags) {
      const keys = this.#keysByTag.get(tag) ?? new Set<string>();
      keys.add(key);
      this.#keysByTag.set(tag, keys);
    }
    while (this.#bytes > this.maxBytes) {
      const oldest = this.#pages.keys().next().value;
      if (oldest === undefined) break;
      this.#delete(oldest);
    }
    return stored;
  }

  /** A stored page's body in this encoding, compressed once and kept with the page. */
  encodedBody(key: string, page: CachedPage, encoding: Encoding): Buffer {
    const known = page.encoded[encoding];
    if (known) return known;
    const body = compressBuffer(page.body, encoding);
    page.encoded[encoding] = body;
    if (this.#pages.get(key) === page) this.#bytes += body.length;
    return body;
  }

  /** Evicts the pages carrying any of these tags. */
  invalidate(tags: Iterable<string>, now = Date.now()): void {
    this.#generation += 1;
    const remember = this.#rendering.size > 0;
    for (const tag of tags) {
      const keys = this.#keysByTag.get(tag);
      if (keys) for (const key of keys) this.#delete(key);
      if (!remember) continue;
      // Latest last: the map stays in the order of the evictions.
      this.#evictions.delete(tag);
      this.#evictions.set(tag, { generation: this.#generation, at: now });
    }
    this.#forgetEvictions(now);
  }

  /**
   * Forgets the evictions no render under way began before, and those older than
   * EVICTION_MEMORY_MS; a render begun before one of the latter is then never stored.
   */
  #forgetEvictions(now: number): void {
    if (this.#evictions.size === 0) return;
    let oldestRender = Number.POSITIVE_INFINITY;
    for (const generation of this.#rendering.keys()) {
      oldestRender = Math.min(oldestRender, generation);
    }
    for (const [tag, eviction] of this.#evictions) {
      if (eviction.generation > oldestRender) {
        if (now - eviction.at < EVICTION_MEMORY_MS) break;
        this.#storableFrom = Math.max(this.#storableFrom, eviction.generation);
      }
      this.#evictions.delete(tag);
    }
  }

  clear(): void {
    this.#generation += 1;
    this.#storableFrom = this.#generation;
    this.#evictions.clear();
    this.#pages.clear();
    this.#keysByTag.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#pages.size;
  }

  #delete(key: string): void {
    const page = this.#pages.get(key);
    if (!page) return;
    this.#pages.delete(key);
    this.#bytes -=
      page.body.length + (page.encoded.br?.length ?? 0) + (page.encoded.gzip?.length ?? 0);
    for (const tag of page.tags) {
      const keys = this.#keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#keysByTag.delete(tag);
    }
  }
}

/**
 * What a change notification asks to forget: some products (migration 0004), some accounts
 * (migration 0007), or everything — also when messages may have been lost (null).
 */
export type ChangeNotice =
  | { kind: 'products'; ids: number[]; tags: string[] }
  | { kind: 'accounts'; userIds: number[] }
  | { kind: 'all' };

const ID_LIST = /^\d{1,10}(?:,\d{1,10})*$/;

export function readNotification(payload: string | null): ChangeNotice {
  const ids = (prefix: string) => {
    if (!payload?.startsWith(prefix)) return null;
    const list = payload.slice(prefix.length);
    // One test of the whole list: an import sends hundreds of ids a message.
    return ID_LIST.test(list) ? list.split(',').map(Number) : null;
  };
  const products = ids('p:');
  if (products) return { kind: 'products', ids: products, tags: products.map(productTag) };
  const users = ids('u:');
  if (users) return { kind: 'accounts', userIds: users };
  return { kind: 'all' };
}

export function productTag(id: number | string): string {
  return `p:${id}`;
}
