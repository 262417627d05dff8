import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { billingCharges, billingRuns } from '#db/schema/billing.ts';
import { academicTerms, courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { auditEvents, campusPeople } from '#db/schema/operations.ts';
import { organizations } from '#db/schema/sites.ts';
import { endMembership } from '#domain/courses/membership.ts';
import { systemActor } from '#domain/operations/audit.ts';
import { PAID_UPLOAD_LIMIT_BYTES } from '#domain/operations/billing/billing-limits.ts';
import {
  billingRunFile,
  finaliseBillingRun,
  markChargeRefunded,
  saveBillingMapping,
  termBilling,
  termReconciliation,
} from '#domain/operations/billing/billing-service.ts';
import { reconcileWithPaidUpload } from '#domain/operations/billing/paid-upload.ts';
import type { OrgScope } from '#domain/operations/staff-scope.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 39, billing the bursar: each charge billed once, credits in the next file, files kept
// byte for byte, the campus's columns, scoped per organisation and audited.
let database: DatabaseHandle;
let uploads: string;
beforeAll(async () => {
  database = await openTestDatabase();
  uploads = await mkdtemp(path.join(tmpdir(), 'paid-upload-'));
});
afterAll(async () => {
  await database?.close();
  if (uploads) await rm(uploads, { recursive: true, force: true });
});

/** A paid file as the edge leaves it: streamed to a temporary file (server/upload-reader.ts). */
async function streamedUpload(name: string, bytes: Buffer | string) {
  const file = path.join(uploads, `${name}.part`);
  await writeFile(file, bytes);
  return { fileName: 'paid.csv', path: file, bytes: Buffer.byteLength(bytes) };
}
const gone = (file: string) =>
  access(file).then(
    () => false,
    () => true,
  );

const deadline = new Date('2026-09-08T04:00:00Z');
const dropEnd = new Date('2026-09-15T04:00:00Z');
const afterDeadline = new Date('2026-09-09T12:00:00Z');
const actor = systemActor('billing test');
const describeLine = (line: { kind: string; courseCode: string }) =>
  `${line.kind === 'charge' ? 'Course fee' : 'Credit'} ${line.courseCode}`;

async function campus(db: Queryable) {
  const [org] = await db
    .insert(organizations)
    .values({ title: unique('Campus') })
    .returning({ id: organizations.id });
  const [term] = await db
    .insert(academicTerms)
    .values({ orgId: org!.id, title: 'Fall 2026', startDate: '2026-08-25', endDate: '2026-12-15' })
    .returning({ id: academicTerms.id });
  const [course] = await db
    .insert(courses)
    .values({ orgId: org!.id, name: 'Biology', department: 'BIO', number: '101' })
    .returning({ id: courses.id });
  const section = async (number: string, addDropAt: Date) => {
    const [row] = await db
      .insert(courseSections)
      .values({
        courseId: course!.id,
        name: `BIO 101 - ${number}`,
        number,
        rsCourseId: unique('RS'),
        startDate: '2026-08-25',
        endDate: '2026-12-15',
        addDropAt,
        dropPeriodEndsAt: dropEnd,
        courseFeeCents: 7900,
        termId: term!.id,
      })
      .returning({ id: courseSections.id });
    return row!.id;
  };
  const billable = await section('001', deadline);
  const later = await section('002', new Date('2026-10-01T04:00:00Z'));
  const student = async (
    sectionId: number,
    campusId: string | null,
    optStatus: 'opted_in' | 'opted_out' = 'opted_in',
  ) => {
    const [user] = await db
      .insert(users)
      .values({
        email: `${unique('bill')}@example.test`,
        firstName: 'Ana',
        lastName: campusId ?? 'None',
      })
      .returning({ id: users.id });
    if (campusId)
      await db.insert(campusPeople).values({ orgId: org!.id, userId: user!.id, campusId });
    const [member] = await db
      .insert(sectionMembers)
      .values({
        sectionId,
        userId: user!.id,
        role: 'student',
        optStatus,
        isCourseFee: true,
        addDropDate: sectionId === billable ? deadline : new Date('2026-10-01T04:00:00Z'),
        rsCoursememberId: unique('EN'),
      })
      .returning({ id: sectionMembers.id });
    return { userId: user!.id, memberId: member!.id };
  };
  return { orgId: org!.id, termId: term!.id, billable, later, student };
}

const scopeOf = (orgId: number): OrgScope => ({ kind: 'orgs', orgIds: [orgId] });

async function finalise(db: Queryable, orgId: number, termId: number, now: Date) {
  const rc = testContext(db, { now });
  const view = await termBilling(rc, scopeOf(orgId), termId);
  return finaliseBillingRun(rc, scopeOf(orgId), actor, {
    termId,
    fingerprint: view.preview.fingerprint,
    describe: describeLine,
  });
}

describe('bursar billing (issue 39)', () => {
  it('bills the opted-in once, after the deadline, and a run again adds nothing', async () => {
    const db = database.db;
    const c = await campus(db);
    const a = await c.student(c.billable, 'S-A');
    await c.student(c.billable, 'S-B', 'opted_out');
    await c.student(c.billable, null);
    await c.student(c.later, 'S-C');

    // Before the deadline: the preview lists both sections as not yet billable; a run adds nothing.
    const early = await termBilling(
      testContext(db, { now: new Date('2026-09-01T00:00:00Z') }),
      scopeOf(c.orgId),
      c.termId,
    );
    expect(early.preview.lines).toEqual([]);
    expect(early.preview.waiting.map((w) => w.sectionLabel).sort()).toEqual(['001', '002']);
    expect(await finalise(db, c.orgId, c.termId, new Date('2026-09-01T00:00:00Z'))).toEqual({
      kind: 'nothingNew',
    });

    const preview = await termBilling(
      testContext(db, { now: afterDeadline }),
      scopeOf(c.orgId),
      c.termId,
    );
    expect(preview.preview.lines.map((l) => [l.campusId, l.amountCents])).toEqual([['S-A', 7900]]);
    expect(preview.preview.missingCampusId).toHaveLength(1);
    expect(preview.preview.waiting.map((w) => w.sectionLabel)).toEqual(['002']);
    // The preview wrote nothing.
    expect(
      await db.select().from(billingCharges).where(eq(billingCharges.termId, c.termId)),
    ).toEqual([]);

    const first = await finalise(db, c.orgId, c.termId, afterDeadline);
    expect(first).toMatchObject({ kind: 'final', sequence: 1 });
    expect(await finalise(db, c.orgId, c.termId, afterDeadline)).toEqual({ kind: 'nothingNew' });
    const charges = await db
      .select()
      .from(billingCharges)
      .where(eq(billingCharges.termId, c.termId));
    expect(charges).toMatchObject([
      { userId: a.userId, kind: 'charge', amountCents: 7900, currency: 'USD', campusId: 'S-A' },
    ]);

    const file = await billingRunFile(
      testContext(db),
      scopeOf(c.orgId),
      (first as { runId: number }).runId,
    );
    expect(file.fileName).toBe('charges-0001-Fall-2026.csv');
    expect(file.fileText).toBe(
      'Student ID,Amount,Currency,Term,Course,Section,Description,Type\r\n' +
        'S-A,79.00,USD,Fall 2026,BIO 101,001,Course fee BIO 101,charge\r\n',
    );
    const [audit] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectType, 'term'), eq(auditEvents.objectId, String(c.termId))));
    expect(audit).toMatchObject({
      action: 'billing.run',
      actorLabel: 'billing test',
      orgId: c.orgId,
      after: { sequence: 1, charges: 1, credits: 0, totalCents: 7900, currency: 'USD' },
    });
  });

  it('refuses a run whose lines changed since the preview, writing nothing', async () => {
    const db = database.db;
    const c = await campus(db);
    await c.student(c.billable, 'S-A');
    const rc = testContext(db, { now: afterDeadline });
    const view = await termBilling(rc, scopeOf(c.orgId), c.termId);
    await c.student(c.billable, 'S-B');
    expect(
      await finaliseBillingRun(rc, scopeOf(c.orgId), actor, {
        termId: c.termId,
        fingerprint: view.preview.fingerprint,
        describe: describeLine,
      }),
    ).toEqual({ kind: 'changed' });
    expect(await db.select().from(billingRuns).where(eq(billingRuns.termId, c.termId))).toEqual([]);
  });

  it('credits a drop within add/drop and a refund in the next file; a late drop gets none', async () => {
    const db = database.db;
    const c = await campus(db);
    const early = await c.student(c.billable, 'S-1');
    const late = await c.student(c.billable, 'S-2');
    const refunded = await c.student(c.billable, 'S-3');
    await finalise(db, c.orgId, c.termId, afterDeadline);

    await endMembership(db, actor, {
      memberId: early.memberId,
      at: new Date('2026-09-12T00:00:00Z'),
      source: 'roster',
    });
    await endMembership(db, actor, {
      memberId: late.memberId,
      at: new Date('2026-09-16T00:00:00Z'),
      source: 'roster',
    });
    const [charge] = await db
      .select({ id: billingCharges.id })
      .from(billingCharges)
      .where(eq(billingCharges.userId, refunded.userId));
    const rc = testContext(db, { now: new Date('2026-09-20T00:00:00Z') });
    expect(
      await markChargeRefunded(rc, scopeOf(c.orgId), actor, {
        chargeId: charge!.id,
        reason: 'Bursar refunded: withdrew',
      }),
    ).toEqual({ ok: true });
    expect(
      await markChargeRefunded(rc, scopeOf(c.orgId), actor, {
        chargeId: charge!.id,
        reason: 'again',
      }),
    ).toEqual({
      ok: false,
      problem: 'ops.billing.refund.error.already',
    });

    const second = await finalise(db, c.orgId, c.termId, new Date('2026-09-20T00:00:00Z'));
    expect(second).toMatchObject({ kind: 'final', sequence: 2 });
    const file = await billingRunFile(rc, scopeOf(c.orgId), (second as { runId: number }).runId);
    expect(file.fileText).toBe(
      'Student ID,Amount,Currency,Term,Course,Section,Description,Type\r\n' +
        'S-1,-79.00,USD,Fall 2026,BIO 101,001,Credit BIO 101,credit\r\n' +
        'S-3,-79.00,USD,Fall 2026,BIO 101,001,Credit BIO 101,credit\r\n',
    );
    expect(await finalise(db, c.orgId, c.termId, new Date('2026-09-21T00:00:00Z'))).toEqual({
      kind: 'nothingNew',
    });

    // Reconciliation: the late drop is still billed and still owed; nothing differs.
    const { reconciliation } = await termReconciliation(rc, scopeOf(c.orgId), c.termId, null);
    expect(reconciliation).toMatchObject({
      expectedCents: 7900 + 7900,
      billedCents: 7900,
      differences: [
        expect.objectContaining({
          campusId: 'S-3',
          reason: 'ops.billing.recon.reason.notBilled',
          expectedCents: 7900,
          billedCents: 0,
        }),
      ],
    });
    const [refundAudit] = await db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.objectType, 'billing_charge'),
          eq(auditEvents.objectId, String(charge!.id)),
        ),
      );
    expect(refundAudit).toMatchObject({ action: 'refund', reason: 'Bursar refunded: withdrew' });
  });

  it('lists each paid difference with the student, section and expected amount (walk of issue 39)', async () => {
    const db = database.db;
    const c = await campus(db);
    for (const id of ['RB1001', 'S000037', 'S000041', 'S000049']) await c.student(c.billable, id);
    await finalise(db, c.orgId, c.termId, afterDeadline);
    const { reconciliation } = await termReconciliation(
      testContext(db, { now: afterDeadline }),
      scopeOf(c.orgId),
      c.termId,
      new Map([
        ['RB1001', 7900],
        ['S000037', 2000],
        ['S999999', 7900],
      ]),
    );
    expect(reconciliation).toMatchObject({
      expectedCents: 4 * 7900,
      billedCents: 4 * 7900,
      paidCents: 7900 + 2000 + 7900,
    });
    expect(
      reconciliation.differences.map((d) => [
        d.campusId,
        d.name,
        d.place,
        d.expectedCents,
        d.billedCents,
        d.paidCents,
        d.reason,
      ]),
    ).toEqual([
      [
        'S000037',
        'Ana S000037',
        'BIO 101 001',
        7900,
        7900,
        2000,
        'ops.billing.recon.reason.paidDiffers',
      ],
      [
        'S000041',
        'Ana S000041',
        'BIO 101 001',
        7900,
        7900,
        0,
        'ops.billing.recon.reason.paidDiffers',
      ],
      [
        'S000049',
        'Ana S000049',
        'BIO 101 001',
        7900,
        7900,
        0,
        'ops.billing.recon.reason.paidDiffers',
      ],
      ['S999999', '', '', 0, 0, 7900, 'ops.billing.recon.reason.paidUnknown'],
    ]);
  });

  it("keeps each file byte for byte, numbered per campus, in the campus's columns", async () => {
    const db = database.db;
    const c = await campus(db);
    await c.student(c.billable, 'S-1');
    await saveBillingMapping(testContext(db), scopeOf(c.orgId), actor, {
      orgId: c.orgId,
      columns: [
        { field: 'campus_id', header: 'EMPLID' },
        { field: 'amount_cents', header: 'AMT_CENTS' },
        { field: 'line_type', header: 'TYPE' },
      ],
    });
    const run = await finalise(db, c.orgId, c.termId, afterDeadline);
    const runId = (run as { runId: number }).runId;
    const file = await billingRunFile(testContext(db), scopeOf(c.orgId), runId);
    expect(file.fileText).toBe('EMPLID,AMT_CENTS,TYPE\r\nS-1,7900,charge\r\n');
    // A later mapping does not rebuild an earlier file.
    await saveBillingMapping(testContext(db), scopeOf(c.orgId), actor, {
      orgId: c.orgId,
      columns: [
        { field: 'campus_id', header: 'ID' },
        { field: 'amount_decimal', header: 'Amount' },
      ],
    });
    expect(await billingRunFile(testContext(db), scopeOf(c.orgId), runId)).toEqual(file);
    const [audit] = await db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.objectType, 'billing_mapping'),
          eq(auditEvents.objectId, String(c.orgId)),
        ),
      );
    expect(audit).toMatchObject({ action: 'update' });
  });

  it("another campus's staff see none of it: not found, as for an unknown id", async () => {
    const db = database.db;
    const c = await campus(db);
    const other = await campus(db);
    await c.student(c.billable, 'S-1');
    const run = (await finalise(db, c.orgId, c.termId, afterDeadline)) as { runId: number };
    const rc = testContext(db, { now: afterDeadline });
    const foreign = scopeOf(other.orgId);
    await expect(termBilling(rc, foreign, c.termId)).rejects.toBeInstanceOf(NotFound);
    await expect(billingRunFile(rc, foreign, run.runId)).rejects.toBeInstanceOf(NotFound);
    await expect(
      finaliseBillingRun(rc, foreign, actor, {
        termId: c.termId,
        fingerprint: 'x',
        describe: describeLine,
      }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(
      saveBillingMapping(rc, foreign, actor, { orgId: c.orgId, columns: [] }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(termReconciliation(rc, foreign, c.termId, null)).rejects.toBeInstanceOf(NotFound);
  });

  it.runIf(process.env.DATABASE_URL)(
    'two runs started at once bill each charge once (PostgreSQL)',
    async () => {
      const db = database.db;
      const c = await campus(db);
      for (let i = 0; i < 20; i += 1) await c.student(c.billable, `S-${i}`);
      const outcomes = await Promise.all([
        finalise(db, c.orgId, c.termId, afterDeadline),
        finalise(db, c.orgId, c.termId, afterDeadline),
        finalise(db, c.orgId, c.termId, afterDeadline),
      ]);
      expect(outcomes.filter((o) => o.kind === 'final')).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === 'nothingNew')).toHaveLength(2);
      expect(
        await db.select().from(billingCharges).where(eq(billingCharges.termId, c.termId)),
      ).toHaveLength(20);
      expect(
        await db.select().from(billingRuns).where(eq(billingRuns.orgId, c.orgId)),
      ).toHaveLength(1);
    },
  );

  it('issue 39: the paid file is read from its streamed temporary file, compared, and deleted', async () => {
    const db = database.db;
    const c = await campus(db);
    await c.student(c.billable, 'S-1');
    await c.student(c.billable, 'S-2');
    expect(await finalise(db, c.orgId, c.termId, afterDeadline)).toMatchObject({ kind: 'final' });
    const rc = testContext(db, { now: afterDeadline });
    // Many lines, so the reader takes the file in several chunks.
    const filler = Array.from({ length: 20_000 }, (_, i) => `X-${i},0.00\r\n`).join('');
    const upload = await streamedUpload(
      'normal',
      `\uFEFFcampus_id,amount\r\nS-1,79.00\r\n"S-2",70.00\r\n${filler}`,
    );
    expect(upload.bytes).toBeGreaterThan(64 * 1024);
    const outcome = await reconcileWithPaidUpload(rc, scopeOf(c.orgId), c.termId, upload);
    expect(outcome).toMatchObject({
      ok: true,
      rows: 20_002,
      reconciliation: {
        billedCents: 15_800,
        paidCents: 14_900,
        differences: [
          expect.objectContaining({
            campusId: 'S-2',
            reason: 'ops.billing.recon.reason.paidDiffers',
            billedCents: 7900,
            paidCents: 7000,
          }),
        ],
      },
    });
    expect(await gone(upload.path)).toBe(true);

    // A line that never ends is refused as not CSV, without holding the file.
    const endless = await streamedUpload('endless', `campus_id,amount\n${'S'.repeat(200_000)}`);
    expect(await reconcileWithPaidUpload(rc, scopeOf(c.orgId), c.termId, endless)).toEqual({
      ok: false,
      status: 400,
      message: 'ops.billing.paid.error.malformed',
      line: 2,
    });
    expect(await gone(endless.path)).toBe(true);
  });

  it('issue 39: a paid file past the limit is a 413, unread; no file is a 400; both deleted', async () => {
    const db = database.db;
    const c = await campus(db);
    const rc = testContext(db, { now: afterDeadline });
    const big = await streamedUpload('big', Buffer.alloc(PAID_UPLOAD_LIMIT_BYTES + 1, 'x'));
    expect(await reconcileWithPaidUpload(rc, scopeOf(c.orgId), c.termId, big)).toEqual({
      ok: false,
      status: 413,
      message: 'ops.billing.paid.error.tooLarge',
    });
    expect(await gone(big.path)).toBe(true);
    const empty = await streamedUpload('empty', '');
    expect(await reconcileWithPaidUpload(rc, scopeOf(c.orgId), c.termId, empty)).toMatchObject({
      ok: false,
      status: 400,
      message: 'ops.billing.paid.error.noFile',
    });
    expect(await gone(empty.path)).toBe(true);
    // Another campus's term: not found before the file is read, and the file is deleted.
    const other = await streamedUpload('other', 'campus_id,amount\nS-1,1.00\n');
    await expect(
      reconcileWithPaidUpload(rc, scopeOf(c.orgId + 1_000_000), c.termId, other),
    ).rejects.toBeInstanceOf(NotFound);
    expect(await gone(other.path)).toBe(true);
  });
});
