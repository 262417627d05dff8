// npm run catalog:import -- <feed.xml> [--files DIR] [--data-dir DIR] [--writers N]
// Imports an ONIX for Books 3.0/3.1 feed into DATABASE_URL, or the embedded database in the data
// directory (stop the server first: the embedded database has one user at a time). Streams the
// file, shows progress (records/s, ETA) on stderr, and prints the report at the end; the
// report is also kept in the database and shown on the Admin page. Book files go where the
// server keeps them: the bucket of BOOK_FILES_S3_BUCKET when set, else the data directory.
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { BACKGROUND_NICE, runInBackground } from '#db/backend-priority.ts';
import { openDatabase } from '#db/client.ts';
import { refuseIfInUse } from '#db/embedded-lock.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { catalogImportRefusals } from '#db/schema/catalog-imports.ts';
import type { ImportCounts } from '#domain/catalog/catalog-import.ts';
import { importFeedFile } from '#domain/catalog/feed-file-import.ts';
import type { BookFileStore } from '#domain/reading/file-store.ts';
import { translate } from '#i18n/translate.ts';
import { createBookFileStore } from '#server/book-file-store.ts';
import { loadBookFilesS3 } from '#server/config.ts';

const USAGE = `usage: npm run catalog:import -- <feed.xml> [--files DIR] [--data-dir DIR] [--writers N]
  <feed.xml>       an ONIX for Books 3.0 or 3.1 message (reference or short tags)
  --files DIR      EPUB and PDF files and cover images (JPEG, PNG, WebP) for the feed's
                   products, each named as the feed's resource link or with the product's ISBN
                   in its name; checked, then attached
  --data-dir DIR   the embedded database (default $DATA_DIR or ./data); ignored with DATABASE_URL;
                   also the book files' home unless BOOK_FILES_S3_BUCKET names a bucket
  --writers N      batches written at once on PostgreSQL, 1 to 4 (default 1: a store serving
                   shoppers meanwhile keeps its pages fast; 2 imports ~30% faster into a
                   database nobody shops from)`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

const OPTIONS = {
  'data-dir': { type: 'string' },
  files: { type: 'string' },
  writers: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
try {
  parsed = parseArgs({ options: OPTIONS, allowPositionals: true });
} catch (error) {
  fail((error as Error).message);
}
if (parsed.values.help) {
  console.log(USAGE);
  process.exit(0);
}
const writers = Number(parsed.values.writers ?? 1);
if (!Number.isInteger(writers) || writers < 1 || writers > 4) fail('--writers takes 1 to 4');
const [feed, ...extra] = parsed.positionals;
if (!feed || extra.length > 0) fail('give exactly one feed file');
let size: number;
try {
  const stat = statSync(feed);
  if (!stat.isFile()) fail(`${feed} is not a file`);
  size = stat.size;
} catch {
  fail(`${feed}: no such file`);
}

const filesDir = parsed.values.files ? path.resolve(parsed.values.files) : null;
if (filesDir && !statSync(filesDir, { throwIfNoEntry: false })?.isDirectory()) {
  fail(`--files ${parsed.values.files}: no such directory`);
}
const url = process.env.DATABASE_URL || undefined;
const dataDir = path.resolve(parsed.values['data-dir'] ?? process.env.DATA_DIR ?? './data');
let bookFiles: BookFileStore;
try {
  bookFiles = await createBookFileStore({ DATA_DIR: dataDir, bookFilesS3: loadBookFilesS3() });
} catch (error) {
  fail((error as Error).message);
}
// The store keeps answering its shoppers while an operator imports: this process, and the
// PostgreSQL processes writing for it when the database is on this machine, yield the CPU to
// the app's (nice 10 and the idle scheduling class, db/backend-priority.ts). Where that is not
// allowed, the import runs at the usual priority.
runInBackground(process.pid, BACKGROUND_NICE, true);
mkdirSync(dataDir, { recursive: true });
const database = await openDatabase({
  url,
  dataDir,
  poolSize: 4,
  backendNice: BACKGROUND_NICE,
}).catch(refuseIfInUse);

const number = new Intl.NumberFormat('en-US');
const clock = (seconds: number) => {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

try {
  await migrateDatabase(database);
  const started = Date.now();
  let lastDraw = 0;
  const tty = process.stderr.isTTY;
  const draw = (counts: ImportCounts, final = false) => {
    const now = Date.now();
    if (!final && now - lastDraw < (tty ? 200 : 5000)) return;
    lastDraw = now;
    const seconds = (now - started) / 1000;
    const rate = counts.records / Math.max(seconds, 0.001);
    const share = size > 0 ? Math.min(1, counts.readBytes / size) : 1;
    const eta = share > 0 ? (seconds / share) * (1 - share) : Number.NaN;
    const width = 30;
    const filled = Math.round(share * width);
    const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ${number.format(counts.records)} records  ${number.format(Math.round(rate))}/s  ETA ${clock(eta)}`;
    process.stderr.write(tty ? `\r${line}` : `${line}\n`);
  };
  const { report, files } = await importFeedFile(database.db, bookFiles, {
    feedPath: feed,
    filesDir,
    source: 'cli',
    now: new Date(),
    // One batch at a time by default: on a 2-core machine, two writers took the CPUs the store's
    // pages needed (a product page's p99 1.25x-2.5x idle during a 100,000-product import, 0.9x-1.9x
    // with one; docs/benchmarks.md, session 23). The embedded database has one connection.
    writers: url ? writers : 1,
    workDir: dataDir,
    onProgress: (counts) => draw(counts),
  });
  draw(report, true);
  if (tty) process.stderr.write('\n');
  if (files) {
    console.log(
      `  ${number.format(files.attached)} book files and covers attached, ${number.format(files.refused)} refused`,
    );
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `import #${report.id} of ${path.basename(feed)}: ${report.status} in ${seconds.toFixed(1)} s`,
  );
  if (report.failure) {
    console.log(`  ${translate('en', report.failure.message, report.failure.values)}`);
  }
  console.log(
    `  ${number.format(report.records)} records: ${number.format(report.created)} new, ${number.format(report.updated)} updated, ${number.format(report.unchanged)} unchanged, ${number.format(report.withdrawn)} withdrawn, ${number.format(report.refused)} refused`,
  );
  const refusals = await database.db
    .select()
    .from(catalogImportRefusals)
    .where(eq(catalogImportRefusals.importId, report.id))
    .orderBy(catalogImportRefusals.position)
    .limit(50);
  for (const r of refusals) {
    const where = [r.reference ?? '(no reference)', r.line ? `line ${r.line}` : null]
      .filter(Boolean)
      .join(', ');
    // A file attached with a remark (its title or language is not the feed's) is a note.
    const verb = /Differs$/.test(r.reason) ? 'note on' : 'refused';
    console.log(`  ${verb} ${where}: ${translate('en', r.reason, r.reasonValues ?? undefined)}`);
  }
  if (report.refused > refusals.length) {
    console.log(
      `  … and ${number.format(report.refused - refusals.length)} more on the Admin page`,
    );
  }
  if (report.status === 'failed') process.exitCode = 1;
} finally {
  await database.close();
}
