// The help desk's people search at a large store (issue 39): times searchPeople (the count
// and the page it runs) for each kind of query, as a manager (everyone) and as one campus's
// bookstore manager, and prints PostgreSQL's plan (EXPLAIN ANALYZE) of each query it ran.
// Seed first (once): psql "$BENCH_DATABASE_URL" -f bench/helpdesk-search-seed.sql
//   BENCH_DATABASE_URL=postgres://... npx tsx bench/helpdesk-search.ts [--runs 7] [--plans]
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '#db/client.ts';
import * as schema from '#db/schema/index.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { searchPeople } from '#domain/operations/helpdesk/people-search.ts';
import { testContext } from '#tests/database.ts';

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1] || 7) || 7;
const plans = args.includes('--plans');
const url = process.env.BENCH_DATABASE_URL;
if (!url) {
  console.error('Set BENCH_DATABASE_URL to the seeded PostgreSQL database.');
  process.exit(2);
}
const pool = new pg.Pool({ connectionString: url, max: 1 });
let captured: { sql: string; params: unknown[] }[] = [];
const db = drizzle(pool, {
  schema,
  casing: 'snake_case',
  logger: { logQuery: (sql, params) => captured.push({ sql, params }) },
}) as unknown as Database;

async function one<T>(text: string, values: unknown[] = []): Promise<T> {
  return (await pool.query(text, values)).rows[0] as T;
}

async function staffAccount(role: string, orgId: number | null): Promise<number> {
  const email = `bench-${role}@bench.test`;
  const found = await one<{ id: number } | undefined>('select id from users where email = $1', [
    email,
  ]);
  if (found) return found.id;
  const row = await one<{ id: number }>(
    `insert into users (email, first_name, last_name, org_id) values ($1, 'Bench', $2, $3) returning id`,
    [email, role, orgId],
  );
  await pool.query('insert into user_roles (user_id, role) values ($1, $2)', [row.id, role]);
  return row.id;
}

const org = await one<{ id: number }>('select min(id) + 2 as id from organizations');
const sample = await one<{ email: string; first: string; last: string; id: number }>(
  `select u.email, u.first_name as first, u.last_name as last, u.id from users u
     join campus_people p on p.user_id = u.id where p.org_id = $1 order by u.id offset 20000 limit 1`,
  [org.id],
);
const roster = await one<{ campus_id: string }>(
  'select campus_id from campus_people where user_id = $1',
  [sample.id],
);
const signIn = await one<{ campus_id: string }>(
  'select campus_id from campus_identities order by id offset 30000 limit 1',
);
const cases: [string, string][] = [
  ['part of a surname', sample.last.slice(0, 5).toLowerCase()],
  ['given name and surname', `${sample.first} ${sample.last}`],
  ['whole e-mail', sample.email],
  ['part of an e-mail', sample.email.split('@')[0]!.split('.').slice(1).join('.')],
  ['roster campus id', roster.campus_id],
  ['campus sign-in id', signIn.campus_id],
  ['two letters (a word’s start)', 'mo'],
  ['two letters nobody’s word starts with', 'qz'],
  ['nobody', 'zqxjv'],
];
const viewers = [
  ['manager', await staffAccount('manager', null)],
  ['campus bookstore manager', await staffAccount('bookstore_manager', org.id)],
] as const;

for (const [viewerName, viewerId] of viewers) {
  const user = (await loadSessionUser(db, { userId: viewerId, impersonatorId: null }))!;
  console.log(`\n## as ${viewerName}`);
  console.log('| query | q | found | median ms | max ms |');
  console.log('|---|---|---:|---:|---:|');
  for (const [name, q] of cases) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < runs; i += 1) {
      captured = [];
      const start = performance.now();
      total = (await searchPeople(testContext(db, { user }), { q, page: 1 })).total;
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    console.log(
      `| ${name} | \`${q}\` | ${total} | ${median.toFixed(1)} | ${times.at(-1)!.toFixed(1)} |`,
    );
    if (plans) {
      // As the search runs them: without JIT (people-search.ts).
      await pool.query('set jit = off');
      for (const query of captured.filter((c) => c.sql.startsWith('select'))) {
        const plan = await pool.query(`explain (analyze, buffers) ${query.sql}`, query.params);
        console.log(`\n${query.sql}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
      }
    }
  }
}
await pool.end();
