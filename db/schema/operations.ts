import { sql } from 'drizzle-orm';
import {
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
import { organizations } from './sites.ts';

// Issue 39: every change a staff member makes — who, when, acting as whom, before → after —
// readable on the changed object's page (domain/operations/audit.ts).
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // The person at the keyboard: the manager when they act through Switch Account.
    actorUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    // The account they acted as, when it was not their own (Switch Account); else null.
    actingAsUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    // Kept as text too: the audit outlives an erased account.
    actorLabel: text().notNull(),
    // The organisation the object belongs to (null: store-wide), for scoping who reads it.
    orgId: integer().references(() => organizations.id),
    // What changed: 'section', 'term', 'course', 'member', 'user', 'order', 'billing_run', …
    objectType: text().notNull(),
    objectId: text().notNull(),
    // What was done: 'create', 'update', 'end', 'refund', 'lock', 'impersonate.start', …
    action: text().notNull(),
    before: jsonb(),
    after: jsonb(),
    // Why, when the rule asks for one (a refund beyond the policy).
    reason: text(),
  },
  (t) => [
    index('audit_events_object').on(t.objectType, t.objectId, t.occurredAt),
    index('audit_events_actor').on(t.actorUserId, t.occurredAt),
    index('audit_events_org').on(t.orgId, t.occurredAt),
    check('audit_events_reason', sql`${t.reason} is null or length(${t.reason}) <= 1000`),
  ],
);

// Issue 39: a person as their campus knows them: the roster's user sourcedId and the campus id
// (student number) the bursar's charge file names. One row per person and organisation.
export const campusPeople = pgTable(
  'campus_people',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orgId: integer()
      .notNull()
      .references(() => organizations.id),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // OneRoster users.sourcedId, opaque and byte-exact; null when the person came otherwise.
    sourcedId: text(),
    // The campus's student or staff number (OneRoster users.identifier).
    campusId: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campus_people_org_user').on(t.orgId, t.userId),
    uniqueIndex('campus_people_org_sourced_id').on(t.orgId, t.sourcedId),
    index('campus_people_org_campus_id').on(t.orgId, t.campusId),
    // The help desk finds a person by campus id alone (issue 39, people-search.ts).
    index('campus_people_campus_id').on(t.campusId),
    index('campus_people_user').on(t.userId),
  ],
);
