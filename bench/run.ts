// Benchmarks the built server on PostgreSQL with autocannon.
//   BENCH_DATABASE_URL=postgres://... npx tsx bench/run.ts [--seed 100000] [--duration 20]
// Seeds the catalog when asked, starts `node server.js` (NODE_ENV=production) on 127.0.0.1 and
// prints requests/s and latency for each page. Results go in docs/benchmarks.md by hand.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import autocannon from 'autocannon';

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
};
const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl) {
  console.error('Set BENCH_DATABASE_URL to a PostgreSQL database the benchmark may fill.');
  process.exit(2);
}
const duration = Number(option('duration') ?? 20);
const connections = Number(option('connections') ?? 50);
const port = Number(option('port') ?? 3290);
const base = `http://127.0.0.1:${port}`;

const seed = option('seed');
if (seed) {
  const result = spawnSync(
    'npx',
    [
      'tsx',
      'scripts/db-seed.ts',
      '--products',
      seed,
      '--force',
      '--data-dir',
      '/tmp/shelfmark-bench',
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: databaseUrl },
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const server: ChildProcess = spawn(process.execPath, ['server.js'], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_DATA: 'off',
    LOG_LEVEL: 'warn',
    SESSION_SECRET: 'bench-secret-bench-secret',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

async function waitForServer() {
  for (let i = 0; i < 600; i += 1) {
    try {
      if ((await fetch(`${base}/api/account/login`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not start');
}

async function productPath(): Promise<string> {
  const html = await (await fetch(`${base}/`)).text();
  const match = /href="(\/(?:book|courseware|collection|classroom)\/\d+\/[a-z0-9-]+)"/.exec(html);
  if (!match?.[1]) throw new Error('no product link on the home page');
  return match[1];
}

try {
  await waitForServer();
  const targets = [
    { name: 'home page', path: '/' },
    { name: 'product page', path: await productPath() },
    { name: 'search', path: '/search?terms=calculus' },
    { name: 'search (typo)', path: '/search?terms=calculsu' },
    { name: 'browse', path: '/browse/all' },
    { name: 'login status (API)', path: '/api/account/login' },
  ];
  console.log(`| page | path | req/s (mean) | p50 ms | p99 ms | non-2xx |`);
  console.log(`|---|---|---|---|---|---|`);
  for (const target of targets) {
    const result = await autocannon({ url: `${base}${target.path}`, connections, duration });
    console.log(
      `| ${target.name} | ${target.path} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} |`,
    );
  }
} finally {
  server.kill('SIGTERM');
}
