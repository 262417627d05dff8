import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#db/client.ts';
import { EmbeddedDatabaseInUse } from '#db/embedded-lock.ts';

// Issue 37, "Nothing lost behind the store's back": a command that writes the embedded database
// while another process holds it (a `npm run catalog:import` while the store serves) is
// refused, saying who holds it, instead of both writing and one losing everything; a lock left
// by a process killed with -9 is taken over.

const tsx = path.resolve('node_modules/.bin/tsx');
const dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-lock-'));
let holder: ChildProcess | null = null;

afterAll(() => {
  holder?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function holdInAnotherProcess(): Promise<ChildProcess> {
  // Node itself with tsx's loader (the tsx command would run it in a child of its own).
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/fixtures/hold-embedded-database.ts', dataDir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return child;
}

describe('one process at a time writes an embedded database', () => {
  it('another process, and a migration command, are refused while it is held', async () => {
    holder = await holdInAnotherProcess();
    const refused = await openDatabase({ dataDir }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmbeddedDatabaseInUse);
    expect((refused as Error).message).toContain(
      `The embedded database in ${dataDir} is in use by another process (pid ${holder.pid}:`,
    );
    // The command a person would run, as they would run it: exit 2 and the reason, no stack.
    const migrate = spawnSync(tsx, ['scripts/db-migrate.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    expect(migrate.status).toBe(2);
    expect(migrate.stderr).toContain(`is in use by another process (pid ${holder.pid}`);
    expect(migrate.stderr).toContain('Stop that process first');
    expect(migrate.stderr).not.toContain('    at ');
  }, 120_000);

  it('a lock left by a process killed with -9 is taken over, and given back on close', async () => {
    holder!.kill('SIGKILL');
    await new Promise((resolve) => holder!.once('exit', resolve));
    holder = null;
    const database = await openDatabase({ dataDir });
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(true);
    await database.close();
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  }, 120_000);
});
