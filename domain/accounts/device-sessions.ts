import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { sessions } from '#db/schema/accounts.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import { endSessionsOf } from './account-security.ts';
import { describeDevice } from './device.ts';
import { forgetAccounts } from './service.ts';
import { tokenDigest } from './session-token.ts';

// Issue 20, My Account › Signed-in devices: the account's live sessions, this one marked;
// the others can be signed out one by one or all at once.

export type DeviceSession = {
  /** The session's key in this list (the digest of its cookie, never the cookie). */
  key: string;
  browser: string | null;
  system: string | null;
  signedInAt: Date;
  lastSeenAt: Date;
  current: boolean;
};

export async function deviceSessions(
  ctx: RequestContext,
  sessionToken: string | null,
): Promise<DeviceSession[]> {
  const user = ctx.user;
  if (!user) throw new Forbidden('error.loginRequired');
  const current = sessionToken ? tokenDigest(sessionToken) : null;
  const rows = await ctx.db
    .select({
      idHash: sessions.idHash,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, user.id),
        gt(sessions.expiresAt, ctx.now),
        isNull(sessions.impersonatorId),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt))
    .limit(100);
  return rows
    .map((row) => ({
      key: row.idHash,
      ...describeDevice(row.userAgent),
      signedInAt: row.createdAt,
      lastSeenAt: row.idHash === current ? ctx.now : row.lastSeenAt,
      current: row.idHash === current,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Signs out one other device of the account; another account's session is not found. */
export async function endDeviceSession(
  ctx: RequestContext,
  sessionToken: string | null,
  key: string,
): Promise<void> {
  const user = ctx.user;
  if (!user) throw new Forbidden('error.loginRequired');
  if (sessionToken && key === tokenDigest(sessionToken))
    throw new NotFound('sessions.error.current');
  const ended = await ctx.db
    .delete(sessions)
    .where(and(eq(sessions.idHash, key.slice(0, 100)), eq(sessions.userId, user.id)))
    .returning({ idHash: sessions.idHash });
  if (ended.length === 0) throw new NotFound('sessions.error.gone');
  forgetAccounts([user.id]);
}

/** Signs out every other device of the account. */
export async function endOtherSessions(
  ctx: RequestContext,
  sessionToken: string | null,
): Promise<void> {
  const user = ctx.user;
  if (!user) throw new Forbidden('error.loginRequired');
  await endSessionsOf(ctx.db, user.id, sessionToken);
}
