import { and, eq, sql } from 'drizzle-orm';
import { users } from '#db/schema/accounts.ts';
import { claimSectionInvitations } from '#domain/courses/section-invitations.ts';
import { enqueue } from '#domain/notifications/outbox.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden } from '#domain/shared/errors.ts';
import { isUniqueViolation } from '#domain/shared/unique-violation.ts';
import { queueAccountLink, readLink, retireLinks, useLink } from './account-links.ts';
import { checkItIsYou, endSessionsOf, newPasswordProblem } from './account-security.ts';
import { tokenRefusalMessage } from './account-token.ts';
import { hashPassword } from './password.ts';
import { passwordProblemMessage } from './password-policy.ts';
import { queueSecurityNotice } from './security-notice.ts';
import { forgetAccounts } from './service.ts';

// Issue 20, My Account › Profile: change the password (the current one asked; the other
// sessions end) and change the e-mail address (the current password asked; a link to the new
// address makes the change, a notice goes to the old one).

export type ProfileOutcome =
  | { ok: true }
  | { ok: false; errors: Partial<Record<string, string>>; retryAfterMinutes?: number };

/** The current password (or a fresh sign-in without one), as checkItIsYou decides. */
async function checkCurrentPassword(
  ctx: RequestContext,
  password: string,
  sessionToken: string | null,
): Promise<ProfileOutcome | null> {
  if (!ctx.user) throw new Forbidden('error.loginRequired');
  const checked = await checkItIsYou(ctx, { password, sessionToken });
  if (checked.ok) return null;
  switch (checked.reason) {
    case 'throttled':
      return {
        ok: false,
        errors: { form: 'login.error.throttled' },
        retryAfterMinutes: checked.retryAfterMinutes,
      };
    case 'signInAgain':
      return { ok: false, errors: { form: 'account.error.signInAgain' } };
    case 'required':
      return { ok: false, errors: { currentPassword: 'login.error.passwordRequired' } };
    default:
      return { ok: false, errors: { currentPassword: 'profile.error.currentPassword' } };
  }
}

export async function changePassword(
  ctx: RequestContext,
  input: { currentPassword: string; newPassword: string; sessionToken: string | null },
): Promise<ProfileOutcome> {
  const refused = await checkCurrentPassword(ctx, input.currentPassword, input.sessionToken);
  if (refused) return refused;
  const user = ctx.user!;
  const problem = newPasswordProblem(input.newPassword, user.email);
  if (problem) return { ok: false, errors: { newPassword: passwordProblemMessage(problem) } };
  if (input.newPassword === input.currentPassword) {
    return { ok: false, errors: { newPassword: 'profile.error.samePassword' } };
  }
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await retireLinks(tx, user.id, 'reset-password', ctx.now);
    await endSessionsOf(tx, user.id, input.sessionToken);
    await queueSecurityNotice(tx, { userId: user.id, event: 'password-changed', now: ctx.now });
  });
  return { ok: true };
}

export async function requestEmailChange(
  ctx: RequestContext,
  input: { currentPassword: string; newEmail: string; sessionToken: string | null },
): Promise<ProfileOutcome> {
  const refused = await checkCurrentPassword(ctx, input.currentPassword, input.sessionToken);
  if (refused) return refused;
  const user = ctx.user!;
  const newEmail = input.newEmail.trim().toLowerCase();
  if (newEmail === user.email.toLowerCase()) {
    return { ok: false, errors: { newEmail: 'profile.error.sameEmail' } };
  }
  const [taken] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${newEmail}`)
    .limit(1);
  if (taken) return { ok: false, errors: { newEmail: 'signup.error.taken' } };
  await ctx.db.transaction(async (tx) => {
    await retireLinks(tx, user.id, 'change-email', ctx.now);
    const tokenId = await queueAccountLink(tx, {
      userId: user.id,
      purpose: 'change-email',
      email: newEmail,
      now: ctx.now,
    });
    await enqueue(tx, {
      kind: 'email-change-notice',
      dedupeKey: `email-change-notice:${tokenId}`,
      payload: { userId: user.id, oldEmail: user.email, newEmail },
      to: { userId: user.id, email: user.email },
    });
  });
  return { ok: true };
}

export type ConfirmEmailOutcome =
  | { ok: true; email: string; userId: number }
  | { ok: false; messageKey: string };

/** Follows the link sent to the new address: the account moves to it, proved. */
export async function confirmEmailChange(
  ctx: RequestContext,
  token: string,
): Promise<ConfirmEmailOutcome> {
  const link = await readLink(ctx.db, token, 'change-email', ctx.now);
  if (link.state !== 'usable' || !link.row) {
    const state = link.state === 'usable' ? 'unknown' : link.state;
    return { ok: false, messageKey: tokenRefusalMessage(state) };
  }
  const row = link.row;
  try {
    const done = await ctx.db.transaction(async (tx) => {
      if (!(await useLink(tx, row.id, ctx.now))) return false;
      await tx
        .update(users)
        .set({ email: row.email, emailVerifiedAt: ctx.now })
        .where(and(eq(users.id, row.userId), eq(users.isActive, true)));
      await claimSectionInvitations(tx, { userId: row.userId, email: row.email, now: ctx.now });
      return true;
    });
    if (!done) return { ok: false, messageKey: tokenRefusalMessage('used') };
  } catch (error) {
    // Another account took the address in the meantime: the unique index says no.
    if (isUniqueViolation(error)) return { ok: false, messageKey: 'signup.error.taken' };
    throw error;
  }
  forgetAccounts([row.userId]);
  return { ok: true, email: row.email, userId: row.userId };
}
