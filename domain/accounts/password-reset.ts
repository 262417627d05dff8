import { and, eq, sql } from 'drizzle-orm';
import { users } from '#db/schema/accounts.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { queueAccountLink, readLink, retireLinks, useLink } from './account-links.ts';
import { endSessionsOf, mailRequestAllowed, newPasswordProblem } from './account-security.ts';
import { tokenRefusalMessage } from './account-token.ts';
import { hashPassword } from './password.ts';
import { passwordProblemMessage } from './password-policy.ts';
import { queueSecurityNotice } from './security-notice.ts';

// Issue 20: "Forgot your password?" A link by mail, good for an hour and once; the answer is
// the same whether or not an account uses the address; asking is throttled per address and
// per IP. Using the link sets the new password and ends every session of the account.

export type ResetRequestOutcome =
  | { ok: true }
  | { ok: false; reason: 'throttled'; retryAfterMinutes: number };

export async function requestPasswordReset(
  ctx: RequestContext,
  rawEmail: string,
): Promise<ResetRequestOutcome> {
  const email = rawEmail.trim().toLowerCase();
  const decision = await mailRequestAllowed(ctx, 'reset-password', email);
  if (!decision.allowed) {
    return { ok: false, reason: 'throttled', retryAfterMinutes: decision.retryAfterMinutes };
  }
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, eq(users.isActive, true)))
    .limit(1);
  if (user) {
    await ctx.db.transaction((tx) =>
      queueAccountLink(tx, {
        userId: user.id,
        purpose: 'reset-password',
        email: user.email,
        now: ctx.now,
      }),
    );
  }
  return { ok: true };
}

/** Whether a reset link still works (the page shows the form, or why not). */
export async function resetLinkRefusal(ctx: RequestContext, token: string): Promise<string | null> {
  const link = await readLink(ctx.db, token, 'reset-password', ctx.now);
  return link.state === 'usable' ? null : tokenRefusalMessage(link.state);
}

export type ResetOutcome =
  | { ok: true; userId: number }
  | { ok: false; field: 'password' | 'form'; messageKey: string };

export async function resetPassword(
  ctx: RequestContext,
  token: string,
  password: string,
): Promise<ResetOutcome> {
  const link = await readLink(ctx.db, token, 'reset-password', ctx.now);
  if (link.state !== 'usable' || !link.row) {
    const state = link.state === 'usable' ? 'unknown' : link.state;
    return { ok: false, field: 'form', messageKey: tokenRefusalMessage(state) };
  }
  const row = link.row;
  const problem = newPasswordProblem(password, row.email);
  if (problem) return { ok: false, field: 'password', messageKey: passwordProblemMessage(problem) };
  const passwordHash = await hashPassword(password);
  const done = await ctx.db.transaction(async (tx) => {
    if (!(await useLink(tx, row.id, ctx.now))) return false;
    await retireLinks(tx, row.userId, 'reset-password', ctx.now);
    await tx.update(users).set({ passwordHash }).where(eq(users.id, row.userId));
    // Whoever knew the old password is signed out everywhere.
    await endSessionsOf(tx, row.userId, null);
    await queueSecurityNotice(tx, { userId: row.userId, event: 'password-reset', now: ctx.now });
    return true;
  });
  if (!done) return { ok: false, field: 'form', messageKey: tokenRefusalMessage('used') };
  return { ok: true, userId: row.userId };
}
