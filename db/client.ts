import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { isLocalDatabase, lowerBackendPriority } from './backend-priority.ts';
import { lockEmbeddedDatabase } from './embedded-lock.ts';
import { openReadReplica, type ReadReplica } from './read-replica.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema>;
/** Anything a query can run on: the database or an open transaction. */
export type Queryable = Database | Transaction;

export type DatabaseHandle = {
  kind: 'pglite' | 'postgres';
  db: Database;
  /**
   * Where public catalog reads go (products, search, categories, covers, sitemaps; issue 40):
   * the read replica (DATABASE_READ_URL) while it answers, else the primary. Never personal
   * data, never a write: a replica lags behind what a user has just done. Without a replica it
   * is `db` itself.
   */
  catalogDb: Database;
  /** The read replica, when DATABASE_READ_URL is set (PostgreSQL only); else null. */
  replica: ReadReplica | null;
  /** Runs a callback with a dedicated session holding an advisory lock (migrations, seeding). */
  withLock<T>(key: number, fn: (db: Database) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Calls `onMessage` with each NOTIFY payload on `channel`, and `onMessage(null)` whenever
   * messages may have been missed (the listening connection dropped and came back).
   */
  listen(
    channel: string,
    onMessage: (payload: string | null) => void,
  ): Promise<() => Promise<void>>;
  /** PGlite only: the data directory as a tarball, to start other instances from. */
  dumpDataDir?: () => Promise<Blob>;
  /** Resolves when the database answers a trivial query within `timeoutMs`; else rejects. */
  ping(timeoutMs: number): Promise<void>;
  /** Called with each connection error the pool reports (a server restart, a network drop). */
  onConnectionError(listener: (error: Error) => void): void;
  /**
   * PostgreSQL only: when a query last waited its whole POOL_WAIT for a connection and was
   * refused (`performance.now()` time; 0 never). Every connection busy is overload, answered
   * 503 by the server, not an error (issue 37).
   */
  lastPoolTimeout(): number;
  /**
   * PostgreSQL only: the pool's connections now (open, idle) and the queries waiting for one,
   * for the metrics (server/metrics.ts); null on PGlite, one session without a pool.
   */
  poolStats(): PoolStats | null;
};

export type PoolStats = { max: number; total: number; idle: number; waiting: number };

/** pg-pool's refusal after waiting `connectionTimeoutMillis` for a connection. */
export function isPoolTimeout(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause.message === 'timeout exceeded when trying to connect') return true;
  }
  return false;
}

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

export type DatabaseOptions = {
  url?: string;
  /**
   * PostgreSQL only: a streaming replica of `url` for the public catalog's reads
   * (DATABASE_READ_URL, issue 40), with a pool of the same settings as the primary's.
   */
  readUrl?: string;
  dataDir?: string;
  /** A PGlite data directory image to start from (tests start from a migrated one). */
  loadDataDir?: Blob;
  poolSize?: number;
  /**
   * PostgreSQL only: how long a query waits for a free connection of the pool (all busy) before
   * it is refused; the server answers such a request 503 with Retry-After.
   */
  poolWaitMs?: number;
  /**
   * A query of the pool taking longer than this fails (PostgreSQL only; 0 = no limit), so a
   * request never hangs on a database that stopped answering. Locked work (migrations,
   * seeding) runs on a connection of its own without this limit.
   */
  queryTimeoutMs?: number;
  /**
   * PostgreSQL only: the server processes of this pool's connections run at this nice value
   * where the database is on this machine and we may (db/backend-priority.ts): a catalog
   * import leaves the CPU to the store's pages.
   */
  backendNice?: number;
};

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const poolOptions = {
      poolSize: options.poolSize ?? 10,
      poolWaitMs: options.poolWaitMs ?? 5_000,
      queryTimeoutMs: options.queryTimeoutMs ?? 0,
      backendNice: options.backendNice,
    };
    const primary = openPool(options.url, poolOptions);
    const replica = options.readUrl
      ? openReadReplica(openPool(options.readUrl, poolOptions, 'shelfmark catalog reads'), primary)
      : null;
    return postgresHandle(options.url, primary, replica);
  }
  if (options.readUrl) throw new Error('a read replica needs PostgreSQL (DATABASE_URL)');
  return openPglite(options);
}

async function openPglite(options: DatabaseOptions): Promise<DatabaseHandle> {
  let dataDir: string | undefined;
  let unlock = () => undefined as void;
  if (options.dataDir) {
    dataDir = path.resolve(options.dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
    // One process at a time writes an embedded database (issue 37, db/embedded-lock.ts).
    unlock = lockEmbeddedDatabase(path.resolve(options.dataDir));
  }
  let client: PGlite;
  try {
    client = await PGlite.create({
      dataDir,
      loadDataDir: options.loadDataDir,
      extensions: { pg_trgm },
    });
  } catch (error) {
    unlock();
    throw error;
  }
  const db = drizzlePglite(client, { schema, casing: 'snake_case' }) as unknown as Database;
  return {
    kind: 'pglite',
    db,
    catalogDb: db,
    replica: null,
    // One process owns an embedded database: no other session can race it.
    withLock: (_key, fn) => fn(db),
    close: async () => {
      await client.close();
      unlock();
    },
    listen: (channel, onMessage) => client.listen(channel, (payload) => onMessage(payload)),
    dumpDataDir: () => client.dumpDataDir('none'),
    // In this process: it is there as long as we are.
    ping: async () => undefined,
    onConnectionError: () => undefined,
    // One session, no pool: queries wait their turn, never refused.
    lastPoolTimeout: () => 0,
    poolStats: () => null,
  };
}

export type PoolOptions = {
  poolSize: number;
  poolWaitMs: number;
  queryTimeoutMs: number;
  backendNice: number | undefined;
};

/** A pool of connections to one PostgreSQL server, and what the handle reports of it. */
export type OpenPool = {
  url: string;
  pool: pg.Pool;
  db: Database;
  lastPoolTimeout(): number;
  poolStats(): PoolStats;
  ping(timeoutMs: number): Promise<void>;
  onConnectionError(listener: (error: Error) => void): void;
};

function openPool(url: string, options: PoolOptions, applicationName?: string): OpenPool {
  const { poolSize, queryTimeoutMs, backendNice } = options;
  // Search ranks up to a thousand matches in memory; the default 4 MB makes the GIN bitmap
  // of a common word lossy (measured: 'introduction' at 1M products 44 → 35 ms).
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: '-c work_mem=32MB',
    // Opening a connection costs more than a search: keep idle ones for a minute.
    idleTimeoutMillis: 60_000,
    // A database that does not answer, or a pool whose every connection stays busy this long,
    // fails the request instead of holding it (issues 13 and 37).
    connectionTimeoutMillis: options.poolWaitMs,
    ...(queryTimeoutMs > 0 ? { query_timeout: queryTimeoutMs } : {}),
    // Tells the replica's connections apart in pg_stat_activity (issue 40).
    ...(applicationName ? { application_name: applicationName } : {}),
  });
  // An idle connection that the server ends (a restart, `pg_ctl stop -m immediate`) is
  // reported here; without a listener Node would end the process. The pool drops it and opens
  // new ones when asked.
  const errorListeners: ((error: Error) => void)[] = [];
  pool.on('error', (error) => {
    for (const listener of errorListeners) listener(error);
  });
  // A connection that dies while checked out (mid-transaction) fails its query, which the
  // caller sees; its 'error' event must not become an uncaught exception as well.
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      for (const listener of errorListeners) listener(error);
    });
    if (backendNice !== undefined && isLocalDatabase(url)) {
      // Queued before the caller's first query on this connection.
      client.query<{ pid: number }>('select pg_backend_pid() as pid').then(
        ({ rows }) => lowerBackendPriority(url, rows[0]?.pid ?? 0, backendNice),
        () => undefined,
      );
    }
  });
  // Every query takes its connection through pool.connect (pool.query does too): a refusal
  // after the wait is noted, so the server can tell overload from a fault.
  let lastPoolTimeout = 0;
  const noteTimeout = (error: unknown) => {
    if (isPoolTimeout(error)) lastPoolTimeout = performance.now();
  };
  const connect = pool.connect.bind(pool) as (callback?: ConnectCallback) => unknown;
  (pool as unknown as { connect: (callback?: ConnectCallback) => unknown }).connect = (
    callback?: ConnectCallback,
  ) => {
    if (callback) {
      return connect((error, client, done) => {
        if (error) noteTimeout(error);
        callback(error, client, done);
      });
    }
    return (connect() as Promise<pg.PoolClient>).catch((error: unknown) => {
      noteTimeout(error);
      throw error;
    });
  };
  return {
    url,
    pool,
    db: drizzlePg(pool, { schema, casing: 'snake_case' }) as unknown as Database,
    lastPoolTimeout: () => lastPoolTimeout,
    poolStats: () => ({
      max: poolSize,
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    async ping(timeoutMs) {
      // A client of its own: the pool may be full of requests waiting for the same answer.
      const client = new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: timeoutMs,
        query_timeout: timeoutMs,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('select 1');
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    onConnectionError(listener) {
      errorListeners.push(listener);
    },
  };
}

function postgresHandle(
  url: string,
  primary: OpenPool,
  replica: ReadReplica | null,
): DatabaseHandle {
  return {
    kind: 'postgres',
    lastPoolTimeout: primary.lastPoolTimeout,
    poolStats: primary.poolStats,
    db: primary.db,
    catalogDb: replica?.catalogDb ?? primary.db,
    replica,
    async withLock(key, fn) {
      // A connection of its own, without the pool's query timeout: a migration or a seed of a
      // large catalog may run for minutes.
      const client = new pg.Client({ connectionString: url, options: '-c work_mem=32MB' });
      client.on('error', () => undefined);
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        try {
          return await fn(
            drizzlePg(client, { schema, casing: 'snake_case' }) as unknown as Database,
          );
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]);
        }
      } finally {
        await client.end();
      }
    },
    close: async () => {
      await Promise.all([primary.pool.end(), replica?.close()]);
    },
    // On the primary: a replica delivers no NOTIFY.
    listen: (channel, onMessage) => listenOnPostgres(url, channel, onMessage),
    ping: primary.ping,
    onConnectionError: primary.onConnectionError,
  };
}

/** A connection of its own (not the pool's) that LISTENs, reconnecting when it drops. */
async function listenOnPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string | null) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retryMs = 250;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? null);
    });
    next.on('error', () => undefined);
    next.on('end', () => {
      // A refused connect also ends its client: only the live connection's end schedules a
      // reconnect, or every failed try would add a loop of its own (thousands of connections
      // once the database is back).
      if (stopped || client !== next) return;
      client = null;
      setTimeout(() => void reconnect(), retryMs).unref();
    });
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
    retryMs = 250;
  };
  const reconnect = async () => {
    try {
      await connect();
      onMessage(null);
    } catch {
      // At most 2 s between tries: the caches must hear again soon after the database is back.
      retryMs = Math.min(retryMs * 2, 2_000);
      if (!stopped) setTimeout(() => void reconnect(), retryMs).unref();
    }
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end();
  };
}

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
