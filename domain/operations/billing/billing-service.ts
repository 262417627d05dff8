import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { users } from '#db/schema/accounts.ts';
import { billingCharges, billingMappings, billingRuns } from '#db/schema/billing.ts';
import { academicTerms, courseSections, courses } from '#db/schema/courses.ts';
import { organizations } from '#db/schema/sites.ts';
import { courseCodeLabel } from '#domain/courses/course-code.ts';
import {
  billingOpen,
  courseFeeChargeCents,
  dropPeriodEnd,
  dropStillChargedCents,
} from '#domain/courses/course-fee-billing.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, NotFound } from '#domain/shared/errors.ts';
import { type AuditActor, recordAudit } from '../audit.ts';
import { inOrgScope, type OrgScope } from '../staff-scope.ts';
import {
  type BillingTerm,
  billingColumnsOf,
  billingFacts,
  billingTermOf,
} from './billing-facts.ts';
import {
  BILLING_CURRENCY,
  type BillingLine,
  billingRunLines,
  linesFingerprint,
  type RunLines,
  runTotals,
} from './billing-lines.ts';
import { type BillingColumn, chargeFile, chargeFileName, headerLine } from './charge-file.ts';
import { type ExpectedCharge, type Reconciliation, reconcile } from './reconciliation.ts';

/**
 * Issue 39, billing the bursar (decision 037). Each charge is billed once: a final run takes a
 * transaction-scoped advisory lock on its organisation, computes the lines again from the
 * database, and writes its charges, credits and file in one transaction; the ledger's unique
 * keys refuse a second charge of a (section, student) or a second credit of a charge even if
 * the lock were bypassed. A preview writes nothing.
 */

export type TermSummary = {
  id: number;
  orgId: number;
  orgTitle: string;
  title: string;
  startDate: string;
  runs: number;
};

/** The terms the staff member may bill, newest first. */
export async function billingTerms(rc: RequestContext, scope: OrgScope): Promise<TermSummary[]> {
  if (scope.kind === 'orgs' && scope.orgIds.length === 0) return [];
  return rc.db
    .select({
      id: academicTerms.id,
      orgId: academicTerms.orgId,
      orgTitle: organizations.title,
      title: academicTerms.title,
      startDate: academicTerms.startDate,
      runs: sql<number>`(select count(*)::int from billing_runs r where r.term_id = "academic_terms"."id")`,
    })
    .from(academicTerms)
    .innerJoin(organizations, eq(organizations.id, academicTerms.orgId))
    .where(scope.kind === 'all' ? undefined : inArray(academicTerms.orgId, [...scope.orgIds]))
    .orderBy(desc(academicTerms.startDate), academicTerms.title)
    .limit(500);
}

export type RunSummary = {
  id: number;
  sequence: number;
  createdAt: Date;
  createdByLabel: string;
  chargeCount: number;
  creditCount: number;
  totalCents: number;
  currency: string;
  fileName: string;
};

export type ChargeSummary = {
  id: number;
  sequence: number;
  campusId: string;
  name: string;
  place: string;
  amountCents: number;
  refundedAt: Date | null;
  credited: boolean;
};

export type TermBilling = {
  term: BillingTerm;
  preview: RunLines & { fingerprint: string; totals: ReturnType<typeof runTotals> };
  runs: RunSummary[];
  charges: ChargeSummary[];
  columns: BillingColumn[];
  currency: string;
};

/** The term's page: the next run's preview (nothing written), the runs made, the charges. */
export async function termBilling(
  rc: RequestContext,
  scope: OrgScope,
  termId: number,
): Promise<TermBilling> {
  const term = await billingTermOf(rc.db, scope, termId);
  const facts = await billingFacts(rc.db, term);
  const lines = billingRunLines({ ...facts, now: rc.now });
  const [runs, charges, columns] = await Promise.all([
    rc.db
      .select({
        id: billingRuns.id,
        sequence: billingRuns.sequence,
        createdAt: billingRuns.createdAt,
        createdByLabel: billingRuns.createdByLabel,
        chargeCount: billingRuns.chargeCount,
        creditCount: billingRuns.creditCount,
        totalCents: billingRuns.totalCents,
        currency: billingRuns.currency,
        fileName: billingRuns.fileName,
      })
      .from(billingRuns)
      .where(eq(billingRuns.termId, term.id))
      .orderBy(desc(billingRuns.sequence)),
    rc.db
      .select({
        id: billingCharges.id,
        sequence: billingRuns.sequence,
        campusId: billingCharges.campusId,
        firstName: users.firstName,
        lastName: users.lastName,
        department: courses.department,
        number: courses.number,
        code: courses.code,
        sectionNumber: courseSections.number,
        sectionName: courseSections.name,
        amountCents: billingCharges.amountCents,
        refundedAt: billingCharges.refundedAt,
        credited: sql<boolean>`exists (select 1 from billing_charges c where c.reverses_charge_id = "billing_charges"."id")`,
      })
      .from(billingCharges)
      .innerJoin(billingRuns, eq(billingRuns.id, billingCharges.runId))
      .innerJoin(users, eq(users.id, billingCharges.userId))
      .innerJoin(courseSections, eq(courseSections.id, billingCharges.sectionId))
      .innerJoin(courses, eq(courses.id, courseSections.courseId))
      .where(and(eq(billingCharges.termId, term.id), eq(billingCharges.kind, 'charge')))
      .orderBy(courses.department, courses.number, billingCharges.campusId)
      .limit(5000),
    billingColumnsOf(rc.db, term.orgId),
  ]);
  return {
    term,
    preview: {
      ...lines,
      fingerprint: linesFingerprint(lines.lines),
      totals: runTotals(lines.lines),
    },
    runs,
    charges: charges.map((c) => ({
      id: c.id,
      sequence: c.sequence,
      campusId: c.campusId,
      name: `${c.firstName} ${c.lastName}`.trim(),
      place: `${courseCodeLabel(c)} ${c.sectionNumber ?? c.sectionName}`,
      amountCents: c.amountCents,
      refundedAt: c.refundedAt,
      credited: c.credited,
    })),
    columns,
    currency: BILLING_CURRENCY,
  };
}

export type FinaliseOutcome =
  | { kind: 'final'; runId: number; sequence: number }
  | { kind: 'nothingNew' }
  | { kind: 'changed' };

/**
 * "Finalise run": the lines staff previewed (their fingerprint) become charges, credits and a
 * stored file, in one transaction. Nothing new: no run, no file. Lines that changed since the
 * preview: nothing written, staff look again.
 */
export async function finaliseBillingRun(
  rc: RequestContext,
  scope: OrgScope,
  actor: AuditActor,
  input: { termId: number; fingerprint: string; describe: (line: BillingLine) => string },
): Promise<FinaliseOutcome> {
  const term = await billingTermOf(rc.db, scope, input.termId);
  return rc.db.transaction(async (tx): Promise<FinaliseOutcome> => {
    // One run at a time per organisation: the sequence stays gapless, a second run waits and
    // then finds everything billed.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext('billing_run'), ${term.orgId}::int)`,
    );
    const facts = await billingFacts(tx, term);
    const { lines } = billingRunLines({ ...facts, now: rc.now });
    if (lines.length === 0) return { kind: 'nothingNew' };
    if (linesFingerprint(lines) !== input.fingerprint) return { kind: 'changed' };
    const [last] = await tx
      .select({ sequence: sql<number>`coalesce(max(${billingRuns.sequence}), 0)::int` })
      .from(billingRuns)
      .where(eq(billingRuns.orgId, term.orgId));
    const sequence = (last?.sequence ?? 0) + 1;
    const columns = await billingColumnsOf(tx, term.orgId);
    const fileText = chargeFile(columns, lines, {
      termTitle: term.title,
      currency: BILLING_CURRENCY,
      describe: input.describe,
    });
    const totals = runTotals(lines);
    const [run] = await tx
      .insert(billingRuns)
      .values({
        orgId: term.orgId,
        termId: term.id,
        sequence,
        createdByUserId: actor.userId,
        createdByLabel: actor.label.slice(0, 300),
        createdAt: rc.now,
        chargeCount: totals.chargeCount,
        creditCount: totals.creditCount,
        totalCents: totals.totalCents,
        currency: BILLING_CURRENCY,
        fileName: chargeFileName({ termTitle: term.title, sequence }),
        fileText,
        fileSha256: createHash('sha256').update(fileText, 'utf8').digest('hex'),
      })
      .returning({ id: billingRuns.id });
    const rows = lines.map((line) => ({
      orgId: term.orgId,
      termId: term.id,
      sectionId: line.sectionId,
      userId: line.userId,
      runId: run!.id,
      kind: line.kind,
      amountCents: line.amountCents,
      currency: BILLING_CURRENCY,
      campusId: line.campusId,
      reversesChargeId: line.reversesChargeId,
      creditReason: line.creditReason,
      createdAt: rc.now,
    }));
    const written = await tx
      .insert(billingCharges)
      .values(rows)
      .onConflictDoNothing()
      .returning({ id: billingCharges.id });
    // Under the lock this cannot happen; if it ever does, nothing of this run is kept.
    if (written.length !== rows.length) throw new Conflict('ops.billing.error.alreadyBilled');
    await recordAudit(
      tx,
      actor,
      {
        orgId: term.orgId,
        objectType: 'term',
        objectId: term.id,
        action: 'billing.run',
        after: {
          sequence,
          charges: totals.chargeCount,
          credits: totals.creditCount,
          totalCents: totals.totalCents,
          currency: BILLING_CURRENCY,
        },
      },
      rc.now,
    );
    return { kind: 'final', runId: run!.id, sequence };
  });
}

/** A run's file, exactly as it was made. */
export async function billingRunFile(
  rc: RequestContext,
  scope: OrgScope,
  runId: number,
): Promise<{ fileName: string; fileText: string; sha256: string }> {
  const [run] = await rc.db
    .select({
      orgId: billingRuns.orgId,
      fileName: billingRuns.fileName,
      fileText: billingRuns.fileText,
      sha256: billingRuns.fileSha256,
    })
    .from(billingRuns)
    .where(eq(billingRuns.id, runId));
  if (!run || !inOrgScope(scope, run.orgId)) throw new NotFound();
  return run;
}

export type ChargeView = ChargeSummary & {
  orgId: number;
  termId: number;
  termTitle: string;
  creditReason: string | null;
  refundReason: string | null;
};

export async function billingCharge(
  rc: RequestContext,
  scope: OrgScope,
  chargeId: number,
): Promise<ChargeView> {
  const [row] = await rc.db
    .select({
      id: billingCharges.id,
      orgId: billingCharges.orgId,
      termId: billingCharges.termId,
      termTitle: academicTerms.title,
      sequence: billingRuns.sequence,
      campusId: billingCharges.campusId,
      firstName: users.firstName,
      lastName: users.lastName,
      department: courses.department,
      number: courses.number,
      code: courses.code,
      sectionNumber: courseSections.number,
      sectionName: courseSections.name,
      amountCents: billingCharges.amountCents,
      refundedAt: billingCharges.refundedAt,
      refundReason: billingCharges.refundReason,
      creditReason: sql<
        string | null
      >`(select c.credit_reason from billing_charges c where c.reverses_charge_id = "billing_charges"."id")`,
    })
    .from(billingCharges)
    .innerJoin(billingRuns, eq(billingRuns.id, billingCharges.runId))
    .innerJoin(academicTerms, eq(academicTerms.id, billingCharges.termId))
    .innerJoin(users, eq(users.id, billingCharges.userId))
    .innerJoin(courseSections, eq(courseSections.id, billingCharges.sectionId))
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .where(and(eq(billingCharges.id, chargeId), eq(billingCharges.kind, 'charge')));
  if (!row || !inOrgScope(scope, row.orgId)) throw new NotFound();
  return {
    id: row.id,
    orgId: row.orgId,
    termId: row.termId,
    termTitle: row.termTitle,
    sequence: row.sequence,
    campusId: row.campusId,
    name: `${row.firstName} ${row.lastName}`.trim(),
    place: `${courseCodeLabel(row)} ${row.sectionNumber ?? row.sectionName}`,
    amountCents: row.amountCents,
    refundedAt: row.refundedAt,
    refundReason: row.refundReason,
    credited: row.creditReason !== null,
    creditReason: row.creditReason,
  };
}

export type RefundOutcome =
  | { ok: true }
  | { ok: false; problem: 'ops.billing.refund.error.already' };

/** The campus refunded this charge: the next run credits it. Once. */
export async function markChargeRefunded(
  rc: RequestContext,
  scope: OrgScope,
  actor: AuditActor,
  input: { chargeId: number; reason: string },
): Promise<RefundOutcome> {
  const charge = await billingCharge(rc, scope, input.chargeId);
  return rc.db.transaction(async (tx): Promise<RefundOutcome> => {
    const marked = await tx
      .update(billingCharges)
      .set({ refundedAt: rc.now, refundReason: input.reason })
      .where(
        and(
          eq(billingCharges.id, charge.id),
          isNull(billingCharges.refundedAt),
          sql`not exists (select 1 from billing_charges c where c.reverses_charge_id = "billing_charges"."id")`,
        ),
      )
      .returning({ id: billingCharges.id });
    if (marked.length === 0) return { ok: false, problem: 'ops.billing.refund.error.already' };
    await recordAudit(
      tx,
      actor,
      {
        orgId: charge.orgId,
        objectType: 'billing_charge',
        objectId: charge.id,
        action: 'refund',
        before: { refunded: false },
        after: { refunded: true },
        reason: input.reason,
      },
      rc.now,
    );
    return { ok: true };
  });
}

/** The organisation whose columns these are, when in scope; else not found. */
export async function billingMapping(
  rc: RequestContext,
  scope: OrgScope,
  orgId: number,
): Promise<{ orgId: number; orgTitle: string; columns: BillingColumn[]; header: string }> {
  const [org] = await rc.db
    .select({ id: organizations.id, title: organizations.title })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  if (!org || !inOrgScope(scope, org.id)) throw new NotFound();
  const columns = await billingColumnsOf(rc.db, org.id);
  return { orgId: org.id, orgTitle: org.title, columns, header: headerLine(columns) };
}

/** Saves the campus's columns (checked by checkMapping), audited with the header before → after. */
export async function saveBillingMapping(
  rc: RequestContext,
  scope: OrgScope,
  actor: AuditActor,
  input: { orgId: number; columns: readonly BillingColumn[] },
): Promise<void> {
  const before = await billingMapping(rc, scope, input.orgId);
  const after = headerLine(input.columns);
  if (after === before.header && JSON.stringify(before.columns) === JSON.stringify(input.columns))
    return;
  await rc.db.transaction(async (tx) => {
    await tx
      .insert(billingMappings)
      .values({ orgId: input.orgId, columns: [...input.columns], updatedAt: rc.now })
      .onConflictDoUpdate({
        target: billingMappings.orgId,
        set: { columns: [...input.columns], updatedAt: rc.now },
      });
    await recordAudit(
      tx,
      actor,
      {
        orgId: input.orgId,
        objectType: 'billing_mapping',
        objectId: input.orgId,
        action: 'update',
        before: { columns: before.columns.map((c) => `${c.field}=${c.header}`).join('; ') },
        after: { columns: input.columns.map((c) => `${c.field}=${c.header}`).join('; ') },
      },
      rc.now,
    );
  });
}

/** Billed (net) vs expected now vs paid (when the campus's file is given), by student. */
export async function termReconciliation(
  rc: RequestContext,
  scope: OrgScope,
  termId: number,
  paid: ReadonlyMap<string, number> | null,
): Promise<{ term: BillingTerm; reconciliation: Reconciliation }> {
  const term = await billingTermOf(rc.db, scope, termId);
  const facts = await billingFacts(rc.db, term);
  const sections = new Map(facts.sections.map((s) => [s.sectionId, s]));
  const expected: ExpectedCharge[] = [];
  const current = new Set(facts.members.map((m) => `${m.sectionId}:${m.userId}`));
  for (const member of facts.members) {
    const section = sections.get(member.sectionId)!;
    if (!billingOpen(section.addDropAt, rc.now) || !billingOpen(member.addDropDate, rc.now))
      continue;
    const cents = courseFeeChargeCents({ ...member, courseFeeCents: section.courseFeeCents });
    if (cents !== null) expected.push({ ...member, ...section, cents });
  }
  const latest = new Map<string, (typeof facts.drops)[number]>();
  for (const drop of facts.drops) {
    const key = `${drop.sectionId}:${drop.userId}`;
    if (current.has(key)) continue;
    const seen = latest.get(key);
    if (!seen || seen.droppedAt < drop.droppedAt) latest.set(key, drop);
  }
  for (const drop of latest.values()) {
    const section = sections.get(drop.sectionId)!;
    const cents = dropStillChargedCents({
      member: { ...drop, courseFeeCents: section.courseFeeCents },
      droppedAt: drop.droppedAt,
      optOutDeadline: section.addDropAt,
      dropPeriodEnd: dropPeriodEnd(section),
    });
    if (cents !== null) expected.push({ ...drop, ...section, cents });
  }
  const people = new Map([...facts.drops, ...facts.members].map((p) => [p.userId, p.name]));
  const billed = facts.charges.map((c) => ({
    ...sections.get(c.sectionId)!,
    userId: c.userId,
    campusId: c.campusId,
    name: people.get(c.userId) ?? '',
    cents: c.netCents,
  }));
  return { term, reconciliation: reconcile({ expected, billed, paid }) };
}
