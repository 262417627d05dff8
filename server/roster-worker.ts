import type { Queryable } from '#db/client.ts';
import { runQueuedRosterImports, STALE_AFTER_MS } from '#domain/operations/roster/roster-jobs.ts';
import type { BookFileStore } from '#domain/reading/file-store.ts';
import type { Logger } from './logger.ts';

/**
 * Roster imports that lost their process (issue 39, decision 035): at start and then every
 * `intervalMs`, this process takes over the imports whose heartbeat went stale (a restart, a
 * crash, another machine gone) and runs them again from their package, and a queued one left
 * waiting as long (the process that queues an import runs it at once). With the embedded
 * database no other process can be running one, so at start every import waiting is an orphan. Several processes may run this at once: each import is
 * claimed by one (FOR UPDATE SKIP LOCKED), under a lease.
 */
export function startRosterWorker(options: {
  db: Queryable;
  store: BookFileStore;
  log: Logger;
  embedded: boolean;
  intervalMs?: number;
}): () => Promise<void> {
  const { db, store, log } = options;
  let stopping = false;
  let running: Promise<void> | null = null;
  const sweep = (staleAfterMs = STALE_AFTER_MS) => {
    if (running || stopping) return;
    running = runQueuedRosterImports(db, store, {
      staleAfterMs,
      queuedForMs: staleAfterMs,
      stopping: () => stopping,
    })
      .then((ids) => {
        if (ids.length > 0) log.info({ imports: ids }, 'roster imports run after an interruption');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'roster import stopped'))
      .finally(() => {
        running = null;
      });
  };
  sweep(options.embedded ? 0 : STALE_AFTER_MS);
  const timer = setInterval(() => sweep(), options.intervalMs ?? 30_000);
  timer.unref();
  // Stopping (issue 40): no import is claimed any more; the one running is waited for (the
  // shutdown's deadline bounds the wait; an import cut short is taken over by its lease).
  return async () => {
    stopping = true;
    clearInterval(timer);
    await running;
  };
}
