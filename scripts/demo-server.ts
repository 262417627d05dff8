// The built server on a fresh embedded database with the demo catalog, as `npm start` runs
// it on a new machine (test payments, keys of its own, decision 011), on a free port of
// 127.0.0.1: what the JavaScript budget and Lighthouse measure. Run `npm run build` first.
// Both measure a server already running when DEMO_BASE_URL names it (demoServer): CI starts
// one for the two (scripts/with-demo-server.ts), not one each (issue 36).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startDemoServer(): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-demo-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DEMO_DATA: 'on',
    LOG_LEVEL: 'warn',
    PAYMENTS: 'test',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
    LTI_KEY: randomBytes(32).toString('hex'),
  };
  delete env.DATABASE_URL;
  const server: ChildProcess = spawn(process.execPath, ['server.js'], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 170_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`the server exited with ${server.exitCode}`);
    }
    try {
      if ((await fetch(`${base}/api/account/login`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error('the server did not start in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { base, stop };
}

/** The server DEMO_BASE_URL names (left running), or a demo server of our own. */
export async function demoServer(): Promise<{ base: string; stop: () => Promise<void> }> {
  const external = process.env.DEMO_BASE_URL;
  if (external) return { base: external.replace(/\/$/, ''), stop: async () => {} };
  return startDemoServer();
}
