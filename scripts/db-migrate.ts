// npm run db:migrate: applies the pending migrations to DATABASE_URL, or to the embedded
// database in DATA_DIR (default ./data), then exits. The server does the same at every start,
// under the same advisory lock, so this is for deploy pipelines that migrate first.
import { openDatabase } from '#db/client.ts';
import { refuseIfInUse } from '#db/embedded-lock.ts';
import { migrateDatabase, migrationsFolder } from '#db/migrate.ts';

const url = process.env.DATABASE_URL;
const dataDir = process.env.DATA_DIR ?? './data';
const database = await openDatabase({ url, dataDir }).catch(refuseIfInUse);
try {
  await migrateDatabase(database);
  console.log(
    `migrations from ${migrationsFolder()} applied to ${url ? 'the PostgreSQL server' : `the embedded database in ${dataDir}`}`,
  );
} finally {
  await database.close();
}
