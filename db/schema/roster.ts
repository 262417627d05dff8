import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
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
import { organizations } from './sites.ts';

// Issue 39: a OneRoster 1.2 CSV package imported for one store organisation (decision 035). The
// row is the job (queued → running → previewed | done | refused | failed) and its report: the
// page follows its progress, the CLI and the page's worker take it with FOR UPDATE SKIP LOCKED.
// A running job holds a lease: its process beats `heartbeat_at`; a job whose heartbeat is stale
// lost its process and is taken over (run again from its package) by another.
export const rosterImports = pgTable(
  'roster_imports',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orgId: integer()
      .notNull()
      .references(() => organizations.id),
    status: text().notNull().default('queued'),
    // A dry run reads and compares, writes nothing but this report; applying it runs it again.
    dryRun: boolean().notNull(),
    source: text().notNull(),
    fileName: text().notNull(),
    // Where the package waits in the file store (a zip, or a folder of its CSV files).
    storagePath: text().notNull(),
    bytes: bigint({ mode: 'number' }).notNull(),
    startedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    // Who the audit names for the changes (through Switch Account, the manager acting as).
    actor: jsonb()
      .$type<{ userId: number | null; actingAsUserId: number | null; label: string }>()
      .notNull(),
    // The manifest's source.systemName, shown on the report.
    systemName: text(),
    // Rows read so far and rows the package holds, for the progress bar.
    progressDone: integer().notNull().default(0),
    progressTotal: integer().notNull().default(0),
    // Per kind of record: created, updated, ended, unchanged, refused, ignored.
    counts: jsonb().$type<Record<string, Record<string, number>>>().notNull().default({}),
    // Why the whole package was refused (a message key and its values).
    failure: text(),
    failureValues: jsonb().$type<Record<string, string | number>>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
    // The lease: raised by every claim, so a process that lost its job writes no more of it.
    lease: integer().notNull().default(0),
    // When the running job's process last said it is alive (the database's clock).
    heartbeatAt: timestamp({ withTimezone: true }),
    // How many times this run was taken over from a process that stopped.
    interruptions: integer().notNull().default(0),
  },
  (t) => [
    index('roster_imports_org').on(t.orgId, t.id),
    index('roster_imports_queued').on(t.status, t.id),
    check(
      'roster_imports_status',
      sql`${t.status} in ('queued', 'running', 'previewed', 'done', 'refused', 'failed')`,
    ),
    check('roster_imports_file_name', sql`length(${t.fileName}) <= 300`),
  ],
);

// A row of the package refused alone (or ignored), with its file, line and reason.
export const rosterImportLines = pgTable(
  'roster_import_lines',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    importId: integer()
      .notNull()
      .references(() => rosterImports.id, { onDelete: 'cascade' }),
    file: text().notNull(),
    line: integer().notNull(),
    sourcedId: text(),
    // 'refused', 'ignored' or 'warning' (written all the same; staff should look).
    kind: text().notNull(),
    reason: text().notNull(),
    reasonValues: jsonb().$type<Record<string, string | number>>(),
  },
  (t) => [index('roster_import_lines_import').on(t.importId, t.file, t.line)],
);

// What the campus last sent for each of its records, per organisation: the record's sourcedId
// (opaque, byte for byte), the row we made of it and a digest of what was sent, so that the
// same package imported twice changes nothing, and two campuses' equal ids never meet.
export const rosterRecords = pgTable(
  'roster_records',
  {
    orgId: integer()
      .notNull()
      .references(() => organizations.id),
    // 'term', 'course', 'class', 'user', 'enrollment'.
    kind: text().notNull(),
    sourcedId: text().notNull(),
    localId: integer().notNull(),
    digest: text().notNull(),
    // The account was made by the roster (its names follow the roster) or linked to it.
    createdLocal: boolean().notNull().default(false),
    endedAt: timestamp({ withTimezone: true }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('roster_records_key').on(t.orgId, t.kind, t.sourcedId),
    index('roster_records_local').on(t.kind, t.localId),
  ],
);
