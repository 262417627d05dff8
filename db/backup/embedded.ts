// A consistent backup of the embedded database (PGlite in DATA_DIR) and the data directory's
// files, and its restore into a fresh directory (issue 40; why this way: docs/backups.md).
//
// PGlite is PostgreSQL in this process: no other process can read its files while the store
// writes them (db/embedded-lock.ts). So the backup opens the database itself, which takes the
// directory's lock — refused while the store runs — and holds it until the files are copied
// too: nothing changes under the copy. The image is PGlite's own `dumpDataDir` after a
// CHECKPOINT: the format `loadDataDir` takes back (as every test worker does), taken by
// PostgreSQL between two queries, so a store that was killed is recovered before it is copied
// instead of being copied mid-recovery.
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { type DatabaseHandle, openDatabase, queryRows } from '../client.ts';
import { EmbeddedDatabaseInUse } from '../embedded-lock.ts';
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

export const EMBEDDED_IMAGE = 'database.tar.gz';

export async function countRows(database: DatabaseHandle): Promise<RowCounts> {
  const [row] = await queryRows<RowCounts>(database.db, sql.raw(countRowsSql()));
  return row ?? {};
}

async function openEmbedded(dataDir: string, loadDataDir?: Blob): Promise<DatabaseHandle> {
  try {
    return await openDatabase({ dataDir, loadDataDir });
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseInUse)) throw error;
    throw new BackupRefusal(
      `The store is running on ${dataDir} (pid ${error.holder.pid}: ${error.holder.command}, ` +
        `since ${error.holder.since}). The embedded database can only be copied consistently ` +
        'while nothing writes it: stop the store (Ctrl+C in its terminal, or stop its service), ' +
        'run the backup, then start the store again. A store that must keep running while it ' +
        'is backed up belongs on PostgreSQL (DATABASE_URL; docs/backups.md).',
    );
  }
}

/** Backs up the embedded database in `dataDir` and its files into `to` (new or empty). */
export async function backupEmbedded(options: {
  dataDir: string;
  to: string;
  now?: Date;
}): Promise<Manifest> {
  const dataDir = path.resolve(options.dataDir);
  const to = path.resolve(options.to);
  if (!existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))) {
    throw new BackupRefusal(
      `There is no embedded database in ${dataDir} (no pglite/PG_VERSION). Give the store's ` +
        'data directory (--data-dir or DATA_DIR), or set DATABASE_URL to back up PostgreSQL.',
    );
  }
  requireEmptyDirectory(to, 'The backup directory');
  const database = await openEmbedded(dataDir);
  try {
    // Everything on the data files, so that the image needs no WAL replayed to open.
    await database.db.execute(sql`checkpoint`);
    const rows = await countRows(database);
    const image = Buffer.from(await (await database.dumpDataDir!()).arrayBuffer());
    await mkdir(to, { recursive: true, mode: 0o700 });
    const imageFile = path.join(to, EMBEDDED_IMAGE);
    await writeFile(imageFile, await promisify(gzip)(image, { level: 3 }), { flag: 'wx' });
    // Still holding the lock: no book file is added while they are copied.
    const files = await copyFiles(dataDir, path.join(to, FILES_DIR), await listDataFiles(dataDir));
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      kind: 'embedded',
      createdAt: (options.now ?? new Date()).toISOString(),
      database: {
        path: EMBEDDED_IMAGE,
        size: (await stat(imageFile)).size,
        sha256: await sha256File(imageFile),
        rows,
      },
      files,
      filesNote: null,
    };
    writeManifest(to, manifest);
    return manifest;
  } finally {
    await database.close();
  }
}

/**
 * Restores a backup of the embedded database into `dataDir`, which must be new or empty: the
 * backup's checksums first, then the database and the files, then the rows counted again.
 */
export async function restoreEmbedded(options: {
  from: string;
  dataDir: string;
}): Promise<{ manifest: Manifest; rows: RowCounts }> {
  const from = path.resolve(options.from);
  const dataDir = path.resolve(options.dataDir);
  const manifest = readManifest(from);
  if (manifest.kind !== 'embedded') {
    throw new BackupRefusal(
      `${from} is a backup of PostgreSQL: restore it with DATABASE_URL set to a new, empty ` +
        'database (docs/backups.md).',
    );
  }
  requireEmptyDirectory(dataDir, 'The data directory');
  await verifyBackup(from, manifest);
  const image = await promisify(gunzip)(await readFile(path.join(from, manifest.database.path)));
  await mkdir(dataDir, { recursive: true });
  const database = await openEmbedded(dataDir, new Blob([image]));
  let rows: RowCounts;
  try {
    rows = await countRows(database);
  } finally {
    await database.close();
  }
  await copyFiles(
    path.join(from, FILES_DIR),
    dataDir,
    manifest.files.map((file) => file.path),
  );
  const wrong = differentCounts(manifest.database.rows, rows);
  if (wrong.length > 0) {
    throw new Error(
      `The restored database in ${dataDir} does not hold what the backup counted:\n  ${wrong.join('\n  ')}`,
    );
  }
  return { manifest, rows };
}
