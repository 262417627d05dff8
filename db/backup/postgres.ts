// A logical backup of PostgreSQL (pg_dump's custom format) and the data directory's files,
// and its restore into a new, empty database (issue 40, docs/backups.md). The store keeps
// running: the rows are counted in a snapshot that pg_dump then dumps (`--snapshot`), so the
// manifest's counts are exactly the dump's. Base backups and WAL archiving, for restoring to
// any moment, are PostgreSQL's own tools, documented and tested (tests/resilience/backup.test.ts).
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { copyFiles, listDataFiles } from './data-files.ts';
import {
  BackupRefusal,
  countRowsSql,
  differentCounts,
  FILES_DIR,
  MANIFEST_FORMAT,
  type Manifest,
  type RowCounts,
  readManifest,
  requireEmptyDirectory,
  sha256File,
  verifyBackup,
  writeManifest,
} from './manifest.ts';
import { runPgTool } from './pg-tools.ts';

export const POSTGRES_DUMP = 'database.dump';

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function countRows(client: pg.Client): Promise<RowCounts> {
  return (await client.query<RowCounts>(countRowsSql())).rows[0] ?? {};
}

/**
 * Dumps the database at `url` into `to` (new or empty); with `dataDir` (book files on disk)
 * the data directory's files too, copied after the dump: they are never removed or rewritten,
 * so every file a dumped row names is there.
 */
export async function backupPostgres(options: {
  url: string;
  to: string;
  /** The data directory to copy; null when the book files are in an S3 bucket. */
  dataDir: string | null;
  filesNote?: string | null;
  now?: Date;
}): Promise<Manifest> {
  const to = path.resolve(options.to);
  requireEmptyDirectory(to, 'The backup directory');
  await mkdir(to, { recursive: true, mode: 0o700 });
  const dumpFile = path.join(to, POSTGRES_DUMP);
  const rows = await withClient(options.url, async (client) => {
    // One snapshot for the counts and the dump: held open until pg_dump has read it.
    await client.query('begin isolation level repeatable read read only');
    try {
      const { rows: snapshot } = await client.query<{ id: string }>(
        'select pg_export_snapshot() as id',
      );
      const counted = await countRows(client);
      await runPgTool('pg_dump', options.url, [
        '--format=custom',
        `--snapshot=${snapshot[0]!.id}`,
        `--file=${dumpFile}`,
      ]);
      return counted;
    } finally {
      await client.query('commit');
    }
  });
  const files = options.dataDir
    ? await copyFiles(
        path.resolve(options.dataDir),
        path.join(to, FILES_DIR),
        await listDataFiles(path.resolve(options.dataDir)),
      )
    : [];
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    kind: 'postgres',
    createdAt: (options.now ?? new Date()).toISOString(),
    database: {
      path: POSTGRES_DUMP,
      size: (await stat(dumpFile)).size,
      sha256: await sha256File(dumpFile),
      rows,
    },
    files,
    filesNote: options.filesNote ?? null,
  };
  writeManifest(to, manifest);
  return manifest;
}

/** Tables, views and sequences outside PostgreSQL's own schemas: a fresh database has none. */
async function objectsIn(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema')
        and n.nspname not like 'pg_toast%' and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Restores a PostgreSQL backup into the database at `url`, which must be empty (createdb), and
 * its files into `dataDir` (new or empty) when it has any; then counts the rows again.
 */
export async function restorePostgres(options: {
  from: string;
  url: string;
  dataDir: string | null;
}): Promise<{ manifest: Manifest; rows: RowCounts }> {
  const from = path.resolve(options.from);
  const manifest = readManifest(from);
  if (manifest.kind !== 'postgres') {
    throw new BackupRefusal(
      `${from} is a backup of the embedded database: restore it without DATABASE_URL, into a ` +
        'new data directory (--data-dir; docs/backups.md).',
    );
  }
  const database = new URL(options.url).pathname.slice(1);
  await withClient(options.url, async (client) => {
    const objects = await objectsIn(client);
    if (objects > 0) {
      throw new BackupRefusal(
        `The database ${database} is not empty (${objects} tables, views or sequences). ` +
          'Nothing was restored: restore into a new database (createdb NAME), check it, then ' +
          'point DATABASE_URL at it.',
      );
    }
  });
  const dataDir = options.dataDir ? path.resolve(options.dataDir) : null;
  if (manifest.files.length > 0) {
    if (!dataDir) throw new BackupRefusal('The backup has files: say where they go (--data-dir).');
    requireEmptyDirectory(dataDir, 'The data directory');
  }
  await verifyBackup(from, manifest);
  // --no-owner, --no-acl: the objects belong to the user restoring them, whatever the roles
  // of the server the dump came from. One transaction: a failed restore leaves nothing half.
  await runPgTool('pg_restore', options.url, [
    '--no-owner',
    '--no-acl',
    '--exit-on-error',
    '--single-transaction',
    path.join(from, manifest.database.path),
  ]);
  const rows = await withClient(options.url, countRows);
  if (dataDir && manifest.files.length > 0) {
    await copyFiles(
      path.join(from, FILES_DIR),
      dataDir,
      manifest.files.map((file) => file.path),
    );
  }
  const wrong = differentCounts(manifest.database.rows, rows);
  if (wrong.length > 0) {
    throw new Error(
      `The restored database ${database} does not hold what the backup counted:\n  ${wrong.join('\n  ')}`,
    );
  }
  return { manifest, rows };
}
