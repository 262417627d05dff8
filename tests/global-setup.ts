import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

// A fresh PGlite runs initdb in ~5 s: migrate once, dump the data directory, and let every
// test file start from that image. With DATABASE_URL the same suite runs on a real server.
export default async function setup(project: TestProject) {
  const database = await openDatabase({ url: process.env.DATABASE_URL });
  await migrateDatabase(database);
  if (database.dumpDataDir) {
    const dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-test-'));
    const file = path.join(dir, 'template.tar');
    writeFileSync(file, Buffer.from(await (await database.dumpDataDir()).arrayBuffer()));
    project.provide('pgliteTemplate', file);
  } else {
    project.provide('pgliteTemplate', '');
  }
  await database.close();
}
