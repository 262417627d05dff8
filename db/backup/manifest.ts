// What a backup holds and how a restore checks it (issue 40, docs/backups.md). A backup is a
// directory: the database image (`database.tar.gz` for the embedded PGlite, `database.dump`
// for PostgreSQL), the data directory's files under `files/`, and `manifest.json`, which says
// the SHA-256 of each and how many rows the tables that matter held in the image. A restore
// checks every checksum before it writes anything and counts the rows again afterwards.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const MANIFEST_FORMAT = 'shelfmark-backup/1';

/**
 * The rows a restore must find again: who bought what, who owns it, where each reader is, and
 * the files the shelf opens. Counted in the same snapshot the image is taken from.
 */
export const COUNTED_TABLES = [
  'users',
  'products',
  'book_files',
  'orders',
  'order_items',
  'payments',
  'ownerships',
  'reading_positions',
  'reading_annotations',
] as const;

export type RowCounts = Record<string, number>;

export type FileEntry = { path: string; size: number; sha256: string };

export type Manifest = {
  format: typeof MANIFEST_FORMAT;
  kind: 'embedded' | 'postgres';
  createdAt: string;
  database: FileEntry & { rows: RowCounts };
  /** The data directory's files (book files, covers, kept keys); none when they are in S3. */
  files: FileEntry[];
  /** Why `files` is empty on purpose, said again by the restore. */
  filesNote: string | null;
};

export const MANIFEST_FILE = 'manifest.json';
/** Where the data directory's files sit inside a backup. */
export const FILES_DIR = 'files';

/** The SQL counting each table of COUNTED_TABLES, one row with one column each. */
export function countRowsSql(): string {
  return `select ${COUNTED_TABLES.map((t) => `(select count(*) from ${t})::int as ${t}`).join(', ')}`;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A restore or a backup writes only into a directory that is missing or empty. */
export function requireEmptyDirectory(dir: string, what: string): void {
  if (!existsSync(dir)) return;
  if (readdirSync(dir).length > 0) {
    throw new BackupRefusal(
      `${what} ${dir} is not empty. Nothing was written: give a new or empty directory ` +
        '(a restore never overwrites, so that a mistyped path cannot destroy a live store).',
    );
  }
}

export function writeManifest(dir: string, manifest: Manifest): void {
  writeFileSync(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST_FILE);
  if (!existsSync(file)) {
    throw new BackupRefusal(`${dir} is not a Shelfmark backup: it has no ${MANIFEST_FILE}.`);
  }
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  if (manifest.format !== MANIFEST_FORMAT) {
    throw new BackupRefusal(`${file}: unknown format ${String(manifest.format)}.`);
  }
  return manifest;
}

/** Every file of the backup as the manifest says it was written; else a refusal naming them. */
export async function verifyBackup(dir: string, manifest: Manifest): Promise<void> {
  const wrong: string[] = [];
  const entries = [
    manifest.database,
    ...manifest.files.map((f) => ({ ...f, path: path.posix.join(FILES_DIR, f.path) })),
  ];
  for (const entry of entries) {
    const file = path.join(dir, entry.path);
    if (!existsSync(file)) wrong.push(`${entry.path}: missing`);
    else if ((await sha256File(file)) !== entry.sha256) wrong.push(`${entry.path}: changed`);
  }
  if (wrong.length > 0) {
    throw new BackupRefusal(
      `The backup in ${dir} is damaged; nothing was restored:\n  ${wrong.join('\n  ')}`,
    );
  }
}

/** The rows counted after a restore against the manifest's; an empty list when all agree. */
export function differentCounts(expected: RowCounts, found: RowCounts): string[] {
  return Object.entries(expected)
    .filter(([table, n]) => found[table] !== n)
    .map(([table, n]) => `${table}: ${n} in the backup, ${found[table] ?? 'none'} restored`);
}

/** A refusal said to the operator in one paragraph (the scripts print it and exit 2). */
export class BackupRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefusal';
  }
}
