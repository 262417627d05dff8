/** The PostgreSQL database test worker `worker` (VITEST_POOL_ID, from 1) uses: a copy of the migrated one. */
export function workerDatabaseName(template: string, worker: number): string {
  return `${template}_w${worker}`;
}

/**
 * The migrated database the test run copies for its workers. Under StrykerJS several test runs
 * go at once (one per STRYKER_MUTATOR_WORKER), each migrating and copying its own, so that one
 * run's setup never drops the database another run is testing in.
 */
export function templateDatabaseUrl(url: string): string {
  const mutationWorker = process.env.STRYKER_MUTATOR_WORKER;
  if (mutationWorker === undefined || !/^\d+$/.test(mutationWorker)) return url;
  const own = new URL(url);
  own.pathname = `${own.pathname}_s${mutationWorker}`;
  return own.toString();
}
