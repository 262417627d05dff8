import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { bookFiles, products } from './catalog.ts';
import { courseSections } from './courses.ts';

// The reading context (docs/decisions/008-reader.md): where each reader is in each book, what
// it opened, and how much of a book's copy and print allowance it has used.

// Where a user is in a book, on any device (issue 5): the part (EPUB spine item or PDF page,
// from 0) and how far through that part (0 to 1). One row per user and book; last write wins.
export const readingPositions = pgTable(
  'reading_positions',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    part: integer().notNull(),
    progression: doublePrecision().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    check('reading_positions_part', sql`${t.part} >= 0`),
    check('reading_positions_progression', sql`${t.progression} between 0 and 1`),
  ],
);

// How each user likes to read (issue 16): type size, font, spacing, margins, theme, pages or
// scrolling, the same on every device. Read through readerSettingsFrom, which keeps what is
// valid today and defaults the rest, so a setting added or removed later needs no migration.
export const readerSettings = pgTable('reader_settings', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  settings: jsonb().$type<Record<string, unknown>>().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

// A reader's highlights (with a colour, and a note if they wrote one) and bookmarks in a book
// (issue 16, study tools), on every device. Each is anchored in a part's text by a quote with
// its surroundings and the offsets it had (domain/reading/text-anchor.ts), so it is found
// again in a new printing of the book, or reported as lost.
export const readingAnnotations = pgTable(
  'reading_annotations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    colour: text(),
    note: text(),
    part: integer().notNull(),
    startOffset: integer().notNull(),
    endOffset: integer().notNull(),
    exact: text().notNull(),
    prefix: text().notNull().default(''),
    suffix: text().notNull().default(''),
    /**
     * The quote went out in an export of the reader's notes and was counted against the copy
     * allowance then (issue 16): exporting it again costs nothing.
     */
    quoteCounted: boolean().notNull().default(false),
    /**
     * The device's own name for a highlight made offline (issue 16): sent again after an answer
     * that never came, it is the same highlight, not a second one.
     */
    clientKey: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('reading_annotations_user_product').on(t.userId, t.productId),
    uniqueIndex('reading_annotations_client_key')
      .on(t.userId, t.clientKey)
      .where(sql`${t.clientKey} is not null`),
    check('reading_annotations_kind', sql`${t.kind} in ('highlight', 'bookmark')`),
    check(
      'reading_annotations_offsets',
      sql`${t.startOffset} >= 0 and ${t.endOffset} > ${t.startOffset}`,
    ),
  ],
);

// Every open of a book and every page a reader turns to: the basis of section analytics.
export const readingEvents = pgTable(
  'reading_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    part: integer(),
    // The section the book was opened from (/book/read/{id}/?course_id=…), when the reader is
    // a member of it.
    courseSectionId: integer().references(() => courseSections.id, { onDelete: 'set null' }),
    occurredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Section analytics: opens of one product by the section's students, latest first.
    index('reading_events_product_kind_user').on(t.productId, t.kind, t.userId, t.occurredAt),
    index('reading_events_user').on(t.userId, t.occurredAt),
    check('reading_events_kind', sql`${t.kind} in ('open', 'page')`),
    check('reading_events_part', sql`${t.part} is null or ${t.part} >= 0`),
  ],
);

// How much of a book a user has copied (characters) and printed (pages), against the book's
// copyPercentage and printAllowancePercent (spec 1 §3 drm). Raised by one statement that
// refuses to pass the limit, so concurrent requests can never exceed it together.
export const readingAllowances = pgTable(
  'reading_allowances',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    copiedCharacters: integer().notNull().default(0),
    printedPages: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    check(
      'reading_allowances_non_negative',
      sql`${t.copiedCharacters} >= 0 and ${t.printedPages} >= 0`,
    ),
  ],
);

// What the server measured in a reader file (its text length, pages, and the length of each
// part), once per file content: the DRM limits are shares of these, never of what a browser
// says. Recomputed when the file's sha256 changes.
export const bookFileMetrics = pgTable(
  'book_file_metrics',
  {
    bookFileId: integer()
      .primaryKey()
      .references(() => bookFiles.id, { onDelete: 'cascade' }),
    sha256: text().notNull(),
    textLength: integer().notNull(),
    pageCount: integer().notNull(),
    partLengths: integer().array().notNull(),
    computedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('book_file_metrics_non_negative', sql`${t.textLength} >= 0 and ${t.pageCount} >= 0`),
  ],
);
