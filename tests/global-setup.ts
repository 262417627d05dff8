import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { testWorkers } from './suites.ts';
import { templateDatabaseUrl, workerDatabaseName } from './worker-database-name.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

// A fresh PGlite runs initdb in ~5 s: migrate once, dump the data directory, and let every
// test file start from that image. With DATABASE_URL the same suite runs on a real server:
// migrated once, then copied (CREATE DATABASE … TEMPLATE) into a database for each worker, so
// that files running at once never share one (tests/worker-database.ts).
export default async function setup(project: TestProject) {
  const given = process.env.DATABASE_URL;
  const url = given ? templateDatabaseUrl(given) : undefined;
  if (given && url !== given) await createIfMissing(url as string);
  const database = await openDatabase({ url });
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
  if (url) await copyForWorkers(url, testWorkers());
}

async function createIfMissing(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

async function copyForWorkers(url: string, workers: number): Promise<void> {
  const template = new URL(url).pathname.slice(1);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    for (let worker = 1; worker <= workers; worker += 1) {
      const name = workerDatabaseName(template, worker);
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    }
  } finally {
    await client.end();
  }
}
