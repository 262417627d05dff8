import { templateDatabaseUrl, workerDatabaseName } from './worker-database-name.ts';

// On PostgreSQL each test worker has a database of its own, copied from the migrated one by
// tests/global-setup.ts: DATABASE_URL, as every database test and the processes it starts
// read it, names this worker's copy. On PGlite (no DATABASE_URL) nothing changes.
const url = process.env.DATABASE_URL;
const worker = Number(process.env.VITEST_POOL_ID);
const named = url ? new URL(url).pathname.endsWith(workerDatabaseName('', worker)) : true;
if (url && Number.isInteger(worker) && worker > 0 && !named) {
  const own = new URL(templateDatabaseUrl(url));
  own.pathname = `/${workerDatabaseName(own.pathname.slice(1), worker)}`;
  process.env.DATABASE_URL = own.toString();
}
