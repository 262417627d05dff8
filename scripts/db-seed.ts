// npm run db:seed -- [--products N] [--data-dir DIR] [--force] [--now ISO-DATE] [--writers N]
// Seeds the demo into DATABASE_URL, or the embedded database in the data directory. Refuses a
// database that already holds users or products unless --force, which empties every table.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '#db/client.ts';
import { refuseIfInUse } from '#db/embedded-lock.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { rowsOf } from '#db/seed/bulk-insert.ts';
import { DEFAULT_PRODUCTS, isDatabaseEmpty, MIN_PRODUCTS, seedDemo } from '#db/seed/demo.ts';
import { loadConfig } from '#server/config.ts';

const USAGE = `usage: npm run db:seed -- [--products N] [--data-dir DIR] [--force] [--now ISO-DATE] [--writers N]
  --products N     catalogue size (default ${DEFAULT_PRODUCTS}, at least ${MIN_PRODUCTS})
  --data-dir DIR   embedded database and book files (default $DATA_DIR or ./data)
  --force          empty every table first (TRUNCATE ... RESTART IDENTITY CASCADE)
  --now ISO-DATE   date the demo terms and deadlines are relative to (default: now)
  --writers N      PostgreSQL connections writing products at once; more than 1 commits per
                   batch (default: 2-4 from 50,000 products on PostgreSQL, otherwise 1)`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values: {
  products?: string;
  'data-dir'?: string;
  force?: boolean;
  now?: string;
  writers?: string;
  help?: boolean;
};
try {
  ({ values } = parseArgs({
    options: {
      products: { type: 'string' },
      'data-dir': { type: 'string' },
      force: { type: 'boolean' },
      now: { type: 'string' },
      writers: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const products = values.products === undefined ? DEFAULT_PRODUCTS : Number(values.products);
if (!Number.isInteger(products) || products < MIN_PRODUCTS) {
  fail(`--products must be an integer of at least ${MIN_PRODUCTS}`);
}
const now = values.now === undefined ? new Date() : new Date(values.now);
if (Number.isNaN(now.getTime())) fail(`--now is not a date: ${values.now}`);
const url = process.env.DATABASE_URL || undefined;
// Big catalogues on a PostgreSQL server load on several connections (one transaction each);
// everything else goes in one transaction, all or nothing.
const writers =
  values.writers !== undefined
    ? Number(values.writers)
    : url && products >= 50_000
      ? Math.min(4, Math.max(2, availableParallelism()))
      : 1;
if (!Number.isInteger(writers) || writers < 1 || writers > 16) {
  fail('--writers must be an integer from 1 to 16');
}
const dataDir = path.resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');

const database = await openDatabase({ url, dataDir, poolSize: Math.max(10, writers + 2) }).catch(
  refuseIfInUse,
);
try {
  await migrateDatabase(database);
  if (!(await isDatabaseEmpty(database.db))) {
    if (!values.force) {
      console.error(
        'The database already holds users or products; pass --force to empty it and seed again.',
      );
      process.exitCode = 1;
    } else {
      const tables = rowsOf<{ name: string }>(
        await database.db.execute(
          sql`select quote_ident(tablename) as name from pg_tables where schemaname = current_schema()`,
        ),
      );
      console.log(`emptying ${tables.length} tables`);
      await database.db.execute(
        sql.raw(`truncate table ${tables.map((t) => t.name).join(', ')} restart identity cascade`),
      );
    }
  }
  if (process.exitCode === undefined) {
    const where = url ? `PostgreSQL (${writers} writer${writers > 1 ? 's' : ''})` : dataDir;
    console.log(`seeding ${products} products into ${where}`);
    const started = Date.now();
    const log = (line: string) =>
      console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);
    const summary = await seedDemo(database, {
      products,
      dataDir,
      now,
      log,
      writers,
      // The key the server will read the codes with: the same variable, the same default.
      accessCodeKey: loadConfig().accessCodeKey,
      ltiKey: loadConfig().ltiKey,
    });
    // Statistics for the tables just filled: without them the first searches after a big seed
    // were planned blind (edition words p95 750 ms instead of 89 at a million products).
    await database.db.execute(sql`analyze`);
    log('analyzed');
    console.log(
      `done in ${(summary.ms / 1000).toFixed(1)} s: ${summary.products} products, ${summary.categories} categories, ${summary.users} users, ${summary.sections} sections, ${summary.bookFiles} book files`,
    );
  }
} finally {
  await database.close();
}
