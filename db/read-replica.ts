// Issue 40: the public catalog's reads from a PostgreSQL streaming replica (DATABASE_READ_URL).
// Only what every visitor sees alike goes there (products, search, categories, covers,
// sitemaps): a replica replays the primary's changes a little later, so what a user has just
// written (a cart, an order, a shelf, an opting) is read from the primary, always.
//
// Either server may go away on its own. A catalog read that meets a replica connection error is
// asked again of the primary, and catalog reads stay on the primary until a probe finds the
// replica again (one every half second at most, started by the reads themselves: no request
// waits for it). The other way round, while the primary is away the server answers anonymous
// pages from the replica alone (server/app.ts).
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Database, OpenPool, PoolStats } from './client.ts';
import * as schema from './schema/index.ts';

const PROBE_EVERY_MS = 500;
const PROBE_TIMEOUT_MS = 2_000;

export type ReadReplica = {
  /** The replica's own pool: what anonymous pages read while the primary is away. */
  db: Database;
  /** Catalog reads: the replica while it answers, else the primary (DatabaseHandle.catalogDb). */
  catalogDb: Database;
  /**
   * Whether catalog reads go to the replica now. Asked while they do not, it starts a probe in
   * the background (at most one every half second), whose answer the next caller sees.
   */
  isUp(): boolean;
  /** Called once per change of `isUp`, with why it went down (a connection error's message). */
  onChange(listener: (up: boolean, reason: string | null) => void): void;
  ping(timeoutMs: number): Promise<void>;
  poolStats(): PoolStats;
  lastPoolTimeout(): number;
  close(): Promise<void>;
};

/** Socket failures and PostgreSQL's "connection exception" and shutdown codes. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const SHUTDOWN_CODES = new Set(['57P01', '57P02', '57P03']);

/** The server could not be reached, or went away under the query. */
export function isConnectionError(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || SHUTDOWN_CODES.has(code) || code.startsWith('08')) {
        return true;
      }
    }
    if (cause.message.startsWith('Connection terminated')) return true;
  }
  return false;
}

/**
 * A hot standby cancels a query whose rows the primary's vacuum removed meanwhile (40001,
 * "conflict with recovery"), and refuses work while it is still starting: the primary answers.
 */
function worthAskingPrimary(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === '40001') return true;
    if (cause.message === 'timeout exceeded when trying to connect') return true;
  }
  return false;
}

type QueryArgs = [config: unknown, values?: unknown];

/**
 * What drizzle's node-postgres session is handed instead of a pool: each query goes to the
 * replica or the primary as `query` decides. Its name contains "Pool", so a transaction takes a
 * connection of its own (drizzle's `isPool` test), from whichever pool `current` names.
 */
class CatalogReadPool {
  constructor(
    private readonly route: (...args: QueryArgs) => Promise<unknown>,
    private readonly current: () => pg.Pool,
  ) {}

  query(...args: QueryArgs): Promise<unknown> {
    return this.route(...args);
  }

  connect(): Promise<pg.PoolClient> {
    return this.current().connect();
  }
}

export function openReadReplica(replica: OpenPool, primary: OpenPool): ReadReplica {
  let up = true;
  let probing = false;
  let probedAt = 0;
  const listeners: ((up: boolean, reason: string | null) => void)[] = [];
  const set = (next: boolean, reason: string | null) => {
    if (up === next) return;
    up = next;
    for (const listener of listeners) listener(next, reason);
  };
  const probeSoon = () => {
    if (probing || Date.now() - probedAt < PROBE_EVERY_MS) return;
    probing = true;
    replica
      .ping(PROBE_TIMEOUT_MS)
      .then(
        () => set(true, null),
        (error: unknown) => set(false, error instanceof Error ? error.message : String(error)),
      )
      .finally(() => {
        probing = false;
        probedAt = Date.now();
      });
  };
  replica.onConnectionError((error) => set(false, error.message));

  const poolQuery = (pool: pg.Pool, args: QueryArgs) =>
    (pool.query as (...a: QueryArgs) => Promise<unknown>).apply(pool, args);
  const route = async (...args: QueryArgs): Promise<unknown> => {
    if (!up) {
      probeSoon();
      return poolQuery(primary.pool, args);
    }
    try {
      return await poolQuery(replica.pool, args);
    } catch (error) {
      if (isConnectionError(error)) {
        set(false, error instanceof Error ? error.message : String(error));
      } else if (!worthAskingPrimary(error)) {
        throw error;
      }
      // A read asks again, and only reads come here.
      return poolQuery(primary.pool, args);
    }
  };
  const pool = new CatalogReadPool(route, () => (up ? replica.pool : primary.pool));
  return {
    db: replica.db,
    catalogDb: drizzle(pool as unknown as pg.Pool, {
      schema,
      casing: 'snake_case',
    }) as unknown as Database,
    isUp() {
      if (!up) probeSoon();
      return up;
    },
    onChange(listener) {
      listeners.push(listener);
    },
    ping: replica.ping,
    poolStats: replica.poolStats,
    lastPoolTimeout: replica.lastPoolTimeout,
    close: () => replica.pool.end(),
  };
}
