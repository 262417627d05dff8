import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';

/** A migrated database for one test file: PGlite from the template, or the CI server. */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) return openDatabase({ url: process.env.DATABASE_URL, poolSize: 5 });
  const template = inject('pgliteTemplate');
  return openDatabase({ loadDataDir: new Blob([readFileSync(template)]) });
}

let counter = 0;
/** A value no other test (or earlier run on the same server) uses. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}
