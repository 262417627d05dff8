import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { accountMailRequests } from '#db/schema/account-tokens.ts';
import { sessions, users } from '#db/schema/accounts.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { COMMON_PASSWORDS } from './common-passwords.ts';
import {
  type MailRequestKind,
  mailRequestThrottle,
  mailRequestWindowMs,
} from './mail-request-throttle.ts';
import { type PasswordProblem, passwordProblem } from './password-policy.ts';
import { freshSignIn } from './second-factor.ts';
import { forgetAccounts, login } from './service.ts';
import { tokenDigest } from './session-token.ts';

// Issue 20: pieces the sign-up, recovery and profile services share.

/** The password policy with the shipped list of common passwords. */
export function newPasswordProblem(password: string, email: string): PasswordProblem | null {
  return passwordProblem(password, { common: COMMON_PASSWORDS, email });
}

/** Ends the account's sessions, all or all but the one this request came with. */
export async function endSessionsOf(
  db: Queryable,
  userId: number,
  keepToken: string | null,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keepToken
        ? and(eq(sessions.userId, userId), ne(sessions.idHash, tokenDigest(keepToken)))
        : eq(sessions.userId, userId),
    );
  forgetAccounts([userId]);
}

/**
 * Records a request for a mailed link and says whether it may go, per address and per IP.
 * Known address or not, the same: the answer never tells which addresses have accounts.
 */
export async function mailRequestAllowed(
  ctx: RequestContext,
  kind: MailRequestKind,
  email: string,
): Promise<{ allowed: true } | { allowed: false; retryAfterMinutes: number }> {
  const address = email.trim().toLowerCase().slice(0, 254);
  const since = new Date(ctx.now.getTime() - mailRequestWindowMs(kind));
  const recent = await ctx.db
    .select({
      email: accountMailRequests.email,
      ip: accountMailRequests.ipAddress,
      at: accountMailRequests.requestedAt,
    })
    .from(accountMailRequests)
    .where(
      and(
        eq(accountMailRequests.kind, kind),
        gt(accountMailRequests.requestedAt, since),
        sql`(lower(${accountMailRequests.email}) = ${address} or ${accountMailRequests.ipAddress} = ${ctx.ipAddress})`,
      ),
    );
  const decision = mailRequestThrottle(
    {
      forAccount: recent.filter((r) => r.email.toLowerCase() === address).map((r) => r.at),
      forAddress: recent.filter((r) => r.ip === ctx.ipAddress).map((r) => r.at),
    },
    ctx.now,
    kind,
  );
  if (!decision.allowed) return decision;
  await ctx.db
    .insert(accountMailRequests)
    .values({ kind, email: address, ipAddress: ctx.ipAddress, requestedAt: ctx.now });
  return { allowed: true };
}

export type ItIsYou =
  | { ok: true }
  | { ok: false; reason: 'required' | 'wrong' | 'signInAgain' }
  | { ok: false; reason: 'throttled'; retryAfterMinutes: number };

/**
 * "Is it really you?" before a change to the signed-in account (a new password or address, its
 * deletion): its current password, checked and throttled as a login is. An account without a
 * password (made by campus sign-in) shows it instead by a sign-in of the last ten minutes, the
 * rule a passkey's removal follows (issue 20).
 */
export async function checkItIsYou(
  ctx: RequestContext,
  input: { password: string; sessionToken: string | null },
): Promise<ItIsYou> {
  const user = ctx.user;
  if (!user) return { ok: false, reason: 'wrong' };
  const [account] = await ctx.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id))
    .limit(1);
  if (!account?.passwordHash) {
    const [session] = input.sessionToken
      ? await ctx.db
          .select({ createdAt: sessions.createdAt })
          .from(sessions)
          .where(
            and(eq(sessions.idHash, tokenDigest(input.sessionToken)), eq(sessions.userId, user.id)),
          )
          .limit(1)
      : [];
    return freshSignIn(session?.createdAt ?? null, ctx.now)
      ? { ok: true }
      : { ok: false, reason: 'signInAgain' };
  }
  if (input.password === '') return { ok: false, reason: 'required' };
  const outcome = await login(ctx, { email: user.email, password: input.password });
  if (outcome.ok) return outcome.userId === user.id ? { ok: true } : { ok: false, reason: 'wrong' };
  if (outcome.reason === 'throttled') {
    return { ok: false, reason: 'throttled', retryAfterMinutes: outcome.retryAfterMinutes ?? 15 };
  }
  return { ok: false, reason: 'wrong' };
}
