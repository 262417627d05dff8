import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { products } from './catalog.ts';
import { courseSections } from './courses.ts';

// An instructor's notes to one section's classroom (issue 14, Classroom; decision 018): short
// plain text, newest first. Written only by domain/access (the classroom).
export const classroomNotes = pgTable(
  'classroom_notes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sectionId: integer()
      .notNull()
      .references(() => courseSections.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id),
    authorUserId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('classroom_notes_section_product').on(t.sectionId, t.productId, t.createdAt),
    // NOTE_MAX_LENGTH of domain/access/classroom-note.ts, in characters.
    check(
      'classroom_notes_body',
      sql`${t.body} = btrim(${t.body}) and char_length(${t.body}) between 1 and 500`,
    ),
  ],
);
