import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import {
  academicTerms,
  courseSections,
  courses,
  sectionMemberDrops,
  sectionMembers,
} from '#db/schema/courses.ts';
import { auditEvents, campusPeople } from '#db/schema/operations.ts';
import { rosterImports } from '#db/schema/roster.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { courseCodeLabel } from '#domain/courses/course-code.ts';
import { systemActor } from '#domain/operations/audit.ts';
import { readRosterPackage } from '#domain/operations/roster/package-reader.ts';
import { applyRosterPackage } from '#domain/operations/roster/roster-apply.ts';
import {
  applyRefusal,
  claimRosterImportById,
  MAX_INTERRUPTIONS,
  queueApply,
  rosterImportReport,
  runQueuedRosterImports,
  runRosterImport,
  startRosterImport,
} from '#domain/operations/roster/roster-jobs.ts';
import { diskFileStore } from '#domain/reading/file-store.ts';
import { createLogger } from '#server/logger.ts';
import { startRosterWorker } from '#server/roster-worker.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, unique } from '#tests/database.ts';

// Issue 39, roster import: bulk then delta, idempotent by sourcedId, people linked (never a
// second account), an ended enrolment removes what the section gave and keeps purchases, a
// dry run changes nothing, and two campuses' equal ids never collide.

let database: DatabaseHandle;
const dirs: string[] = [];
const actor = systemActor('roster import (test)');

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await database.close();
});

/** The fixture package with its e-mail domains made unique to this test. */
function fixture(name: 'bulk' | 'delta', domain: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `roster-${name}-`));
  dirs.push(dir);
  cpSync(path.resolve('tests/fixtures/oneroster', name), dir, { recursive: true });
  for (const file of readdirSync(dir)) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    writeFileSync(path.join(dir, file), text.replaceAll('riverbend.test', domain));
  }
  return dir;
}

async function organisation(): Promise<number> {
  const [org] = await database.db
    .insert(organizations)
    .values({ title: unique('Campus') })
    .returning({ id: organizations.id });
  return org!.id;
}

async function importFolder(orgId: number, dir: string, dryRun = false, now = new Date()) {
  const reading = await readRosterPackage(dir);
  if (!reading.ok) throw new Error(reading.reason.message);
  return applyRosterPackage(database.db, {
    orgId,
    pkg: reading.package,
    dryRun,
    actor,
    now,
  });
}

const auditCount = async (orgId: number) =>
  (
    await database.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.orgId, orgId))
  )[0]!.n;

async function membersOf(orgId: number) {
  const rows = await database.db
    .select({
      section: courseSections.sourcedId,
      email: users.email,
      role: sectionMembers.role,
      isCourseFee: sectionMembers.isCourseFee,
    })
    .from(sectionMembers)
    .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .innerJoin(users, eq(users.id, sectionMembers.userId))
    .where(eq(courses.orgId, orgId));
  const key = (m: (typeof rows)[number]) => `${m.section} ${m.email.toLowerCase()}`;
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : 1));
}

describe('issue 39: a OneRoster bulk package, then a delta', () => {
  it('imports a bulk package, changes nothing the second time, and applies a delta', async () => {
    const orgId = await organisation();
    const domain = `${unique('rb')}.test`.toLowerCase();
    // Seán already has a verified account with his campus address (in another case): linked.
    const [sean] = await database.db
      .insert(users)
      .values({ email: `Sean.OBrien@students.${domain}`, firstName: 'Sean', lastName: 'Own Name' })
      .returning({ id: users.id });
    // Eleni's address is held by an account that never proved it: not linked, not doubled.
    await database.db
      .insert(users)
      .values({ email: `eleni.papadopoulou@${domain}`, emailVerifiedAt: null });

    const preview = await importFolder(orgId, fixture('bulk', domain), true);
    expect(preview.counts.enrollment).toMatchObject({ created: 6, refused: 2, ignored: 1 });
    expect(await membersOf(orgId)).toEqual([]);
    expect(await auditCount(orgId)).toBe(0);

    const first = await importFolder(orgId, fixture('bulk', domain));
    expect(first.counts).toEqual(preview.counts);
    expect(first.counts.term).toMatchObject({ created: 4, refused: 0 });
    expect(first.counts.course).toMatchObject({ created: 3 });
    expect(first.counts.class).toMatchObject({ created: 3 });
    expect(first.counts.user).toMatchObject({ created: 4, refused: 1, ignored: 1 });
    expect(first.lines.map((l) => [l.file, l.line, l.sourcedId, l.kind, l.reason])).toEqual(
      expect.arrayContaining([
        ['users.csv', 7, 'usr-g01', 'ignored', 'ops.roster.line.roleNotServed'],
        ['users.csv', 5, 'usr-t01', 'refused', 'ops.roster.line.unverifiedAccount'],
        ['enrollments.csv', 4, 'enr-3', 'refused', 'ops.roster.line.unknownReference'],
        ['enrollments.csv', 9, 'enr-8', 'refused', 'ops.roster.line.unknownReference'],
        ['enrollments.csv', 10, 'enr-9', 'ignored', 'ops.roster.line.roleIgnored'],
      ]),
    );
    expect(await membersOf(orgId)).toEqual([
      {
        section: 'cls-bio-101-01',
        email: `marc.lefevre@${domain}`,
        role: 'teaching_assistant',
        isCourseFee: false,
      },
      {
        section: 'cls-bio-101-01',
        email: `Sean.OBrien@students.${domain}`,
        role: 'student',
        isCourseFee: false,
      },
      {
        section: 'cls-bio-101-01',
        email: `ZOE.OSTERGAARD@students.${domain}`,
        role: 'student',
        isCourseFee: false,
      },
      {
        section: 'cls-chm-210-01',
        email: `yuki.tanaka@students.${domain}`,
        role: 'student',
        isCourseFee: false,
      },
      {
        section: 'cls-lit-300-01',
        email: `marc.lefevre@${domain}`,
        role: 'teaching_assistant',
        isCourseFee: false,
      },
      {
        section: 'cls-lit-300-01',
        email: `yuki.tanaka@students.${domain}`,
        role: 'student',
        isCourseFee: false,
      },
    ]);
    // Linked, not doubled; the linked account keeps its own name; names round-trip.
    const accounts = await database.db
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        sourcedId: campusPeople.sourcedId,
        campusId: campusPeople.campusId,
      })
      .from(campusPeople)
      .innerJoin(users, eq(users.id, campusPeople.userId))
      .where(eq(campusPeople.orgId, orgId))
      .orderBy(campusPeople.campusId);
    expect(accounts.map(({ id: _id, ...a }) => a)).toEqual([
      {
        email: `marc.lefevre@${domain}`,
        firstName: 'Marc-André',
        lastName: 'Lefèvre, Jr.',
        sourcedId: 'usr-t02',
        campusId: 'F0002',
      },
      {
        email: `ZOE.OSTERGAARD@students.${domain}`,
        firstName: 'Zoë',
        lastName: 'Østergaard',
        sourcedId: 'usr-Ø1',
        campusId: 'S0001',
      },
      {
        email: `Sean.OBrien@students.${domain}`,
        firstName: 'Sean',
        lastName: 'Own Name',
        sourcedId: 'usr-002',
        campusId: 'S0002',
      },
      {
        email: `yuki.tanaka@students.${domain}`,
        firstName: '結衣',
        lastName: '田中',
        sourcedId: 'usr-003',
        campusId: 'S0003',
      },
    ]);
    expect(accounts[2]!.id).toBe(sean!.id);
    const sameAddress = await database.db
      .select({ n: count() })
      .from(users)
      .where(sql`lower(${users.email}) like ${`%${domain}`}`);
    expect(sameAddress[0]!.n).toBe(5);
    // A class in several terms: the covering term, the span of all.
    const [lit] = await database.db
      .select({
        term: academicTerms.sourcedId,
        start: courseSections.startDate,
        end: courseSections.endDate,
      })
      .from(courseSections)
      .innerJoin(academicTerms, eq(academicTerms.id, courseSections.termId))
      .where(and(eq(courseSections.sourcedId, 'cls-lit-300-01'), eq(academicTerms.orgId, orgId)));
    expect(lit).toEqual({ term: 'sp-2027', start: '2027-01-11', end: '2027-05-14' });

    const audits = await auditCount(orgId);
    expect(audits).toBeGreaterThan(0);
    const again = await importFolder(orgId, fixture('bulk', domain));
    for (const kind of ['term', 'course', 'class', 'user', 'role', 'enrollment'] as const) {
      expect(again.counts[kind]).toMatchObject({ created: 0, updated: 0, ended: 0 });
    }
    expect(await auditCount(orgId)).toBe(audits);

    // Seán bought a book and got his course-fee reading through BIO 101.
    const [bio] = await database.db
      .select({ id: courseSections.id })
      .from(courseSections)
      .innerJoin(courses, eq(courses.id, courseSections.courseId))
      .where(and(eq(courses.orgId, orgId), eq(courseSections.sourcedId, 'cls-bio-101-01')));
    const bought = await insertProduct(database.db);
    const given = await insertProduct(database.db);
    await database.db.insert(ownerships).values([
      { userId: sean!.id, productId: bought, source: 'purchase', courseSectionId: bio!.id },
      { userId: sean!.id, productId: given, source: 'course_fee', courseSectionId: bio!.id },
    ]);

    const delta = await importFolder(orgId, fixture('delta', domain));
    expect(delta.counts.enrollment).toMatchObject({ created: 1, ended: 1, refused: 1 });
    expect(delta.counts.user).toMatchObject({ updated: 1 });
    expect(delta.lines.map((l) => [l.file, l.line, l.sourcedId, l.reason])).toEqual([
      ['enrollments.csv', 4, 'enr-11', 'ops.roster.line.badDate'],
    ]);
    const after = await membersOf(orgId);
    expect(after.filter((m) => m.section === 'cls-bio-101-01').map((m) => m.email)).not.toContain(
      `Sean.OBrien@students.${domain}`,
    );
    expect(after.filter((m) => m.section === 'cls-chm-210-01').map((m) => m.email)).toContain(
      `Sean.OBrien@students.${domain}`,
    );
    const kept = await database.db
      .select({ productId: ownerships.productId })
      .from(ownerships)
      .where(
        and(
          eq(ownerships.userId, sean!.id),
          inArray(ownerships.productId, [bought, given]),
          isNull(ownerships.revokedAt),
        ),
      );
    expect(kept).toEqual([{ productId: bought }]);
    const drops = await database.db
      .select({ source: sectionMemberDrops.source })
      .from(sectionMemberDrops)
      .where(eq(sectionMemberDrops.sectionId, bio!.id));
    expect(drops).toEqual([{ source: 'roster' }]);
    const [yuki] = await database.db
      .select({ lastName: users.lastName })
      .from(users)
      .where(eq(users.email, `yuki.tanaka@students.${domain}`));
    expect(yuki!.lastName).toBe('田中-Smith');
  });

  it('keeps two campuses apart when their packages use the same ids', async () => {
    const [a, b] = [await organisation(), await organisation()];
    const [domainA, domainB] = [
      `${unique('ca')}.test`.toLowerCase(),
      `${unique('cb')}.test`.toLowerCase(),
    ];
    await importFolder(a, fixture('bulk', domainA));
    const second = await importFolder(b, fixture('bulk', domainB));
    expect(second.counts.enrollment).toMatchObject({ created: 7 });
    const sections = await database.db
      .select({ orgId: courses.orgId, rs: courseSections.rsCourseId })
      .from(courseSections)
      .innerJoin(courses, eq(courses.id, courseSections.courseId))
      .where(and(inArray(courses.orgId, [a, b]), eq(courseSections.sourcedId, 'cls-bio-101-01')));
    expect(sections).toHaveLength(2);
  });

  it('runs as a job: a dry run is previewed, then applied; another campus cannot read it', async () => {
    const orgId = await organisation();
    const dir = fixture('bulk', `${unique('job')}.test`.toLowerCase());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'roster-store-'));
    dirs.push(dataDir);
    const store = diskFileStore(dataDir);
    const id = await startRosterImport(database.db, store, {
      orgId,
      dryRun: true,
      source: 'cli',
      fileName: 'export',
      localPath: dir,
      bytes: 1,
      startedBy: null,
      actor,
    });
    await runQueuedRosterImports(database.db, store);
    const preview = await rosterImportReport(database.db, { kind: 'orgs', orgIds: [orgId] }, id);
    expect(preview!.summary).toMatchObject({
      status: 'previewed',
      systemName: 'Riverside SIS',
      progressDone: 33,
      progressTotal: 33,
    });
    expect(preview!.lines.map((l) => l.reason.message)).toContain(
      'ops.roster.line.unknownReference',
    );
    expect(
      await rosterImportReport(database.db, { kind: 'orgs', orgIds: [orgId + 1000] }, id),
    ).toBeNull();
    expect(await queueApply(database.db, id, actor)).toBeNull();
    await runQueuedRosterImports(database.db, store);
    const applied = await rosterImportReport(database.db, { kind: 'all' }, id);
    expect(applied!.summary.status).toBe('done');
    expect(applied!.summary.counts.enrollment.created).toBe(7);
    expect(await queueApply(database.db, id, actor)).toBe('ops.roster.error.notApplicable');
  });
});

describe('issue 39: a roster import whose process stopped', () => {
  const all = { kind: 'all' } as const;

  async function queued(orgId: number, dataDir: string) {
    const dir = fixture('bulk', `${unique('lease')}.test`.toLowerCase());
    return startRosterImport(database.db, diskFileStore(dataDir), {
      orgId,
      dryRun: false,
      source: 'page',
      fileName: 'export.zip',
      localPath: dir,
      bytes: 1,
      startedBy: null,
      actor,
    });
  }
  function storeDir() {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'roster-store-'));
    dirs.push(dataDir);
    return dataDir;
  }
  /** The heartbeat of a running import as its process left it, `minutes` ago. */
  const heartbeatAgo = (id: number, minutes: number) =>
    database.db.execute(sql`update roster_imports
      set heartbeat_at = now() - ${minutes}::int * interval '1 minute' where id = ${id}`);
  const summaryOf = async (id: number) => (await rosterImportReport(database.db, all, id))!.summary;
  /** Another test file's server may take it over first (one PostgreSQL database): wait for its end. */
  async function settled(id: number) {
    for (let i = 0; i < 600; i++) {
      const summary = await summaryOf(id);
      if (summary.status !== 'running' && summary.status !== 'queued') return summary;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`import ${id} did not end`);
  }

  it('is taken over once its heartbeat is stale, run again from its package, and finishes', async () => {
    const orgId = await organisation();
    const dataDir = storeDir();
    const store = diskFileStore(dataDir);
    const id = await queued(orgId, dataDir);
    const dead = await claimRosterImportById(database.db, id);
    expect(dead).toMatchObject({ id, interruptions: 0 });
    // The process wrote the whole package, then stopped before saying so.
    const [job] = await database.db
      .select({ storagePath: rosterImports.storagePath })
      .from(rosterImports)
      .where(eq(rosterImports.id, id));
    await importFolder(orgId, path.join(dataDir, job!.storagePath));
    const members = await membersOf(orgId);
    expect(members).toHaveLength(7);

    // Its heartbeat is fresh: another process leaves it alone.
    expect(await runQueuedRosterImports(database.db, store)).not.toContain(id);
    expect(await summaryOf(id)).toMatchObject({ status: 'running', stalled: false });

    await heartbeatAgo(id, 10);
    expect(await summaryOf(id)).toMatchObject({ status: 'running', stalled: true });
    await runQueuedRosterImports(database.db, store);
    const done = await settled(id);
    expect(done).toMatchObject({ status: 'done', stalled: false, interruptions: 1, failure: null });
    // What the stopped process wrote is found unchanged: nobody doubled, nothing lost.
    expect(done.counts.enrollment).toMatchObject({ created: 0, unchanged: 7, refused: 1 });
    expect(await membersOf(orgId)).toEqual(members);

    // The stopped process comes back (it was only slow): it lost its lease and writes nothing.
    await runRosterImport(database.db, store, dead!, new Date());
    expect(await summaryOf(id)).toMatchObject({ status: 'done', interruptions: 1 });
    expect((await rosterImportReport(database.db, all, id))!.lines.length).toBe(done.lineCount);
  });

  it('ends failed with "import it again" when its package is gone; it cannot be applied', async () => {
    const orgId = await organisation();
    const dataDir = storeDir();
    const id = await queued(orgId, dataDir);
    await claimRosterImportById(database.db, id);
    await heartbeatAgo(id, 10);
    rmSync(path.join(dataDir, 'roster-imports'), { recursive: true, force: true });
    await runQueuedRosterImports(database.db, diskFileStore(dataDir));
    const failed = await settled(id);
    expect(failed).toMatchObject({
      status: 'failed',
      failure: { message: 'ops.roster.packageGone' },
    });
    expect(applyRefusal(failed)).toBe('ops.roster.error.notApplicable');
    expect(await queueApply(database.db, id, actor)).toBe('ops.roster.error.notApplicable');
    expect(await membersOf(orgId)).toEqual([]);
  });

  it('is not started again by itself once taken over too often; applying it runs it', async () => {
    const orgId = await organisation();
    const dataDir = storeDir();
    const store = diskFileStore(dataDir);
    const id = await queued(orgId, dataDir);
    await claimRosterImportById(database.db, id);
    await database.db.execute(
      sql`update roster_imports set interruptions = ${MAX_INTERRUPTIONS} where id = ${id}`,
    );
    await heartbeatAgo(id, 10);
    await runQueuedRosterImports(database.db, store);
    const failed = await settled(id);
    expect(failed).toMatchObject({
      status: 'failed',
      failure: {
        message: 'ops.roster.interruptedTooOften',
        values: { count: MAX_INTERRUPTIONS + 1 },
      },
    });
    expect(await membersOf(orgId)).toEqual([]);
    expect(applyRefusal(failed)).toBeNull();
    expect(await queueApply(database.db, id, actor)).toBeNull();
    await runQueuedRosterImports(database.db, store);
    const done = await settled(id);
    expect(done).toMatchObject({ status: 'done', interruptions: 0 });
    expect(done.counts.enrollment.created).toBe(7);
  });

  it('the server takes over at start what a stopped embedded process left running', async () => {
    const orgId = await organisation();
    const dataDir = storeDir();
    const id = await queued(orgId, dataDir);
    await claimRosterImportById(database.db, id);
    // The heartbeat is fresh, but the embedded database has no other process: an orphan.
    const stop = startRosterWorker({
      db: database.db,
      store: diskFileStore(dataDir),
      log: createLogger('silent'),
      embedded: true,
    });
    try {
      expect(await settled(id)).toMatchObject({ status: 'done', interruptions: 1 });
    } finally {
      await stop();
    }
  });
});

describe('issue 39: an enrolment’s beginDate and endDate', () => {
  it('ends a membership whose endDate has come (purchases kept), creates one that begins later', async () => {
    const orgId = await organisation();
    const domain = `${unique('dates')}.test`.toLowerCase();
    // 6 December 2026, mid-morning in New York (the sections' time zone).
    const now = new Date('2026-12-06T15:00:00Z');
    await importFolder(orgId, fixture('bulk', domain), false, now);
    // Zoë's enrolment begins on 11 January 2027: she is a member already, to get her materials.
    const zoe = `ZOE.OSTERGAARD@students.${domain}`;
    expect(
      (await membersOf(orgId)).filter((m) => m.section === 'cls-bio-101-01').map((m) => m.email),
    ).toContain(zoe);

    const yukiEmail = `yuki.tanaka@students.${domain}`;
    const [yuki] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, yukiEmail));
    const [chm] = await database.db
      .select({ id: courseSections.id })
      .from(courseSections)
      .innerJoin(courses, eq(courses.id, courseSections.courseId))
      .where(and(eq(courses.orgId, orgId), eq(courseSections.sourcedId, 'cls-chm-210-01')));
    const bought = await insertProduct(database.db);
    const given = await insertProduct(database.db);
    await database.db.insert(ownerships).values([
      { userId: yuki!.id, productId: bought, source: 'purchase', courseSectionId: chm!.id },
      { userId: yuki!.id, productId: given, source: 'course_fee', courseSectionId: chm!.id },
    ]);

    const dir = mkdtempSync(path.join(tmpdir(), 'roster-dates-'));
    dirs.push(dir);
    writeFileSync(
      path.join(dir, 'manifest.csv'),
      [
        'propertyName,value',
        'manifest.version,1.0',
        'oneroster.version,1.2',
        'file.enrollments,delta',
        'source.systemName,Riverside SIS',
        '',
      ].join('\n'),
    );
    const at = '2026-12-05T10:00:00Z';
    writeFileSync(
      path.join(dir, 'enrollments.csv'),
      [
        'sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate',
        // Yuki's chemistry enrolment ended on 1 December (the endDate is exclusive).
        `enr-5,active,${at},cls-chm-210-01,org-univ,usr-003,student,,2026-08-24,2026-12-01`,
        // Seán's literature enrolment of last year, over; his new one begins in January.
        `enr-20,active,${at},cls-lit-300-01,org-univ,usr-002,student,,2026-01-11,2026-05-15`,
        `enr-21,active,${at},cls-lit-300-01,org-univ,usr-002,student,,2027-01-11,2027-05-15`,
        // Yuki's literature enrolment ends today and a new one, for the same class, goes on.
        `enr-6,active,${at},cls-lit-300-01,org-univ,usr-003,student,,,2026-12-06`,
        `enr-22,active,${at},cls-lit-300-01,org-univ,usr-003,student,,2026-12-06,`,
        '',
      ].join('\n'),
    );
    const delta = await importFolder(orgId, dir, false, now);
    expect(delta.lines).toEqual([]);
    expect(delta.counts.enrollment).toMatchObject({
      created: 2,
      ended: 2,
      unchanged: 1,
      refused: 0,
    });
    const after = await membersOf(orgId);
    const emailsIn = (section: string) =>
      after.filter((m) => m.section === section).map((m) => m.email);
    expect(emailsIn('cls-chm-210-01')).not.toContain(yukiEmail);
    expect(emailsIn('cls-lit-300-01')).toEqual(
      expect.arrayContaining([`sean.obrien@students.${domain}`, yukiEmail]),
    );
    // What the section gave went; what Yuki bought stayed; the drop is kept for billing.
    const kept = await database.db
      .select({ productId: ownerships.productId })
      .from(ownerships)
      .where(
        and(
          eq(ownerships.userId, yuki!.id),
          inArray(ownerships.productId, [bought, given]),
          isNull(ownerships.revokedAt),
        ),
      );
    expect(kept).toEqual([{ productId: bought }]);
    const drops = await database.db
      .select({ section: sectionMemberDrops.sectionId, source: sectionMemberDrops.source })
      .from(sectionMemberDrops)
      .where(eq(sectionMemberDrops.userId, yuki!.id));
    expect(drops).toEqual([{ section: chm!.id, source: 'roster' }]);

    // The same delta again changes nothing.
    const again = await importFolder(orgId, dir, false, now);
    expect(again.counts.enrollment).toMatchObject({ created: 0, updated: 0, ended: 0 });
    expect(await membersOf(orgId)).toEqual(after);
  });
});

/** The bulk fixture with some of its files' lines changed (header first; BOM and CRLF stay). */
function variant(domain: string, edit: Record<string, (lines: string[]) => string[]>): string {
  const dir = fixture('bulk', domain);
  for (const [file, change] of Object.entries(edit)) {
    const target = path.join(dir, file);
    const lines = readFileSync(target, 'utf8')
      .split('\r\n')
      .filter((l) => l !== '');
    writeFileSync(target, `${change(lines).join('\r\n')}\r\n`);
  }
  return dir;
}
const without =
  (...ids: string[]) =>
  (lines: string[]) =>
    lines.filter((l, n) => n === 0 || !ids.some((id) => l.includes(id)));

describe('issue 39: a course’s code and title round-trip byte for byte', () => {
  it('keeps courseCode as the campus wrote it, accents and CJK included, and shows it', async () => {
    const orgId = await organisation();
    const domain = `${unique('code')}.test`.toLowerCase();
    const title = `Économie — ${'é'.repeat(10)} 🎓 ${'x'.repeat(250)}`;
    const dir = variant(domain, {
      'courses.csv': (lines) => [
        ...lines,
        `crs-eco,,,ay-2027,"${title}",ÉCO-1001,,org-univ,,`,
        'crs-kagaku,,,ay-2027,化学入門,化学101,,org-univ,,',
        `crs-long,,,ay-2027,${'y'.repeat(301)},LNG 1,,org-univ,,`,
      ],
    });
    const first = await importFolder(orgId, dir);
    expect(first.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          file: 'courses.csv',
          sourcedId: 'crs-long',
          reason: 'ops.roster.line.tooLong',
          values: { column: 'title' },
        }),
      ]),
    );
    const rows = await database.db
      .select({
        sourcedId: courses.sourcedId,
        name: courses.name,
        code: courses.code,
        department: courses.department,
        number: courses.number,
      })
      .from(courses)
      .where(eq(courses.orgId, orgId))
      .orderBy(courses.sourcedId);
    expect(rows.map((r) => [r.sourcedId, r.name, r.code, courseCodeLabel(r)])).toEqual([
      ['crs-bio-101', 'Biology: Cells, Genes and Life', 'BIO 101', 'BIO 101'],
      ['crs-chm-210', 'Chimie organique', 'CHM-210', 'CHM-210'],
      ['crs-eco', title, 'ÉCO-1001', 'ÉCO-1001'],
      ['crs-kagaku', '化学入門', '化学101', '化学101'],
      ['crs-lit-300', '日本文学入門', 'JPN300', 'JPN300'],
    ]);
    expect(Buffer.from(rows[2]!.name, 'utf8').equals(Buffer.from(title, 'utf8'))).toBe(true);
    // Split for search all the same.
    expect(rows[1]).toMatchObject({ department: 'CHM', number: '210' });
    // The same package again changes nothing.
    const again = await importFolder(orgId, dir);
    expect(again.counts.course).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
  });
});

describe('issue 39: the opt-out deadline of a section the import creates', () => {
  const addDropOf = async (orgId: number) =>
    Object.fromEntries(
      (
        await database.db
          .select({ sourcedId: courseSections.sourcedId, addDropAt: courseSections.addDropAt })
          .from(courseSections)
          .innerJoin(courses, eq(courses.id, courseSections.courseId))
          .where(eq(courses.orgId, orgId))
      ).map((s) => [s.sourcedId ?? '', s.addDropAt.toISOString()]),
    );

  it('is two weeks in when that is still to come; no report line', async () => {
    const orgId = await organisation();
    const result = await importFolder(
      orgId,
      fixture('bulk', `${unique('dl')}.test`.toLowerCase()),
      false,
      new Date('2026-12-06T15:00:00Z'),
    );
    expect(result.lines.filter((l) => l.kind === 'warning')).toEqual([]);
    expect((await addDropOf(orgId))['cls-bio-101-01']).toBe('2027-01-26T04:59:59.000Z');
  });

  it('is never already past: weeks into the term it is two weeks from the import, and the dry run says so', async () => {
    const orgId = await organisation();
    const dir = fixture('bulk', `${unique('dl')}.test`.toLowerCase());
    // 20 February 2027: the spring term began on 11 January.
    const now = new Date('2027-02-20T15:00:00Z');
    const preview = await importFolder(orgId, dir, true, now);
    const warnings = preview.lines.filter((l) => l.kind === 'warning');
    expect(warnings.map((l) => [l.file, l.sourcedId, l.reason, l.values])).toEqual([
      ['classes.csv', 'cls-bio-101-01', 'ops.roster.line.optOut.moved', { date: '2027-03-06' }],
      ['classes.csv', 'cls-chm-210-01', 'ops.roster.line.optOut.moved', { date: '2027-03-06' }],
      ['classes.csv', 'cls-lit-300-01', 'ops.roster.line.optOut.moved', { date: '2027-03-06' }],
    ]);
    const applied = await importFolder(orgId, dir, false, now);
    expect(applied.lines.filter((l) => l.kind === 'warning')).toEqual(warnings);
    const deadlines = await addDropOf(orgId);
    for (const at of Object.values(deadlines)) {
      expect(at).toBe('2027-03-07T04:59:59.000Z');
      expect(Date.parse(at)).toBeGreaterThan(now.getTime());
    }
    // Known sections keep their deadline, and the report no longer mentions them.
    const again = await importFolder(orgId, dir, false, new Date('2027-04-01T15:00:00Z'));
    expect(again.lines.filter((l) => l.kind === 'warning')).toEqual([]);
    expect(await addDropOf(orgId)).toEqual(deadlines);
  });

  it('reports a section already over, whose deadline (its last day) has passed', async () => {
    const orgId = await organisation();
    const result = await importFolder(
      orgId,
      fixture('bulk', `${unique('dl')}.test`.toLowerCase()),
      false,
      new Date('2027-06-01T12:00:00Z'),
    );
    expect(
      result.lines.filter((l) => l.kind === 'warning').map((l) => [l.reason, l.values]),
    ).toEqual(Array(3).fill(['ops.roster.line.optOut.past', { date: '2027-05-14' }]));
  });
});

describe('issue 39: a bulk file is the whole set of its records', () => {
  it('ends the terms, sections, people and enrolments it no longer names; keeps purchases and what came from elsewhere', async () => {
    const orgId = await organisation();
    const domain = `${unique('bulk')}.test`.toLowerCase();
    const now = new Date('2026-12-06T15:00:00Z');
    await importFolder(
      orgId,
      variant(domain, {
        'academicSessions.csv': (lines) => [
          ...lines,
          'fa-2026,,,Fall 2026,semester,2026-08-24,2026-12-18,ay-2027,2027',
        ],
      }),
      false,
      now,
    );
    const [yuki] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, `yuki.tanaka@students.${domain}`));
    const sectionOf = async (sourcedId: string) =>
      (
        await database.db
          .select({ id: courseSections.id, endedAt: courseSections.endedAt })
          .from(courseSections)
          .innerJoin(courses, eq(courses.id, courseSections.courseId))
          .where(and(eq(courses.orgId, orgId), eq(courseSections.sourcedId, sourcedId)))
      )[0]!;
    const chm = await sectionOf('cls-chm-210-01');
    const bought = await insertProduct(database.db);
    const given = await insertProduct(database.db);
    await database.db.insert(ownerships).values([
      { userId: yuki!.id, productId: bought, source: 'purchase', courseSectionId: chm.id },
      { userId: yuki!.id, productId: given, source: 'course_fee', courseSectionId: chm.id },
    ]);
    // Staff made a section of a roster course in Course Manager; the LMS put a person in BIO 101.
    const [bioCourse] = await database.db
      .select({ id: courses.id })
      .from(courses)
      .where(and(eq(courses.orgId, orgId), eq(courses.sourcedId, 'crs-bio-101')));
    const [own] = await database.db
      .insert(courseSections)
      .values({
        courseId: bioCourse!.id,
        name: 'BIO 101, evening',
        rsCourseId: unique('manual'),
        startDate: '2027-01-11',
        endDate: '2027-05-14',
        addDropAt: new Date('2027-01-26T04:59:59Z'),
        timeZone: 'America/New_York',
      })
      .returning({ id: courseSections.id });
    const [lmsPerson] = await database.db
      .insert(users)
      .values({ email: `lms.person@${domain}`, firstName: 'L', lastName: 'MS' })
      .returning({ id: users.id });
    const bio = await sectionOf('cls-bio-101-01');
    await database.db.insert(sectionMembers).values({
      sectionId: bio.id,
      userId: lmsPerson!.id,
      role: 'student',
      addDropDate: new Date('2027-01-26T04:59:59Z'),
      rsCoursememberId: unique('lms'),
    });

    // The next bulk package no longer names Fall 2026, LIT 300's class, or Yuki.
    const next = variant(domain, {
      'classes.csv': without('cls-lit-300-01'),
      'users.csv': without('usr-003'),
      'roles.csv': without('role-003'),
      'enrollments.csv': without('usr-003', 'cls-lit-300-01'),
    });
    const preview = await importFolder(orgId, next, true, now);
    expect(preview.counts.term).toMatchObject({ ended: 1 });
    expect(preview.counts.class).toMatchObject({ ended: 1 });
    expect(preview.counts.user).toMatchObject({ ended: 1 });
    expect(preview.counts.role).toMatchObject({ ended: 1 });
    expect(preview.counts.enrollment).toMatchObject({ ended: 3 });
    expect((await sectionOf('cls-lit-300-01')).endedAt).toBeNull();

    const applied = await importFolder(orgId, next, false, now);
    expect(applied.counts).toEqual(preview.counts);
    expect((await sectionOf('cls-lit-300-01')).endedAt).not.toBeNull();
    const [fall] = await database.db
      .select({ endedAt: academicTerms.endedAt })
      .from(academicTerms)
      .where(and(eq(academicTerms.orgId, orgId), eq(academicTerms.sourcedId, 'fa-2026')));
    expect(fall!.endedAt).not.toBeNull();
    // Yuki keeps her account and what she bought; what the sections gave went.
    const yukiMembers = await database.db
      .select({ id: sectionMembers.id })
      .from(sectionMembers)
      .where(eq(sectionMembers.userId, yuki!.id));
    expect(yukiMembers).toEqual([]);
    const kept = await database.db
      .select({ productId: ownerships.productId })
      .from(ownerships)
      .where(
        and(
          eq(ownerships.userId, yuki!.id),
          inArray(ownerships.productId, [bought, given]),
          isNull(ownerships.revokedAt),
        ),
      );
    expect(kept).toEqual([{ productId: bought }]);
    // What did not come from the roster stays.
    const [ownAfter] = await database.db
      .select({ endedAt: courseSections.endedAt })
      .from(courseSections)
      .where(eq(courseSections.id, own!.id));
    expect(ownAfter!.endedAt).toBeNull();
    expect((await membersOf(orgId)).filter((m) => m.email === `lms.person@${domain}`)).toHaveLength(
      1,
    );
    // The same package again changes nothing.
    const again = await importFolder(orgId, next, false, now);
    for (const kind of ['term', 'course', 'class', 'user', 'role', 'enrollment'] as const) {
      expect(again.counts[kind]).toMatchObject({ created: 0, updated: 0, ended: 0 });
    }
  });

  it('ends nothing a file does not name when one of its rows could not be read; a refused row keeps its record', async () => {
    const orgId = await organisation();
    const domain = `${unique('bulk')}.test`.toLowerCase();
    const now = new Date('2026-12-06T15:00:00Z');
    await importFolder(orgId, fixture('bulk', domain), false, now);
    const next = variant(domain, {
      // A row cut short (no sourcedId can be trusted) and LIT 300's class gone.
      'classes.csv': (lines) => [...without('cls-lit-300-01')(lines), 'cls-broken,,'],
      // Enrolment 2 with a bad date: refused, and not ended for it; enrolment 6 gone.
      'enrollments.csv': (lines) =>
        without('enr-6,')(lines).map((l) =>
          l.startsWith('enr-2,')
            ? 'enr-2,,,cls-bio-101-01,org-univ,usr-002,student,,2027-13-01,'
            : l,
        ),
    });
    const result = await importFolder(orgId, next, false, now);
    expect(result.counts.class).toMatchObject({ ended: 0 });
    expect(result.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          file: 'classes.csv',
          kind: 'warning',
          reason: 'ops.roster.line.bulkEndsSkipped',
        }),
        expect.objectContaining({ file: 'enrollments.csv', sourcedId: 'enr-2', kind: 'refused' }),
      ]),
    );
    expect(result.counts.enrollment).toMatchObject({ ended: 1 });
    const members = await membersOf(orgId);
    expect(members.map((m) => `${m.section} ${m.email}`)).toContain(
      `cls-bio-101-01 sean.obrien@students.${domain}`,
    );
    expect(members.map((m) => `${m.section} ${m.email}`)).not.toContain(
      `cls-lit-300-01 yuki.tanaka@students.${domain}`,
    );
  });
});
