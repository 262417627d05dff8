import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    path: text(),
    props: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    occurredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('analytics_events_name_time').on(t.name, t.occurredAt)],
);

// Slow side effects (mail, partner calls) queued in the transaction that causes them and
// drained by a worker with FOR UPDATE SKIP LOCKED (DESIGN.md, Money and side effects).
export const outbox = pgTable(
  'outbox',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text().notNull(),
    dedupeKey: text().unique(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    availableAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    attempts: integer().notNull().default(0),
    lastError: text(),
    sentAt: timestamp({ withTimezone: true }),
    // Higher leaves first (issue 37): a reset or verification link never waits behind a burst
    // of order confirmations (domain/notifications/outbox.ts, priorityOf).
    priority: smallint().notNull().default(0),
    // The white-label host the message was queued from; its links lead there (issue 37,
    // domain/shared/mail-host.ts). Null: PUBLIC_ORIGIN.
    siteHost: text(),
    // Whom it is for, written when it is queued (issue 39: the help desk's "mails sent"): the
    // account, and the address, lower-cased, it goes to (a kept section place has an address
    // and no account yet; a change of address is proved at the new one).
    recipientUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    recipientEmail: text(),
  },
  (t) => [
    index('outbox_pending').on(t.availableAt).where(sql`${t.sentAt} is null`),
    index('outbox_recipient_user').on(t.recipientUserId, t.id),
    index('outbox_recipient_email').on(t.recipientEmail, t.id),
  ],
);
