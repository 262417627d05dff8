/** The PostgreSQL database test worker `worker` (VITEST_POOL_ID, from 1) uses: a copy of the migrated one. */
export function workerDatabaseName(template: string, worker: number): string {
  return `${template}_w${worker}`;
}
