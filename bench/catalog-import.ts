// Imports a generated ONIX feed into PostgreSQL and reports products per second and the
// importer's peak RSS (issue 15: >= 2,000 products/s, < 400 MB whatever the feed's size).
//   BENCH_DATABASE_URL=postgres://... npx tsx bench/catalog-import.ts [--products 100000] [--pages]
// With --pages (after `npm run build`), the built server runs on the same database and a
// product page is loaded with autocannon (bench/shoppers.ts) before and during the import: its
// p99 during the import should be no worse than twice its idle p99.
// The feed is written to a temporary file first; the import runs as its own process
// (scripts/catalog-import.ts, as an operator runs it), its RSS read from /proc while it runs.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { rowsOf } from '#db/seed/bulk-insert.ts';
import { seedCategories } from '#db/seed/demo.ts';
import { ONIX_FOOTER, onixHeader, onixProduct } from '#db/seed/onix-feed.ts';
import { isbn13CheckDigit } from '#domain/catalog/isbn.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
};
const url = process.env.BENCH_DATABASE_URL;
if (!url) {
  console.error('Set BENCH_DATABASE_URL to a PostgreSQL database the benchmark may fill.');
  process.exit(2);
}
const count = Number(option('products') ?? 100_000);
const withPages = args.includes('--pages');
const port = 3291;
const run = Date.now().toString(36);

const database = await openDatabase({ url });
await migrateDatabase(database);
await seedCategories(database.db).catch(() => {});
await database.close();

const dir = mkdtempSync(path.join(tmpdir(), 'onix-bench-'));

async function writeFeed(file: string, from: number, to: number, run: string): Promise<number> {
  const out = createWriteStream(file);
  out.write(onixHeader('Benchmark Press', new Date()));
  const codes = ['MAT005000', 'SCI013000', 'BUS000000', 'COM000000', 'HIS000000', 'PSY000000'];
  const words = 'analysis structure method theory practice system model design data history'.split(
    ' ',
  );
  for (let i = from; i <= to; i++) {
    const body = `979${String(8e8 + (Number.parseInt(run.slice(-4), 36) % 1000) * 1e5 + i).padStart(9, '0')}`;
    const text = onixProduct({
      reference: `bench.${run}.${i}`,
      isbn13: body + isbn13CheckDigit(body),
      format: i % 5 === 0 ? 'print' : i % 3 === 0 ? 'PDF' : 'EPUB',
      title: `${words[i % 10]} of ${words[(i * 7) % 10]} ${i}`,
      subtitle: i % 2 ? `A ${words[(i * 3) % 10]} approach` : null,
      contributors: [
        { name: `Author ${i % 997}`, role: 'A01' },
        ...(i % 4 === 0 ? [{ name: `Editor ${i % 331}`, role: 'B01' }] : []),
      ],
      publisher: `Publisher ${i % 50}`,
      language: 'eng',
      editionNumber: (i % 6) + 1,
      pages: 100 + (i % 900),
      publicationDate: `20${String(10 + (i % 15))}0${(i % 9) + 1}15`,
      bisac: [codes[i % codes.length]!],
      description: Array.from({ length: 60 }, (_, w) => words[(i + w * 3) % 10]).join(' '),
      priceCents: 999 + (i % 150) * 100,
      accessibility: i % 5 === 0 ? [] : ['04', '81', '85', '36', '11', '29'],
    });
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end(ONIX_FOOTER);
  await once(out, 'finish');
  return statSync(file).size;
}

const file = path.join(dir, 'feed.xml');
const bytes = await writeFeed(file, 1, count, run);
console.log(`feed: ${count} products, ${(bytes / 1e6).toFixed(1)} MB`);

// The import runs as `npm run catalog:import` runs it (package.json's script, its node flags
// included: the old generation's size caps the importer's memory), without npm's own process.
const importCommand = (
  JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }
).scripts['catalog:import']!.split(' ');
if (importCommand[0] !== 'node') throw new Error("package.json's catalog:import must run node");

function importProcess(feed: string) {
  return spawn(process.execPath, [...importCommand.slice(1), feed], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

// The page a shopper keeps loading while the import runs: a book of an earlier import.
let server: ReturnType<typeof spawn> | null = null;
let pagePath = '';
let idle: Latency | null = null;

interface Latency {
  requests: { average: number };
  non2xx: number;
  /** autocannon's own p50/p99, and the same responses corrected at each connection's interval. */
  autocannon: { p50: number; p99: number };
  corrected: { p50: number; p99: number; max: number };
  uncorrected: { p99: number; slowest: number[] };
}

/** bench/shoppers.ts, in a process of its own: 10 connections, 200 pages a second. */
async function shoppers(seconds: number): Promise<Latency> {
  const load = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/shoppers.ts',
      `http://127.0.0.1:${port}${pagePath}`,
      String(seconds),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    setPriority(load.pid!, -5);
  } catch {
    console.log('(the load generator runs at the usual priority: not allowed to raise it)');
  }
  let json = '';
  load.stdout.on('data', (chunk) => {
    json += chunk;
  });
  const [code] = await once(load, 'exit');
  if (code !== 0) throw new Error(`the load generator exited with ${code}`);
  return JSON.parse(json.trim().split('\n').at(-1)!) as Latency;
}

/** One line: both p99s (bench/shoppers.ts says why two). */
function describe(latency: Latency): string {
  return `p50 ${latency.corrected.p50} ms, p99 ${latency.corrected.p99} ms corrected at each connection's interval (autocannon's own p50 ${latency.autocannon.p50}, p99 ${latency.autocannon.p99} ms; uncorrected p99 ${latency.uncorrected.p99} ms, slowest ${latency.uncorrected.slowest.join(', ')} ms)`;
}

if (withPages) {
  const warm = path.join(dir, 'warm.xml');
  await writeFeed(warm, 1, 500, `${run}w`);
  const [warmCode] = await once(importProcess(warm), 'exit');
  if (warmCode !== 0) throw new Error('the warm-up import failed');
  const db = await openDatabase({ url });
  const [row] = rowsOf<{ id: number; slug: string }>(
    await db.db.execute(
      sql`select id, slug from products where record_reference = ${`bench.${run}w.250`}`,
    ),
  );
  await db.close();
  pagePath = `/book/${row!.id}/${row!.slug}`;
  server = spawn(process.execPath, ['server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      DEMO_DATA: 'off',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
      LTI_KEY: randomBytes(32).toString('hex'),
      PAYMENTS: 'test',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}${pagePath}`)).status === 200) break;
    } catch {
      // starting
    }
    if (i > 300) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // Shoppers at a steady 200 pages a second (not as fast as the machine can answer, which
  // would measure the load generator's own queue): what each of them waits. Shoppers' browsers
  // are not on the store's machine: the load generator is its own process (not this one, which
  // reads the importer's output and polls its memory) and runs ahead of the importer, the server
  // and the database for the CPU (nice -5, where allowed), so that its own waits for the CPU
  // are not counted as the store's.
  await shoppers(3);
  idle = await shoppers(15);
  console.log(`idle: ${pagePath} ${describe(idle)}, ${Math.round(idle.requests.average)} req/s`);
}

const started = Date.now();
const loading = withPages && server ? shoppers(25) : null;
const child = importProcess(file);
let peakKb = 0;
const poll = setInterval(() => {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peakKb = Math.max(peakKb, hwm);
  } catch {
    // Gone.
  }
}, 100);
let output = '';
child.stdout.on('data', (chunk) => {
  output += chunk;
});
const [code] = await once(child, 'exit');
clearInterval(poll);
const seconds = (Date.now() - started) / 1000;
console.log(output.trim());
if (loading && idle) {
  const during = await loading;
  const ratio = (of: (latency: Latency) => number) =>
    `${(of(during) / Math.max(of(idle), 1)).toFixed(2)}x`;
  console.log(
    `during the import: ${describe(during)}, ${Math.round(during.requests.average)} req/s, ${during.non2xx} non-2xx`,
  );
  console.log(
    `p99 during / idle: ${ratio((l) => l.corrected.p99)} corrected, ${ratio((l) => l.autocannon.p99)} autocannon's own`,
  );
  server?.kill();
}
console.log(
  `| ${count.toLocaleString('en-US')} products | ${(bytes / 1e6).toFixed(0)} MB | ${seconds.toFixed(1)} s | ${Math.round(count / seconds).toLocaleString('en-US')} products/s | ${(peakKb / 1024).toFixed(0)} MB peak RSS | exit ${code} |`,
);
