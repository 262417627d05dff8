import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The server's process id, to read its memory; null for a server started elsewhere. */
    serverPid: number | null;
    /** Where journeys make their own users (fixtures.ts); null for a server started elsewhere. */
    fixtures: { url: string; token: string } | null;
    /** The server's DATA_DIR, where its mails are written (mail.ts); null for one elsewhere. */
    dataDir: string | null;
  }
}

type Ready = { baseUrl: string; fixtures: string };

// Starts the built server on a fresh embedded database, as `npm start` does on a new machine
// (the first start migrates and seeds the demo), in a process of its own that also runs the
// fixture server (app-process.ts). E2E_BASE_URL skips this and uses a running server, where
// only the journeys that need no users of their own can run.
export default async function setup(project: TestProject) {
  if (process.env.E2E_BASE_URL) {
    project.provide('baseUrl', process.env.E2E_BASE_URL);
    project.provide('serverPid', null);
    project.provide('fixtures', null);
    project.provide('dataDir', null);
    return;
  }
  const port = Number(process.env.E2E_PORT ?? 3190);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-e2e-'));
  const token = randomBytes(24).toString('base64url');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DEMO_DATA: 'on',
    LOG_LEVEL: 'warn',
    // A test deployment: test cards, demo accounts, and keys of its own (decision 011).
    PAYMENTS: 'test',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
    LTI_KEY: randomBytes(32).toString('hex'),
    E2E_FIXTURE_TOKEN: token,
  };
  delete env.DATABASE_URL;
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const server: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve('tests/e2e/app-process.ts')],
    { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  let ready: Ready;
  try {
    ready = await new Promise<Ready>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('server did not start in time')), 170_000);
      server.once('message', (message) => {
        clearTimeout(timer);
        resolve(message as Ready);
      });
      server.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code ?? signal}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  project.provide('baseUrl', ready.baseUrl);
  project.provide('serverPid', server.pid ?? null);
  project.provide('fixtures', { url: ready.fixtures, token });
  project.provide('dataDir', dataDir);
  return stop;
}
