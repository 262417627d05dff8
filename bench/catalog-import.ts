// Imports a generated ONIX feed into PostgreSQL and reports products per second and the
// importer's peak RSS (issue 15: >= 2,000 products/s, < 400 MB whatever the feed's size).
//   BENCH_DATABASE_URL=postgres://... npx tsx bench/catalog-import.ts [--products 100000]
// The feed is written to a temporary file first; the import runs as its own process
// (scripts/catalog-import.ts, as an operator runs it), its RSS read from /proc while it runs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
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
const run = Date.now().toString(36);

const database = await openDatabase({ url });
await migrateDatabase(database);
await seedCategories(database.db).catch(() => {});
await database.close();

const dir = mkdtempSync(path.join(tmpdir(), 'onix-bench-'));
const file = path.join(dir, 'feed.xml');
const out = createWriteStream(file);
out.write(onixHeader('Benchmark Press', new Date()));
const codes = ['MAT005000', 'SCI013000', 'BUS000000', 'COM000000', 'HIS000000', 'PSY000000'];
const words = 'analysis structure method theory practice system model design data history'.split(
  ' ',
);
for (let i = 1; i <= count; i++) {
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
const bytes = statSync(file).size;
console.log(`feed: ${count} products, ${(bytes / 1e6).toFixed(1)} MB`);

const started = Date.now();
const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/catalog-import.ts', file], {
  env: { ...process.env, DATABASE_URL: url },
  stdio: ['ignore', 'pipe', 'ignore'],
});
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
console.log(
  `| ${count.toLocaleString('en-US')} products | ${(bytes / 1e6).toFixed(0)} MB | ${seconds.toFixed(1)} s | ${Math.round(count / seconds).toLocaleString('en-US')} products/s | ${(peakKb / 1024).toFixed(0)} MB peak RSS | exit ${code} |`,
);
