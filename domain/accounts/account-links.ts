import { timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { accountTokens } from '#db/schema/account-tokens.ts';
import { enqueue } from '#domain/notifications/outbox.ts';
import { type TokenPurpose, type TokenState, tokenExpiry, tokenState } from './account-token.ts';
import { newToken, tokenDigest } from './session-token.ts';

// Issue 20: a mailed link is a row written with the change that asks for it, and an outbox
// message in the same transaction. The token itself is made when the mail is written (the
// outbox worker, issueLinkToken) and only its SHA-256 is kept: neither the table nor the
// outbox ever holds a usable link.

/** Writes the link's row and its mail, in the caller's transaction. */
export async function queueAccountLink(
  db: Queryable,
  input: {
    userId: number;
    purpose: TokenPurpose;
    email: string;
    now: Date;
    /** Where the link leads after it is used (a same-origin path). */
    next?: string;
    /** The marker of the browser that asked (issue 38), kept as its SHA-256 only. */
    device?: string;
  },
): Promise<number> {
  const [row] = await db
    .insert(accountTokens)
    .values({
      userId: input.userId,
      purpose: input.purpose,
      email: input.email,
      createdAt: input.now,
      expiresAt: tokenExpiry(input.purpose, input.now),
      deviceHash: input.device ? tokenDigest(input.device) : null,
    })
    .returning({ id: accountTokens.id });
  await enqueue(db, {
    kind: 'account-link',
    dedupeKey: `account-link:${row!.id}`,
    payload: { tokenId: row!.id, ...(input.next ? { next: input.next } : {}) },
    to: { userId: input.userId, email: input.email },
  });
  return row!.id;
}

/**
 * Makes the token of a queued link as its mail is written; a resend after a crash makes a
 * new one and the earlier mail's link stops working. Null when the link is used or expired.
 */
export async function issueLinkToken(
  db: Queryable,
  tokenId: number,
  now: Date,
): Promise<string | null> {
  const token = newToken();
  const [row] = await db
    .update(accountTokens)
    .set({ tokenHash: tokenDigest(token) })
    .where(
      and(
        eq(accountTokens.id, tokenId),
        isNull(accountTokens.usedAt),
        sql`${accountTokens.expiresAt} > ${now}`,
      ),
    )
    .returning({ id: accountTokens.id });
  return row ? token : null;
}

export type PresentedLink = {
  state: TokenState;
  row: { id: number; userId: number; email: string; deviceHash: string | null } | null;
};

/** What a presented link is: its row and whether it still works. */
export async function readLink(
  db: Queryable,
  token: string,
  purpose: TokenPurpose,
  now: Date,
): Promise<PresentedLink> {
  if (!/^[\w-]{20,100}$/.test(token)) return { state: 'unknown', row: null };
  const [row] = await db
    .select({
      id: accountTokens.id,
      userId: accountTokens.userId,
      email: accountTokens.email,
      purpose: accountTokens.purpose,
      usedAt: accountTokens.usedAt,
      expiresAt: accountTokens.expiresAt,
      deviceHash: accountTokens.deviceHash,
    })
    .from(accountTokens)
    .where(eq(accountTokens.tokenHash, tokenDigest(token)))
    .limit(1);
  const state = tokenState(row ?? null, purpose, now);
  return { state, row: row && state !== 'unknown' ? row : null };
}

/** Whether a link was asked for from the browser holding this marker (issue 38). */
export function fromSameDevice(
  row: { deviceHash: string | null },
  device: string | null | undefined,
): boolean {
  if (!row.deviceHash || !device || device.length > 100) return false;
  const presented = Buffer.from(tokenDigest(device));
  const kept = Buffer.from(row.deviceHash);
  return presented.length === kept.length && timingSafeEqual(presented, kept);
}

/** Uses a link once: only the first of two racing uses gets true. */
export async function useLink(db: Queryable, id: number, now: Date): Promise<boolean> {
  const used = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.id, id),
        isNull(accountTokens.usedAt),
        sql`${accountTokens.expiresAt} > ${now}`,
      ),
    )
    .returning({ id: accountTokens.id });
  return used.length === 1;
}

/** Ends the account's other open links of this purpose (a reset used, an address changed). */
export async function retireLinks(
  db: Queryable,
  userId: number,
  purpose: TokenPurpose,
  now: Date,
): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.userId, userId),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
      ),
    );
}
