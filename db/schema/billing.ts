import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { academicTerms, courseSections } from './courses.ts';
import { organizations } from './sites.ts';

// Issue 39, billing the bursar (decision 037): the charge files sent to a campus's
// student-information system, the ledger of what each one billed, and the campus's columns.

/** One column of a campus's charge file: which of our fields, under which header. */
export type BillingColumn = { field: string; header: string };

// The campus's columns, headers and order (one row per organisation; none: the default).
export const billingMappings = pgTable('billing_mappings', {
  orgId: integer()
    .primaryKey()
    .references(() => organizations.id),
  columns: jsonb().$type<BillingColumn[]>().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

// A final billing run: its file, numbered per organisation without gaps, stored byte for byte
// so that a download is the same file forever. A preview is computed and never stored.
export const billingRuns = pgTable(
  'billing_runs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orgId: integer()
      .notNull()
      .references(() => organizations.id),
    termId: integer()
      .notNull()
      .references(() => academicTerms.id),
    sequence: integer().notNull(),
    createdByUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdByLabel: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    chargeCount: integer().notNull(),
    creditCount: integer().notNull(),
    // Net of credits, integer cents in `currency`.
    totalCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    fileName: text().notNull(),
    fileText: text().notNull(),
    fileSha256: text().notNull(),
  },
  (t) => [
    uniqueIndex('billing_runs_org_sequence').on(t.orgId, t.sequence),
    index('billing_runs_term').on(t.termId, t.sequence),
    check('billing_runs_sequence', sql`${t.sequence} >= 1`),
    check('billing_runs_currency', sql`${t.currency} = 'USD'`),
  ],
);

// The ledger: one charge per (section, student), ever; a credit reverses one charge, once.
export const billingCharges = pgTable(
  'billing_charges',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orgId: integer()
      .notNull()
      .references(() => organizations.id),
    termId: integer()
      .notNull()
      .references(() => academicTerms.id),
    sectionId: integer()
      .notNull()
      .references(() => courseSections.id),
    userId: integer()
      .notNull()
      .references(() => users.id),
    runId: integer()
      .notNull()
      .references(() => billingRuns.id),
    // 'charge' (the course fee) or 'credit' (a charge given back in a later file).
    kind: text().notNull(),
    // Positive for a charge, negative for a credit; integer cents in `currency`.
    amountCents: integer().notNull(),
    currency: text().notNull(),
    // The campus id as the file named the student (kept: a later change does not rewrite it).
    campusId: text().notNull(),
    reversesChargeId: integer().references((): AnyPgColumn => billingCharges.id),
    // Why a credit: 'drop' (within the add/drop period) or 'refund' (the campus refunded it).
    creditReason: text(),
    // Staff marked the charge refunded by the campus; the next run credits it.
    refundedAt: timestamp({ withTimezone: true }),
    refundReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_charges_once').on(t.sectionId, t.userId).where(sql`${t.kind} = 'charge'`),
    uniqueIndex('billing_charges_credit_once').on(t.reversesChargeId),
    index('billing_charges_term').on(t.termId, t.userId),
    index('billing_charges_run').on(t.runId),
    check('billing_charges_kind', sql`${t.kind} in ('charge', 'credit')`),
    check(
      'billing_charges_sign',
      sql`(${t.kind} = 'charge' and ${t.amountCents} > 0 and ${t.reversesChargeId} is null and ${t.creditReason} is null)
        or (${t.kind} = 'credit' and ${t.amountCents} < 0 and ${t.reversesChargeId} is not null and ${t.creditReason} in ('drop', 'refund'))`,
    ),
    check('billing_charges_currency', sql`${t.currency} = 'USD'`),
    check(
      'billing_charges_refund_reason',
      sql`${t.refundReason} is null or length(${t.refundReason}) <= 1000`,
    ),
  ],
);
