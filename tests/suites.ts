import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

// The two halves of `npm test` (issue 36). Unit tests are pure: they run once. Database tests
// open a database (PGlite from the migrated image, or the server DATABASE_URL names): CI runs
// them a second time on PostgreSQL with `vitest run --project database`. A file belongs to the
// database half when its source opens one; anything that does so by another way must name
// one of these words to be run on both.
const OPENS_A_DATABASE = /\b(openTestDatabase|openDatabase|DATABASE_URL)\b/;

const ROOTS = [
  'domain',
  'db',
  'server',
  'web',
  'api',
  'i18n',
  'scripts',
  'tests/unit',
  'tests/integration',
  'tests/contract',
];
const TEST_FILE = /\.test\.tsx?$/;

function testFilesUnder(dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFilesUnder(file);
    return TEST_FILE.test(entry.name) ? [file] : [];
  });
}

/** Every unit and integration test file, split by whether it opens a database. */
export function testSuites(): { unit: string[]; database: string[] } {
  const unit: string[] = [];
  const database: string[] = [];
  for (const file of ROOTS.flatMap(testFilesUnder).sort()) {
    (OPENS_A_DATABASE.test(readFileSync(file, 'utf8')) ? database : unit).push(file);
  }
  return { unit, database };
}

/**
 * Test files run at once: one per core (Vitest's own default leaves one core idle, which on
 * the two-core machines we run on is one file at a time). TEST_WORKERS sets another number.
 * Each worker on PostgreSQL has a database of its own (tests/worker-database.ts).
 */
export function testWorkers(): number {
  const fromEnv = Number(process.env.TEST_WORKERS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : availableParallelism();
}
