import { and, eq, gt } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { sessions } from '#db/schema/accounts.ts';
import { tokenDigest } from './session-token.ts';

/**
 * What a live session proved and whom it acts for (issue 39, Switch Account): the manager's
 * session is replaced by one acting as the person, and that one by a fresh session of the
 * manager's own, which keeps what the manager's sign-in proved (decision 039).
 */
export async function sessionFacts(
  db: Queryable,
  token: string,
  now: Date,
): Promise<{ userId: number; impersonatorId: number | null; secondFactor: boolean } | null> {
  if (token.length > 100) return null;
  const [row] = await db
    .select({
      userId: sessions.userId,
      impersonatorId: sessions.impersonatorId,
      secondFactor: sessions.secondFactor,
    })
    .from(sessions)
    .where(and(eq(sessions.idHash, tokenDigest(token)), gt(sessions.expiresAt, now)))
    .limit(1);
  return row?.userId ? { ...row, userId: row.userId } : null;
}
