// npm run roster:import -- <package.zip | folder> --org ID [--dry-run] [--data-dir DIR]
// Imports a OneRoster 1.2 CSV package (issue 39, decision 035) for one store organisation into
// DATABASE_URL, or the embedded database in the data directory (stop the server first: the
// embedded database has one user at a time). The import is a job row like the page's: its
// report is kept in the database and shown on /manage/roster-imports; here it is printed.
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '#db/client.ts';
import { refuseIfInUse } from '#db/embedded-lock.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { systemActor } from '#domain/operations/audit.ts';
import {
  claimRosterImportById,
  reportLines,
  rosterImportReport,
  runRosterImport,
  startRosterImport,
} from '#domain/operations/roster/roster-jobs.ts';
import { translate } from '#i18n/translate.ts';
import { createBookFileStore } from '#server/book-file-store.ts';
import { loadBookFilesS3 } from '#server/config.ts';

const USAGE = `usage: npm run roster:import -- <package.zip | folder> --org ID [--dry-run] [--data-dir DIR]
  <package>        a OneRoster 1.2 CSV package: its .zip, or a folder holding manifest.csv
  --org ID         the store organisation the campus's roster is for (its id)
  --dry-run        show what would change; write nothing but the report
  --data-dir DIR   the embedded database (default $DATA_DIR or ./data); ignored with DATABASE_URL`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

const OPTIONS = {
  org: { type: 'string' },
  'dry-run': { type: 'boolean' },
  'data-dir': { type: 'string' },
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
const [location, ...extra] = parsed.positionals;
if (!location || extra.length > 0) fail('give exactly one package');
const orgId = Number(parsed.values.org);
if (!Number.isInteger(orgId) || orgId < 1) fail('--org takes an organisation id');
const stat = statSync(location, { throwIfNoEntry: false });
if (!stat) fail(`${location}: no such file or folder`);

const dataDir = path.resolve(parsed.values['data-dir'] ?? process.env.DATA_DIR ?? './data');
const store = await createBookFileStore({ DATA_DIR: dataDir, bookFilesS3: loadBookFilesS3() });
const database = await openDatabase({
  url: process.env.DATABASE_URL || undefined,
  dataDir,
  poolSize: 2,
}).catch(refuseIfInUse);
const t = (key: string, values?: Record<string, string | number>) => translate('en', key, values);
try {
  await migrateDatabase(database);
  const started = Date.now();
  const id = await startRosterImport(database.db, store, {
    orgId,
    dryRun: parsed.values['dry-run'] ?? false,
    source: 'cli',
    fileName: path.basename(location),
    // The store keeps what it is given: a copy, so the operator's package stays where it is.
    localPath: await copyOf(path.resolve(location)),
    bytes: stat.isFile() ? stat.size : 0,
    startedBy: null,
    actor: systemActor('roster import (command line)'),
  });
  const claim = await claimRosterImportById(database.db, id);
  if (!claim) fail(`import ${id} was taken by another process`);
  await runRosterImport(database.db, store, claim, new Date(), (done, total) => {
    process.stderr.write(`\r${done} / ${total} rows`);
  });
  process.stderr.write('\n');
  const report = await rosterImportReport(database.db, { kind: 'all' }, id);
  const summary = report!.summary;
  console.log(
    `roster import ${id}: ${t(`ops.roster.status.${summary.status}`)} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (summary.failure) console.log(t(summary.failure.message, summary.failure.values));
  for (const [kind, counts] of Object.entries(summary.counts)) {
    console.log(
      `  ${kind.padEnd(11)} ${Object.entries(counts)
        .map(([o, n]) => `${o} ${n}`)
        .join(', ')}`,
    );
  }
  for (const line of await reportLines(database.db, id)) {
    console.log(
      `  ${line.file}:${line.line} ${line.sourcedId ?? ''} ${line.kind}: ${t(line.reason.message, line.reason.values)}`,
    );
  }
  process.exitCode = summary.status === 'refused' || summary.status === 'failed' ? 1 : 0;
} finally {
  await database.close();
}

async function copyOf(source: string): Promise<string> {
  const { cp, mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const target = path.join(
    await mkdtemp(path.join(tmpdir(), 'roster-cli-')),
    path.basename(source),
  );
  await cp(source, target, { recursive: true });
  return target;
}
