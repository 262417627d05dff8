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
import { inList, products } from './catalog.ts';
import { orders } from './commerce.ts';
import { courseSections } from './courses.ts';

/**
 * Why an ownership was revoked (issue 39: the help desk shows it): a refund of the line that
 * gave it (or of the order's whole payment), an opt-out of the section that gave it, the end of
 * that enrolment, a role in the section that no longer gets its materials, a deleted account.
 */
export const REVOCATION_REASONS = [
  'refund',
  'optOut',
  'enrolmentEnded',
  'roleChanged',
  'accountDeleted',
] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];

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
    // One of REVOCATION_REASONS, written with revokedAt; null while not revoked, and for a
    // revocation before migration 0048 whose cause it could not find.
    revokedReason: text(),
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
    check(
      'ownerships_revoked_reason',
      sql`${t.revokedReason} is null or (${t.revokedAt} is not null and ${t.revokedReason} in (${inList(REVOCATION_REASONS)}))`,
    ),
    check('ownerships_window', sql`${t.expiresAt} is null or ${t.expiresAt} > ${t.startsAt}`),
  ],
);
