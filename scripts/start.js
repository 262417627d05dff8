// `npm start`: builds when the build is missing or older than the sources, then serves it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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
  const result = spawnSync('npx', ['react-router', 'build'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const server = spawnSync(process.execPath, ['server.js'], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
process.exit(server.status ?? 0);
