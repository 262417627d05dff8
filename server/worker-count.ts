import { type Config, MAX_WEB_CONCURRENCY } from './config.ts';

// Issue 40: how many processes serve the store on this machine (server/cluster.ts). On
// PostgreSQL in production, one per core unless WEB_CONCURRENCY says otherwise: every process
// shares the port and the database, and keeps nothing another one needs (docs/scaling.md).
// Everywhere else one process, as before: the embedded database is opened by one process only
// (db/embedded-lock.ts), development runs Vite in the one process, and the local test identity
// provider (DEV_CAMPUS_IDP_PORT) keeps its sign-ins in memory.

export type WorkerCount = {
  /** 1: the process serves by itself; more: a primary forks that many workers. */
  workers: number;
  /** Why, for the start's log line. */
  reason: string;
};

export function workerCount(
  config: Pick<Config, 'NODE_ENV' | 'DATABASE_URL' | 'DEV_CAMPUS_IDP_PORT' | 'WEB_CONCURRENCY'>,
  cores: number,
): WorkerCount {
  if (config.NODE_ENV !== 'production') return { workers: 1, reason: 'not in production' };
  if (!config.DATABASE_URL) {
    return { workers: 1, reason: 'the embedded database is opened by one process' };
  }
  if (config.WEB_CONCURRENCY !== undefined) {
    return { workers: config.WEB_CONCURRENCY, reason: 'WEB_CONCURRENCY' };
  }
  if (config.DEV_CAMPUS_IDP_PORT) {
    return { workers: 1, reason: 'the local test identity provider (DEV_CAMPUS_IDP_PORT)' };
  }
  return {
    workers: Math.max(1, Math.min(Math.floor(cores), MAX_WEB_CONCURRENCY)),
    reason: 'one per core',
  };
}
