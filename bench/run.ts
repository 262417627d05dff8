// Benchmarks the built server on PostgreSQL with autocannon, each figure against its target
// (issue 3, "Fast, at a real catalog's size"), all in one run.
//   BENCH_DATABASE_URL=postgres://... npx tsx bench/run.ts [--seed 1000000] [--duration 20]
// Seeds the catalog when asked, starts `node server.js` (NODE_ENV=production) on 127.0.0.1,
// plus two reference servers for the same page: bare node:http writing the same bytes, and
// React's renderToString of the same tree (bench/render-server.ts). Prints a Markdown table
// for docs/benchmarks.md.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

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
const searchQueries = Number(option('search-queries') ?? 60);
const port = Number(option('port') ?? 3290);
// --only search: the search latencies alone (a few minutes instead of half an hour);
// --only pages: the product page figures alone (anonymous, logged in, and their references).
const only = option('only');
const base = `http://127.0.0.1:${port}`;
const children: ChildProcess[] = [];

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
    { stdio: 'inherit', env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const serverEnv = {
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL: databaseUrl,
  HOST: '127.0.0.1',
  PUBLIC_ORIGIN: base,
  DEMO_DATA: 'off',
  LOG_LEVEL: 'warn',
  SESSION_SECRET: randomBytes(32).toString('hex'),
  ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
  LTI_KEY: randomBytes(32).toString('hex'),
  PAYMENTS: 'test',
};

function start(command: string, commandArgs: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, commandArgs, { env, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(child);
  return child;
}

async function waitFor(url: string) {
  for (let i = 0; i < 900; i += 1) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // starting
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not start`);
}

async function logIn(email: string): Promise<string> {
  const form = await fetch(`${base}/accounts/login/`);
  const anon = (form.headers.get('set-cookie') ?? '').split(';')[0]!;
  const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const response = await fetch(`${base}/accounts/login/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: anon, Origin: base },
    body: new URLSearchParams({ email, password: 'shelfmark-demo', csrfmiddlewaretoken: token }),
  });
  const sid = (response.headers.getSetCookie() ?? []).find((c) => c.startsWith('sid='));
  if (!sid) throw new Error(`could not log in as ${email} (${response.status})`);
  return sid.split(';')[0]!;
}

async function throughput(url: string, headers: Record<string, string> = {}) {
  // A short warm-up first (JIT, pools, caches), so that every figure is steady state.
  await autocannon({ url, connections, duration: 3, headers });
  const result = await autocannon({ url, connections, duration, headers });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

type Throughput = Awaited<ReturnType<typeof throughput>>;

/**
 * A figure and its reference measured twice each, alternately (A B A B), and averaged: this
 * machine's speed drifts by a quarter between minutes, and a ratio must not depend on when
 * each half ran.
 */
async function alternating(
  a: () => Promise<Throughput>,
  b: () => Promise<Throughput>,
): Promise<[Throughput, Throughput]> {
  const runs: Throughput[][] = [[], []];
  for (let round = 0; round < 2; round += 1) {
    runs[0]!.push(await a());
    runs[1]!.push(await b());
  }
  const mean = (list: Throughput[]): Throughput => ({
    rps: Math.round(list.reduce((sum, r) => sum + r.rps, 0) / list.length),
    p50: Math.max(...list.map((r) => r.p50)),
    p99: Math.max(...list.map((r) => r.p99)),
    non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
  });
  return [mean(runs[0]!), mean(runs[1]!)];
}

/** One request at a time, each URL once: service time, no queueing, no cache hits. */
async function latencies(paths: string[]) {
  const times: number[] = [];
  // Warm-up on other queries of the same kind (second pages), so the figures are those of a
  // server that has been answering for a while (compiled code, pooled connections).
  for (const p of paths.slice(0, 20)) await (await fetch(`${base}${p}&page=2`)).arrayBuffer();
  for (const p of paths) {
    const started = performance.now();
    const response = await fetch(`${base}${p}`);
    await response.arrayBuffer();
    if (response.status >= 500) throw new Error(`${p} answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { n: times.length, p50: at(0.5), p95: at(0.95), max: times[times.length - 1]! };
}

async function searchTerms() {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const sample = async (query: string) => (await client.query(query)).rows.map((r) => String(r.v));
  const titles = await sample(
    `select title v from products tablesample system (1) where status = 'active' limit ${searchQueries}`,
  );
  const authors = await sample(
    `select authors v from products tablesample system (1) where authors <> '' limit ${searchQueries}`,
  );
  const isbns = await sample(
    `select value v from product_identifiers tablesample system (1) where type in ('ISBN13','EISBN13','ISBN10') limit ${searchQueries}`,
  );
  // The most frequent title words (each in thousands of titles), one query each.
  const common = await sample(
    `select word v from ts_stat($$select to_tsvector('english', title) from products tablesample system (1)$$) where length(word) > 3 order by ndoc desc limit ${searchQueries}`,
  );
  // Course codes (issue 19): each course as shoppers type it, code or department name, spaced,
  // joined or hyphenated, so that every query is distinct (a process keeps answers a minute).
  const courseRows = (
    await client.query(
      `select c.department, c.number, c.name as course_name, d.name, d.name_fr_ca from courses c
       left join departments d on d.org_id = c.org_id and d.code = c.department
       where exists (select 1 from course_sections s join section_products sp on sp.section_id = s.id
                     where s.course_id = c.id)`,
    )
  ).rows as {
    department: string;
    number: string;
    course_name: string;
    name: string | null;
    name_fr_ca: string | null;
  }[];
  const courseCodes = courseRows
    .flatMap((c) => [
      `${c.department} ${c.number}`,
      `${c.department}${c.number}`,
      `${c.department.toLowerCase()}-${c.number}`,
      `${c.department.toLowerCase()} ${c.number}`,
      ...(c.name ? [`${c.name} ${c.number}`, `${c.name.toLowerCase()} ${c.number}`] : []),
      ...(c.name_fr_ca ? [`${c.name_fr_ca} ${c.number}`] : []),
    ])
    .slice(0, searchQueries);
  // Edition words (issue 19): a title's rarest word and its edition, said three ways.
  const editions = (
    await client.query(
      `select title, edition_number from products tablesample system (1)
       where edition_number is not null and status = 'active' limit ${searchQueries}`,
    )
  ).rows as { title: string; edition_number: number }[];
  await client.end();
  const ordinal = (n: number) =>
    `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
  const rareWord = (title: string) =>
    title
      .split(/\s+/)
      .sort((a, b) => b.length - a.length)[0]!
      .toLowerCase();
  // Four kinds of slip, in turn: two letters swapped, one dropped, one doubled, one wrong.
  const typo = (word: string, i = 0) => {
    if (word.length < 5) return `${word}x`;
    const at = 2 + (i % (word.length - 4));
    switch (i % 4) {
      case 0:
        return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
      case 1:
        return word.slice(0, at) + word.slice(at + 1);
      case 2:
        return word.slice(0, at) + word[at] + word.slice(at);
      default:
        return `${word.slice(0, at)}${word[at] === 'e' ? 'a' : 'e'}${word.slice(at + 1)}`;
    }
  };
  const twoWords = (title: string, i: number) =>
    title
      .split(/\s+/)
      .filter((w) => w.length > 3)
      .slice(0, 2)
      .map((w, j) => typo(w.toLowerCase(), i + j))
      .join(' ');
  const enc = (t: string) => `/search?terms=${encodeURIComponent(t)}`;
  return {
    'title word': titles.map((t) => enc(rareWord(t))),
    'full title': titles.map(enc),
    author: authors.map(enc),
    ISBN: isbns.map((v, i) => enc(i % 2 && v.length === 13 ? `${v.slice(0, 3)}-${v.slice(3)}` : v)),
    typo: titles.map((t, i) => enc(typo(rareWord(t), i))),
    'typo, two words': titles.map((t, i) => enc(twoWords(t, i))),
    'common word': common.map(enc),
    'course code': courseCodes.map(enc),
    // Issue 38: the department's name misspelt with the number ('biolgy 101'), and the
    // course's own name, as written or with a slip in one word ('Principles of Biolgy').
    'course code, misspelt': courseRows
      .filter((c) => c.name)
      .slice(0, searchQueries)
      .map((c, i) => enc(`${typo(c.name!.toLowerCase(), i)} ${c.number}`)),
    'course name': courseRows
      .slice(0, searchQueries)
      .map((c, i) =>
        enc(
          i % 2
            ? c.course_name
            : c.course_name.replace(/\p{L}{5,}/u, (word) => typo(word.toLowerCase(), i)),
        ),
      ),
    'edition words': editions.map((e, i) =>
      enc(
        [
          `${rareWord(e.title)} ${ordinal(e.edition_number)} edition`,
          `${rareWord(e.title)} ${ordinal(e.edition_number)} ed.`,
          `${ordinal(e.edition_number)} edition`,
        ][i % 3]!,
      ),
    ),
  };
}

const rows: string[] = [];
const row = (...cells: (string | number)[]) => rows.push(`| ${cells.join(' | ')} |`);

try {
  start(process.execPath, ['server.js'], { ...serverEnv, PORT: String(port) });
  await waitFor(`${base}/api/account/login`);
  if (only !== 'search') await pageFigures();
  if (only !== 'pages') await searchFigures();
  if (only !== 'search' && only !== 'pages') await otherPages();
  console.log('\ntargets\n\n| target | measured | limit | |\n|---|---|---|---|');
  for (const line of rows) console.log(line);
} finally {
  for (const child of children) child.kill('SIGTERM');
}

async function pageFigures() {
  const cookie = await logIn('student@demo.test');
  const home = await (await fetch(`${base}/`)).text();
  const productPath = /href="(\/book\/\d+\/[a-z0-9-]+)"/.exec(home)?.[1];
  if (!productPath) throw new Error('no book link on the home page');

  // Anonymous product page vs bare node:http with the same bytes and headers.
  const page = await fetch(`${base}${productPath}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-bench-'));
  const body = Buffer.from(await page.arrayBuffer());
  writeFileSync(path.join(dir, 'body.html'), body);
  writeFileSync(path.join(dir, 'headers.json'), JSON.stringify(Object.fromEntries(page.headers)));
  const barePort = port + 1;
  start(
    process.execPath,
    [
      'bench/bare-server.mjs',
      String(barePort),
      path.join(dir, 'body.html'),
      path.join(dir, 'headers.json'),
    ],
    {},
  );
  await waitFor(`http://127.0.0.1:${barePort}/`);
  const [anonymous, bare] = await alternating(
    () => throughput(`${base}${productPath}`),
    () => throughput(`http://127.0.0.1:${barePort}/`),
  );

  await transactionsPerRequest(productPath, cookie);

  // --no-render: the logged-in page alone, without the renderToString reference.
  if (args.includes('--no-render')) {
    const [user] = await alternating(
      () => throughput(`${base}${productPath}`, { cookie }),
      () => throughput(`http://127.0.0.1:${barePort}/`),
    );
    console.log(
      `\nproduct page ${productPath}, ${body.length} bytes; ${connections} connections, ${duration} s each\n`,
    );
    console.log('| measurement | req/s | p50 ms | p99 ms | non-2xx |');
    console.log('|---|---|---|---|---|');
    for (const [name, r] of [
      ['bare node:http, same bytes', bare],
      ['anonymous product page', anonymous],
      ['logged-in product page', user],
    ] as const) {
      console.log(`| ${name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} |`);
    }
    row(
      'logged-in product page / bare node:http',
      `${((user.rps / bare.rps) * 100).toFixed(1)}%`,
      '≥ 25%',
      user.rps / bare.rps >= 0.25 ? 'met' : 'MISSED',
    );
    return;
  }

  // Logged-in product page vs renderToString of the same tree.
  const renderPort = port + 2;
  start(process.execPath, ['--import', 'tsx', 'bench/render-server.ts'], {
    ...serverEnv,
    PORT: String(renderPort),
    BENCH_PATH: productPath,
    BENCH_COOKIE: cookie,
  });
  await waitFor(`http://127.0.0.1:${renderPort}/`);
  const [user, render] = await alternating(
    () => throughput(`${base}${productPath}`, { cookie }),
    () => throughput(`http://127.0.0.1:${renderPort}/`),
  );

  console.log(
    `\nproduct page ${productPath}, ${body.length} bytes; ${connections} connections, ${duration} s each; each pair run A B A B: req/s is the mean, p50 and p99 the worse run\n`,
  );
  console.log('| measurement | req/s | p50 ms | p99 ms | non-2xx |');
  console.log('|---|---|---|---|---|');
  for (const [name, r] of [
    ['bare node:http, same bytes', bare],
    ['anonymous product page', anonymous],
    ['renderToString of the same tree', render],
    ['logged-in product page', user],
  ] as const) {
    console.log(`| ${name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} |`);
  }
  row(
    'anonymous product page / bare node:http',
    `${((anonymous.rps / bare.rps) * 100).toFixed(0)}%`,
    '≥ 50%',
    anonymous.rps / bare.rps >= 0.5 ? 'met' : 'MISSED',
  );
  // Issue 40: a logged-in page is the stored public page plus the personal part (decision 043).
  row(
    'logged-in product page / bare node:http',
    `${((user.rps / bare.rps) * 100).toFixed(1)}%`,
    '≥ 25%',
    user.rps / bare.rps >= 0.25 ? 'met' : 'MISSED',
  );
  row(
    'logged-in product page / renderToString',
    `${((user.rps / render.rps) * 100).toFixed(0)}%`,
    '≥ 35%',
    user.rps / render.rps >= 0.35 ? 'met' : 'MISSED',
  );
}

/**
 * Database transactions a warm logged-in product page makes: PostgreSQL's count of commits in
 * this database over 200 requests one at a time, less its count over as long without requests
 * (the outbox and sweeper poll meanwhile). Statistics reach pg_stat_database within a second.
 */
async function transactionsPerRequest(productPath: string, cookie: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const commits = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const { rows } = await client.query(
      'select xact_commit::bigint as n from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0].n);
  };
  const get = async () => (await fetch(`${base}${productPath}`, { headers: { cookie } })).text();
  for (let i = 0; i < 20; i += 1) await get();
  const before = await commits();
  const started = performance.now();
  for (let i = 0; i < 200; i += 1) await get();
  const elapsed = performance.now() - started;
  const during = (await commits()) - before - 1;
  const idleStart = await commits();
  await new Promise((resolve) => setTimeout(resolve, elapsed));
  const idle = (await commits()) - idleStart - 1;
  await client.end();
  console.log(
    `\nwarm logged-in product page, 200 requests one at a time (${Math.round(elapsed)} ms): ${during} commits; ${idle} in as long without requests: ${((during - idle) / 200).toFixed(2)} transactions a request\n`,
  );
}

async function searchFigures() {
  // Search: every query distinct, one at a time, as the server answers it.
  console.log(`\nsearch, ${searchQueries} distinct queries per kind, one at a time\n`);
  console.log('| kind | queries | p50 ms | p95 ms | max ms |');
  console.log('|---|---|---|---|---|');
  for (const [kind, paths] of Object.entries(await searchTerms())) {
    const r = await latencies(paths);
    console.log(
      `| ${kind} | ${r.n} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} |`,
    );
    row(`search p95, ${kind}`, `${r.p95.toFixed(1)} ms`, '≤ 50 ms', r.p95 <= 50 ? 'met' : 'MISSED');
  }
}

async function otherPages() {
  const cookie = await logIn('student@demo.test');
  // Other pages, for the record.
  console.log('\nother pages\n');
  console.log('| page | req/s | p50 ms | p99 ms | non-2xx |');
  console.log('|---|---|---|---|---|');
  for (const [name, p, headers] of [
    ['home, anonymous', '/', {}],
    ['home, logged in', '/', { cookie }],
    ['browse, anonymous', '/browse/all', {}],
    ['login status (API)', '/api/account/login', {}],
  ] as const) {
    const r = await throughput(`${base}${p}`, headers);
    console.log(`| ${name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} |`);
  }
}
