// `npm start`: builds when the build is missing or older than the sources, then serves it.
// Without NODE_ENV in the environment this is the demo store (decision 011): test payments
// ("Test mode" on every page), the demo data, and keys made at random once and kept in the
// data directory. With NODE_ENV=production set by you, it is a real store: the server then
// refuses to start without Stripe's keys, PUBLIC_ORIGIN and your own SESSION_SECRET,
// ACCESS_CODE_KEY and LTI_KEY.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SOURCES = [
  'web',
  'domain',
  'db',
  'api',
  'server',
  'i18n',
  'public',
  'package.json',
  'vite.config.ts',
];

function newest(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, name)));
  return latest;
}

const built = 'build/server/index.js';
const stale = !existsSync(built) || Math.max(...SOURCES.map(newest)) > statSync(built).mtimeMs;
if (stale) {
  console.log('Building Shelfmark...');
  const result = spawnSync('npm', ['run', 'build'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
/** The demo's keys: random, made on first start, kept (0600) beside its database. */
function demoKeys(dataDir) {
  const file = path.join(dataDir, 'demo-keys.json');
  const kept = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  // A key added since the file was written (LTI_KEY, decision 017) is made and kept too.
  if (kept.SESSION_SECRET && kept.ACCESS_CODE_KEY && kept.LTI_KEY) return kept;
  const keys = {
    SESSION_SECRET: randomBytes(32).toString('hex'),
    ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
    LTI_KEY: randomBytes(32).toString('hex'),
    ...kept,
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

const demo = !process.env.NODE_ENV;
const stripe = Boolean(process.env.STRIPE_SECRET_KEY);
const env = demo
  ? {
      ...demoKeys(path.resolve(process.env.DATA_DIR ?? './data')),
      ...(stripe ? {} : { PAYMENTS: 'test' }),
      // The demo campus's local OpenID provider (issue 20, decision 021), on 127.0.0.1 only.
      ...(stripe ? {} : { DEV_CAMPUS_IDP_PORT: '3011' }),
      // The seller on the demo's receipts (an invented address).
      STORE_ADDRESS:
        'Shelfmark Learning Inc.|100 Summer Street, Suite 1200|Boston, MA 02110|United States',
      STORE_EMAIL: 'support@shelfmark.test',
      // Production requires the store's public address (issue 37); the demo's is this machine.
      PUBLIC_ORIGIN: `http://localhost:${process.env.PORT ?? 3000}`,
      ...process.env,
      NODE_ENV: 'production',
    }
  : process.env;
if (demo) console.log('Demo store: test payments and demo accounts (see README).');
// The server runs as a child; a signal to this process (Ctrl+C, `kill`, a terminal closed) is
// passed on, and this process ends with it: stopping `npm start` leaves no server behind
// holding the embedded database (issue 37).
const server = spawn(process.execPath, ['server.js'], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
