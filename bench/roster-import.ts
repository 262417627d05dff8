// Issue 39 speed: a 50,000-enrolment OneRoster bulk package imports in <= 60 s on PostgreSQL
// with the importer's RSS under 400 MB; a 1,000-row delta in <= 5 s.
//   BENCH_DATABASE_URL=postgres://... npx tsx bench/roster-import.ts [--enrolments 50000]
// The packages are generated into a temporary folder; each import runs as its own process
// (npm run roster:import, as an operator runs it), its peak RSS (VmHWM) read from /proc.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { rowsOf } from '#db/seed/bulk-insert.ts';

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
const enrolments = Number(option('enrolments') ?? 50_000);
const run = Date.now().toString(36);

const database = await openDatabase({ url });
await migrateDatabase(database);
const [org] = rowsOf<{ id: number }>(
  await database.db.execute(
    sql`insert into organizations (title) values (${`Bench campus ${run}`}) returning id`,
  ),
);
await database.close();

const perStudent = 5;
const students = Math.ceil(enrolments / (perStudent + 0.1));
const classes = Math.max(10, Math.ceil(students / 10));
const teachers = Math.ceil(classes / 2);
const courses = Math.ceil(classes / 2);

function write(dir: string, name: string, header: string, rows: Iterable<string>) {
  const lines = [header];
  for (const row of rows) lines.push(row);
  writeFileSync(path.join(dir, name), `\uFEFF${lines.join('\r\n')}\r\n`);
}
function* range(n: number) {
  for (let i = 0; i < n; i++) yield i;
}
const manifest = (modes: Record<string, string>) =>
  [
    'propertyName,value',
    'manifest.version,1.0',
    'oneroster.version,1.2',
    ...Object.entries(modes).map(([f, m]) => `file.${f},${m}`),
    'source.systemName,Bench SIS',
  ].join('\r\n');

const base = mkdtempSync(path.join(tmpdir(), 'roster-bench-'));
const bulk = path.join(base, 'bulk');
mkdirSync(bulk);
writeFileSync(
  path.join(bulk, 'manifest.csv'),
  manifest({
    orgs: 'bulk',
    academicSessions: 'bulk',
    courses: 'bulk',
    classes: 'bulk',
    users: 'bulk',
    roles: 'bulk',
    enrollments: 'bulk',
  }),
);
write(bulk, 'orgs.csv', 'sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId', [
  'org,,,Bench University,school,,',
]);
write(
  bulk,
  'academicSessions.csv',
  'sourcedId,status,dateLastModified,title,type,startDate,endDate,parentSourcedId,schoolYear',
  ['fall,,,Fall 2027,semester,2027-08-23,2027-12-17,,2028'],
);
write(
  bulk,
  'courses.csv',
  'sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode,grades,orgSourcedId,subjects,subjectCodes',
  (function* () {
    for (const i of range(courses)) yield `c${i},,,,"Course ${i}, general",DEP ${100 + i},,org,,`;
  })(),
);
write(
  bulk,
  'classes.csv',
  'sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods',
  (function* () {
    for (const i of range(classes))
      yield `k${i},,,Section ${i},,c${i % courses},${i},scheduled,,org,fall,,,`;
  })(),
);
const userHeader =
  'sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password,userMasterIdentifier,resourceSourcedIds,preferredGivenName,preferredMiddleName,preferredFamilyName,primaryOrgSourcedId,pronouns';
write(
  bulk,
  'users.csv',
  userHeader,
  (function* () {
    for (const i of range(students))
      yield `s${i},,,true,s${i},,Étudiant,Nº${i},,S${i},s${i}.${run}@bench.test,,,,,,,,,,,org,`;
    for (const i of range(teachers))
      yield `t${i},,,true,t${i},,Prof,${i},,T${i},t${i}.${run}@bench.test,,,,,,,,,,,org,`;
  })(),
);
write(
  bulk,
  'roles.csv',
  'sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId,userProfileSourcedId',
  (function* () {
    for (const i of range(students)) yield `rs${i},,,s${i},primary,student,,,org,`;
    for (const i of range(teachers)) yield `rt${i},,,t${i},primary,teacher,,,org,`;
  })(),
);
const enrolHeader =
  'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate';
let written = 0;
write(
  bulk,
  'enrollments.csv',
  enrolHeader,
  (function* () {
    for (const i of range(classes)) {
      if (written++ >= enrolments) return;
      yield `et${i},,,k${i},org,t${i % teachers},teacher,true,,`;
    }
    for (const i of range(students)) {
      for (const j of range(perStudent)) {
        if (written++ >= enrolments) return;
        yield `e${i}-${j},,,k${(i * perStudent + j * 7) % classes},org,s${i},student,,,`;
      }
    }
  })(),
);

const delta = path.join(base, 'delta');
mkdirSync(delta);
writeFileSync(path.join(delta, 'manifest.csv'), manifest({ enrollments: 'delta' }));
const stamp = '2027-09-01T12:00:00Z';
write(
  delta,
  'enrollments.csv',
  enrolHeader,
  (function* () {
    for (const i of range(500))
      yield `e${i}-0,tobedeleted,${stamp},k${(i * perStudent) % classes},org,s${i},student,,,`;
    for (const i of range(500))
      yield `x${i},active,${stamp},k${(i * 3 + 1) % classes},org,s${students - 1 - i},student,,,`;
  })(),
);

async function importRun(label: string, dir: string) {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/roster-import.ts',
      dir,
      '--org',
      String(org!.id),
      '--data-dir',
      path.join(base, 'data'),
    ],
    {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb);
    } catch {
      // It ended.
    }
  }, 50);
  const [code] = await once(child, 'exit');
  clearInterval(timer);
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `${label}: ${seconds.toFixed(1)} s, peak RSS ${(peak / 1024).toFixed(0)} MB, exit ${code}`,
  );
  console.log(
    out
      .split('\n')
      .filter((l) => /^\s+(enrollment|user|class)/.test(l) || l.startsWith('roster'))
      .join('\n'),
  );
}

console.log(
  `package: ${enrolments} enrolments, ${students + teachers} users, ${classes} classes (${base})`,
);
await importRun('bulk', bulk);
await importRun('bulk again (nothing changes)', bulk);
await importRun('delta of 1,000 rows', delta);
