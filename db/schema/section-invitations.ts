import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { courseSections } from './courses.ts';

// Issue 20: a place the bookstore kept in a section for an address that has no account yet.
// The account that proves that address (sign-up's link, a confirmed change of address) takes
// it: a section member like any other, found on its shelf.
export const sectionInvitations = pgTable(
  'section_invitations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sectionId: integer()
      .notNull()
      .references(() => courseSections.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    role: text().notNull().default('student'),
    addDropDate: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    claimedAt: timestamp({ withTimezone: true }),
    claimedByUserId: integer().references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('section_invitations_section_email').on(t.sectionId, sql`lower(${t.email})`),
    index('section_invitations_email').on(sql`lower(${t.email})`),
    check(
      'section_invitations_role',
      sql`${t.role} in ('professor', 'teaching_assistant', 'student')`,
    ),
  ],
);
