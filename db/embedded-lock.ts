import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// One writer per embedded database (issue 37). PGlite keeps its data in a directory, and two
// processes that open the same one each write as if alone: a `npm run catalog:import` run while
// the store was serving reported "13 new" products, and all 13 were gone once the store stopped.
// Whoever opens the directory holds `<DATA_DIR>/pglite.lock` (its pid, its command, since when)
// until it closes it or exits; another process is refused, saying who holds it. A lock left by
// a process that died (kill -9, a power cut) is taken over.

export class EmbeddedDatabaseInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: { pid: number; command: string; since: string },
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another process ` +
        `(pid ${holder.pid}: ${holder.command}, since ${holder.since}). ` +
        'Two processes writing it lose each other’s changes. Stop that process first (Ctrl+C in ' +
        'its terminal), or run the store on PostgreSQL (DATABASE_URL), where any number of ' +
        'processes may write at once; a catalog can also be imported from the Admin page of the running store.',
    );
    this.name = 'EmbeddedDatabaseInUse';
  }
}

type Holder = { pid: number; command: string; since: string };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof holder.pid === 'number' && Number.isInteger(holder.pid)
      ? {
          pid: holder.pid,
          command: String(holder.command ?? ''),
          since: String(holder.since ?? ''),
        }
      : null;
  } catch {
    return null;
  }
}

/** Takes the directory's lock for this process, or throws EmbeddedDatabaseInUse. */
export function lockEmbeddedDatabase(dataDir: string): () => void {
  const file = path.join(dataDir, 'pglite.lock');
  const mine: Holder = {
    pid: process.pid,
    command: process.argv.map((arg) => path.basename(arg)).join(' '),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; ; attempt += 1) {
    try {
      writeFileSync(file, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const holder = readHolder(file);
      if (holder && isAlive(holder.pid)) throw new EmbeddedDatabaseInUse(dataDir, holder);
      // Left by a process that is gone: taken over.
      unlinkSync(file);
    }
  }
  const release = () => {
    if (readHolder(file)?.pid !== process.pid) return;
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return () => {
    process.off('exit', release);
    release();
  };
}

/**
 * For commands (catalog import, migrate, seed): the refusal said in one paragraph and exit 2,
 * instead of a stack trace; anything else is thrown on.
 */
export function refuseIfInUse(error: unknown): never {
  if (error instanceof EmbeddedDatabaseInUse) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
