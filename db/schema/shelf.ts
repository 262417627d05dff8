import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { products } from './catalog.ts';
import { orders } from './commerce.ts';
import { courseSections } from './courses.ts';

// What a user can read or access, and until when (ownership on the shelf).
export const ownerships = pgTable(
  'ownerships',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id),
    source: text().notNull(),
    orderId: uuid().references(() => orders.id),
    courseSectionId: integer().references(() => courseSections.id),
    startsAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // Null: no expiry.
    expiresAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    // Classroom: the section code was confirmed for this section (spec 1 §4).
    isSectionCodeConfirmed: boolean().notNull().default(false),
    classroomSectionId: integer().references(() => courseSections.id),
    // When that code was confirmed: the classroom's 'joined' date (issue 14, decision 018).
    sectionCodeConfirmedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ownerships_active_unique')
      .on(t.userId, t.productId)
      .where(sql`${t.revokedAt} is null`),
    index('ownerships_user').on(t.userId, t.createdAt),
    check(
      'ownerships_source',
      sql`${t.source} in ('purchase', 'free', 'course_fee', 'code', 'inclusive_access', 'sample')`,
    ),
    check('ownerships_window', sql`${t.expiresAt} is null or ${t.expiresAt} > ${t.startsAt}`),
  ],
);
