import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { outbox } from '#db/schema/events.ts';
import { currentMailHost } from '#domain/shared/mail-host.ts';
import { askingLocale } from './mail-locale.ts';

// Messages leave through the outbox (DESIGN.md): written in the transaction that causes them,
// sent later by a worker. A claimed message is leased for LEASE_MS; if the process dies
// before marking it sent, it is sent again with the same Message-ID (and, to files, under the
// same name), so a restart mid-send never makes a second, different e-mail.
export const LEASE_MS = 5 * 60_000;
export const MAX_ATTEMPTS = 8;

export type OutboxMessage = {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  /** The white-label host it was queued from (mail-host.ts), or null. */
  siteHost: string | null;
};

/**
 * Mails a person is waiting for at their screen (a sign-in or reset link, an address to
 * prove, a security notice): sent before the rest, however many order mails a rush queued
 * (issue 37).
 */
/** To the owner of an address someone tried to sign up with (issue 37). */
export const SIGN_UP_EXISTING_KIND = 'sign-up-existing';

export const ACCOUNT_MAIL_KINDS: ReadonlySet<string> = new Set([
  SIGN_UP_EXISTING_KIND,
  'account-link',
  'security-notice',
  'email-change-notice',
  'privacy-export',
  'privacy-delete',
]);

/** A message's place in the queue: account mails (1) before everything else (0). */
export function priorityOf(kind: string): number {
  return ACCOUNT_MAIL_KINDS.has(kind) ? 1 : 0;
}

/**
 * Whom a message is for: the account it is about (null: an address with no account yet, a kept
 * section place), and the address it goes to when that is not the account's own (a change of
 * address is proved at the new one; its notice goes to the old).
 */
export type MailRecipient = { userId: number | null; email?: string };

/**
 * Adds a message once per dedupe key, in the caller's transaction. It keeps the white-label
 * host and the language of the request that queued it (mail-host.ts, mail-locale.ts), and
 * whom it is for (the help desk lists a person's mails by it, issue 39): the address given,
 * else the account's as it is now, lower-cased.
 */
export async function enqueue(
  db: Queryable,
  input: {
    kind: string;
    dedupeKey: string;
    payload: Record<string, unknown>;
    to: MailRecipient;
    /**
     * When it was queued, and may leave: the instant of the transaction that queues it (an
     * order's confirmation carries the instant its payment settled, decision 041). Without it,
     * the database's time.
     */
    at?: Date;
  },
): Promise<void> {
  const { to, at, ...message } = input;
  const askedIn = askingLocale();
  const payload = askedIn ? { askedIn, ...message.payload } : message.payload;
  const recipientEmail =
    to.email !== undefined
      ? to.email.toLowerCase()
      : to.userId === null
        ? null
        : sql<string>`(select lower(${users.email}) from ${users} where ${users.id} = ${to.userId})`;
  await db
    .insert(outbox)
    .values({
      ...message,
      payload,
      priority: priorityOf(message.kind),
      siteHost: currentMailHost(),
      recipientUserId: to.userId,
      recipientEmail,
      ...(at ? { createdAt: at, availableAt: at } : {}),
    })
    .onConflictDoNothing();
}

/** Leases up to `limit` due messages to this worker (others skip them). */
export async function claimDue(db: Queryable, now: Date, limit = 10): Promise<OutboxMessage[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(isNull(outbox.sentAt), lte(outbox.availableAt, now)))
      .orderBy(desc(outbox.priority), asc(outbox.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const claimed = await tx
      .update(outbox)
      .set({
        attempts: sql`${outbox.attempts} + 1`,
        availableAt: new Date(now.getTime() + LEASE_MS),
      })
      .where(
        inArray(
          outbox.id,
          due.map((row) => row.id),
        ),
      )
      .returning({
        id: outbox.id,
        kind: outbox.kind,
        payload: outbox.payload,
        siteHost: outbox.siteHost,
      });
    // An update returns its rows in no particular order: sent in the order they were chosen.
    const rank = new Map(due.map((row, index) => [row.id, index]));
    return claimed.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
  });
}

/** Marks a message sent; a link's token in its payload is not kept once it left (issue 20). */
export async function markSent(db: Queryable, id: number, now: Date): Promise<void> {
  await db
    .update(outbox)
    .set({ sentAt: now, lastError: null, payload: sql`${outbox.payload} - 'token'` })
    .where(eq(outbox.id, id));
}

/** A failed send is retried later, backing off; after MAX_ATTEMPTS it waits for a person. */
export async function markFailed(db: Queryable, id: number, error: string, now: Date) {
  await db
    .update(outbox)
    .set({
      lastError: error.slice(0, 2000),
      availableAt: sql`case when ${outbox.attempts} >= ${MAX_ATTEMPTS} then 'infinity'::timestamptz else ${new Date(now.getTime())}::timestamptz + (interval '30 seconds' * power(2, ${outbox.attempts})) end`,
    })
    .where(eq(outbox.id, id));
}

/**
 * Gives back messages this worker claimed and did not try (its process is stopping, issue 40):
 * due again at once for another worker, the claim not counted as an attempt.
 */
export async function releaseClaimed(db: Queryable, ids: number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(outbox)
    .set({ availableAt: now, attempts: sql`greatest(${outbox.attempts} - 1, 0)` })
    .where(and(inArray(outbox.id, ids), isNull(outbox.sentAt)));
}
