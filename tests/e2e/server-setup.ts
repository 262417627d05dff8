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
  }
}

// Starts the built server on a fresh embedded database, as `npm start` does on a new machine:
// the first start migrates and seeds the demo. E2E_BASE_URL skips this and uses a running one.
export default async function setup(project: TestProject) {
  if (process.env.E2E_BASE_URL) {
    project.provide('baseUrl', process.env.E2E_BASE_URL);
    project.provide('serverPid', null);
    return;
  }
  const port = Number(process.env.E2E_PORT ?? 3190);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_DATA: 'on',
    LOG_LEVEL: 'warn',
    // A test deployment: test cards, demo accounts, and keys of its own (decision 011).
    PAYMENTS: 'test',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    ACCESS_CODE_KEY: randomBytes(32).toString('base64url'),
  };
  delete env.DATABASE_URL;
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const server: ChildProcess = spawn(process.execPath, ['server.js'], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 170_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const response = await fetch(`${baseUrl}/api/account/login`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not start in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  project.provide('baseUrl', baseUrl);
  project.provide('serverPid', server.pid ?? null);
  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
