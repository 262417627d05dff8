// npm run backup -- <backup-dir> [--data-dir DIR]
// Backs up DATABASE_URL (pg_dump, the store may keep running), or the embedded database in the
// data directory (the store stopped), with the data directory's book files, into a new or
// empty directory. docs/backups.md says how to restore it and what else to keep.
import path from 'node:path';
import { backupEmbedded } from '#db/backup/embedded.ts';
import { BackupRefusal, type Manifest } from '#db/backup/manifest.ts';
import { backupPostgres } from '#db/backup/postgres.ts';
import { loadBookFilesS3 } from '#server/config.ts';
import { backupCommandLine } from './backup-command-line.ts';

const USAGE = `usage: npm run backup -- <backup-dir> [--data-dir DIR]
  <backup-dir>     where the backup goes: a new or empty directory
  --data-dir DIR   the store's data directory: embedded database and book files
                   (default $DATA_DIR or ./data)
  With DATABASE_URL set, PostgreSQL is dumped (pg_dump) while the store keeps running; without
  it the embedded database is copied, which needs the store stopped.`;

const { directory: to, dataDir, url, ...line } = backupCommandLine(USAGE);
// Annotated, so that the compiler knows the code after a call does not run.
const fail: (message: string) => never = line.fail;
let bucket: string | null;
try {
  bucket = loadBookFilesS3()?.bucket ?? null;
} catch (error) {
  fail((error as Error).message);
}
const s3Note = bucket
  ? `The book files are in the S3 bucket ${bucket}, not in this backup: keep them with the ` +
    "bucket's own versioning or replication (docs/backups.md)."
  : null;

let manifest: Manifest;
try {
  manifest = url
    ? await backupPostgres({
        url,
        to,
        // With a bucket, the data directory of a PostgreSQL store holds nothing to keep.
        dataDir: bucket ? null : dataDir,
        filesNote: s3Note,
      })
    : await backupEmbedded({ dataDir, to });
} catch (error) {
  if (!(error instanceof BackupRefusal)) throw error;
  console.error(error.message);
  process.exit(2);
}
const rows = Object.entries(manifest.database.rows)
  .map(([table, n]) => `${table} ${n}`)
  .join(', ');
console.log(
  `backed up ${url ? 'the PostgreSQL database' : `the embedded database in ${dataDir}`} into ${path.resolve(to)}\n` +
    `  rows: ${rows}\n  files: ${manifest.files.length}` +
    (s3Note ? `\n  ${s3Note}` : ''),
);
