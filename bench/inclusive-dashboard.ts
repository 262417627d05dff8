// The term dashboard at a large campus (issue 39: "p95 ≤ 300 ms with 100,000 members"):
// seeds one organisation's running term with --members students across --sections sections
// (a sixth of them opted out by themselves, a sixth who opted out and came back), starts the
// built server (`npm run build` first) in production mode on that PostgreSQL database, and
// asks autocannon for /manage/inclusive-dashboard as the campus's bookstore manager on a
// dashboard-enabled white label. Prints p50/p95/p99 of every response's time.
//   BENCH_DATABASE_URL=postgres://... npx tsx bench/inclusive-dashboard.ts
//     [--members 100000] [--sections 400] [--duration 15] [--connections 4] [--port 3291]
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl) {
  console.error('Set BENCH_DATABASE_URL to a PostgreSQL database the benchmark may fill.');
  process.exit(2);
}
const members = option('members', 100_000);
const sectionCount = option('sections', 400);
const duration = option('duration', 15);
const connections = option('connections', 4);
const port = option('port', 3291);
// The label answers on the address the benchmark calls (fetch may not set a Host header).
const host = '127.0.0.1';
const base = `http://127.0.0.1:${port}`;

let server: ChildProcess | null = null;

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

/** The campus, its term, sections and students; the staff member's session token. */
async function seed(client: pg.Client): Promise<string> {
  const tag = `${Date.now().toString(36)}`;
  const q = async (text: string, values: unknown[] = []) => (await client.query(text, values)).rows;
  const [org] = await q('insert into organizations (title) values ($1) returning id', [
    `Bench University ${tag}`,
  ]);
  const orgId = org.id as number;
  // One label host for the benchmark: the newest run's organisation has it.
  await q('delete from white_labels where fqdn = $1', [host]);
  await q(
    `insert into white_labels (org_id, title, fqdn, is_dashboard_enabled, is_campus_insights_enabled)
     values ($1, 'Bench', $2, true, true)`,
    [orgId, host],
  );
  const [term] = await q(
    `insert into academic_terms (org_id, title, start_date, end_date)
     values ($1, 'Bench term', current_date - 20, current_date + 90) returning id`,
    [orgId],
  );
  await q(
    `insert into courses (org_id, name, department, number, course_type)
     select $1, 'Course ' || g, 'D' || (g % 40), (100 + g)::text,
            (array['inclusive_access','lms_ecommerce','cds','student_choice'])[1 + g % 4]
     from generate_series(1, $2) g`,
    [orgId, sectionCount],
  );
  await q(
    `insert into course_sections (course_id, name, number, rs_course_id, start_date, end_date,
       add_drop_at, course_fee_cents, term_id)
     select c.id, c.name, '001', 'BENCH-' || $3 || '-' || c.id, current_date - 10, current_date + 80,
            now() + ((c.id % 30) - 10) * interval '1 day', 5000 + (c.id % 5) * 1000, $2
     from courses c where c.org_id = $1`,
    [orgId, term.id, tag],
  );
  await q(
    `insert into users (email, first_name, last_name)
     select 'bench-' || $1 || '-' || g || '@students.bench.test', 'Student', 'No ' || g
     from generate_series(1, $2) g`,
    [tag, members],
  );
  await q(
    `insert into section_members (section_id, user_id, role, opt_status, add_drop_date, rs_coursemember_id)
     select s.ids[1 + (u.n % array_length(s.ids, 1))], u.id, 'student',
            case when u.n % 6 = 0 then 'opted_out' else 'opted_in' end,
            now() + ((u.n % 30) - 10) * interval '1 day', 'BENCH-' || $1 || '-' || u.id
     from (select id, row_number() over (order by id) as n from users
           where email like 'bench-' || $1 || '-%') u,
          (select array_agg(cs.id order by cs.id) as ids from course_sections cs
           join courses c on c.id = cs.course_id where c.org_id = $2) s`,
    [tag, orgId],
  );
  // Opting events: every opted-out student opted out; a sixth more opted out and came back.
  await q(
    `insert into opt_changes (member_id, actor_user_id, from_status, to_status, changed_at)
     select m.id, m.user_id, 'opted_in', 'opted_out', now() - ((m.id % 20) + 1) * interval '1 day'
     from section_members m join users u on u.id = m.user_id
     where u.email like 'bench-' || $1 || '-%' and (m.opt_status = 'opted_out' or m.id % 6 = 1)`,
    [tag],
  );
  await q(
    `insert into opt_changes (member_id, actor_user_id, from_status, to_status, changed_at)
     select m.id, m.user_id, 'opted_out', 'opted_in', now() - (m.id % 10) * interval '1 day'
     from section_members m join users u on u.id = m.user_id
     where u.email like 'bench-' || $1 || '-%' and m.opt_status = 'opted_in' and m.id % 6 = 1`,
    [tag],
  );
  const [staff] = await q(
    `insert into users (email, first_name, last_name, org_id, must_accept_eula)
     values ($1, 'Bench', 'Manager', $2, false) returning id`,
    [`bench-manager-${tag}@bench.test`, orgId],
  );
  await q(`insert into user_roles (user_id, role) values ($1, 'bookstore_manager')`, [staff.id]);
  const token = randomBytes(32).toString('base64url');
  await q(
    `insert into sessions (id_hash, user_id, expires_at, second_factor)
     values ($1, $2, now() + interval '1 day', true)`,
    [createHash('sha256').update(token).digest('base64url'), staff.id],
  );
  await q('analyze');
  return token;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(url: string, headers: Record<string, string>, seconds: number) {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  let instance: autocannon.Instance | undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon({ url, connections, duration: seconds, headers }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      times.push(responseTime);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    rps: Math.round(result.requests.average),
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    statuses: Object.fromEntries(statuses),
  };
}

const client = new pg.Client({ connectionString: databaseUrl });
try {
  server = spawn(
    'node',
    [...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean), 'server.js'],
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_ORIGIN: base,
        DEMO_DATA: 'off',
        LOG_LEVEL: 'warn',
        SESSION_SECRET: randomBytes(32).toString('hex'),
        ACCESS_CODE_KEY: randomBytes(32).toString('hex'),
        LTI_KEY: randomBytes(32).toString('hex'),
        PAYMENTS: 'test',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  await waitFor(`${base}/robots.txt`);
  await client.connect();
  const started = Date.now();
  const token = await seed(client);
  console.log(
    `seeded ${members} members in ${sectionCount} sections in ${Date.now() - started} ms`,
  );
  const headers = { Cookie: `sid=${token}` };
  const url = `${base}/manage/inclusive-dashboard`;
  const check = await fetch(url, { headers });
  const body = await check.text();
  if (check.status !== 200 || !body.includes('Expected billing')) {
    throw new Error(`the dashboard answered ${check.status}: ${body.slice(0, 300)}`);
  }
  await measure(url, headers, 3);
  const figures = await measure(url, headers, duration);
  console.log(
    `\n| members | sections | connections | requests | req/s | p50 ms | p95 ms | p99 ms | statuses |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  console.log(
    `| ${members} | ${sectionCount} | ${connections} | ${figures.requests} | ${figures.rps} | ${figures.p50} | ${figures.p95} | ${figures.p99} | ${JSON.stringify(figures.statuses)} |`,
  );
  if (!(figures.p95 <= 300)) process.exitCode = 1;
} finally {
  await client.end().catch(() => {});
  server?.kill('SIGTERM');
}
