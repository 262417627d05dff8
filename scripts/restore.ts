// npm run restore -- <backup-dir> [--data-dir DIR]
// Restores a backup made by `npm run backup` into a new database: with DATABASE_URL, into that
// PostgreSQL database, which must be empty (createdb); without it, into a new or empty data
// directory. Checks every checksum first and counts the rows again after (docs/backups.md).
import { restoreEmbedded } from '#db/backup/embedded.ts';
import { BackupRefusal, type Manifest, type RowCounts } from '#db/backup/manifest.ts';
import { restorePostgres } from '#db/backup/postgres.ts';
import { backupCommandLine } from './backup-command-line.ts';

const USAGE = `usage: npm run restore -- <backup-dir> [--data-dir DIR]
  <backup-dir>     a directory written by npm run backup
  --data-dir DIR   a new or empty directory for the embedded database and the book files
                   (default $DATA_DIR or ./data); never overwritten
  With DATABASE_URL set, a PostgreSQL backup is restored into that database, which must be
  new and empty (createdb NAME first).`;

const { directory: from, dataDir, url } = backupCommandLine(USAGE);

let restored: { manifest: Manifest; rows: RowCounts };
try {
  restored = url
    ? await restorePostgres({ from, url, dataDir })
    : await restoreEmbedded({ from, dataDir });
} catch (error) {
  if (!(error instanceof BackupRefusal)) throw error;
  console.error(error.message);
  process.exit(2);
}
const { manifest, rows } = restored;
console.log(
  `restored the backup of ${manifest.createdAt} into ${url ? 'the PostgreSQL database' : dataDir}\n` +
    `  rows, as counted at backup: ${Object.entries(rows)
      .map(([table, n]) => `${table} ${n}`)
      .join(', ')}\n` +
    `  files: ${manifest.files.length}, every checksum as in the backup` +
    (manifest.filesNote ? `\n  ${manifest.filesNote}` : ''),
);
