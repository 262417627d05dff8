import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

// One run of the catalog import (issue 15): an ONIX feed, with or without book files, from the
// command line, the Admin page or the demo seed. Its counts are the report.
export const catalogImports = pgTable(
  'catalog_imports',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    source: text().notNull(),
    fileName: text().notNull(),
    startedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    status: text().notNull().default('running'),
    onixRelease: text(),
    senderName: text(),
    totalBytes: bigint({ mode: 'number' }),
    readBytes: bigint({ mode: 'number' }).notNull().default(0),
    records: integer().notNull().default(0),
    created: integer().notNull().default(0),
    updated: integer().notNull().default(0),
    unchanged: integer().notNull().default(0),
    withdrawn: integer().notNull().default(0),
    refused: integer().notNull().default(0),
    filesAttached: integer().notNull().default(0),
    filesRefused: integer().notNull().default(0),
    // Why the whole feed was refused or stopped (a message key and its values).
    failure: text(),
    failureValues: jsonb().$type<Record<string, string | number>>(),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // Moves with every batch: a running import that stopped moving died with its process.
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('catalog_imports_started').on(t.startedAt.desc()),
    check('catalog_imports_source', sql`${t.source} in ('cli', 'admin', 'seed')`),
    check('catalog_imports_status', sql`${t.status} in ('running', 'done', 'failed')`),
  ],
);

// A record (or a book file) the import refused, with a plain reason as a message key.
export const catalogImportRefusals = pgTable(
  'catalog_import_refusals',
  {
    importId: integer()
      .notNull()
      .references(() => catalogImports.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    // 'record' for an ONIX product, 'file' for a book file or cover.
    kind: text().notNull().default('record'),
    reference: text(),
    line: integer(),
    reason: text().notNull(),
    reasonValues: jsonb().$type<Record<string, string | number>>(),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.position] }),
    check('catalog_import_refusals_kind', sql`${t.kind} in ('record', 'file')`),
  ],
);
