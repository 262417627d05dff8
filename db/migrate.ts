import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { DatabaseHandle } from './client.ts';

export const MIGRATION_LOCK_KEY = 7_310_001;

export function migrationsFolder(): string {
  // Works from the source tree and from the built server (build/server/index.js).
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, 'migrations'), path.resolve(here, '../../db/migrations')];
  return process.env.MIGRATIONS_DIR ?? candidates.find(hasJournal) ?? candidates[0]!;
}

function hasJournal(p: string): boolean {
  return existsSync(path.join(p, 'meta', '_journal.json'));
}

/** Applies pending migrations; several processes may call it at once (advisory lock). */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const folder = migrationsFolder();
  await handle.withLock(MIGRATION_LOCK_KEY, async (db) => {
    if (handle.kind === 'pglite') {
      // biome-ignore lint/suspicious/noExplicitAny: both migrators take their own driver type
      await migratePglite(db as any, { migrationsFolder: folder });
    } else {
      // biome-ignore lint/suspicious/noExplicitAny: see above
      await migratePg(db as any, { migrationsFolder: folder });
    }
  });
}
