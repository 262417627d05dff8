import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { users } from '#db/schema/accounts.ts';
import { claimSectionInvitations } from '#domain/courses/section-invitations.ts';
import { enqueue, SIGN_UP_EXISTING_KIND } from '#domain/notifications/outbox.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { isUniqueViolation } from '#domain/shared/unique-violation.ts';
import { fromSameDevice, queueAccountLink, readLink, useLink } from './account-links.ts';
import { mailRequestAllowed, newPasswordProblem } from './account-security.ts';
import { tokenRefusalMessage } from './account-token.ts';
import { isLocale } from './language.ts';
import { hashPassword } from './password.ts';
import { passwordProblemMessage } from './password-policy.ts';
import { forgetAccounts } from './service.ts';

// Issue 20: a person not in the demo data makes an account; its address is proved by a
// mailed link before its first purchase, free book or code (email-verification.ts).

export type SignUpInput = {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  language: string;
  /** Where the verification link leads back to (a same-origin path). */
  next?: string;
  /**
   * Issue 38: the marker cookie of the browser signing up; the link opened in this browser
   * signs the account in (verifyEmail's sameDevice). Given for a taken address too, unused.
   */
  device?: string;
};

/**
 * `userId` is the account made, or null when the address already had one (its owner is mailed
 * instead): the page answers both the same, so sign-up never tells who has an account.
 */
export type SignUpOutcome =
  | { ok: true; userId: number | null }
  | { ok: false; errors: Partial<Record<'email' | 'password' | 'language', string>> }
  | { ok: false; errors: { form: 'signup.throttled' }; retryAfterMinutes: number };

export async function signUp(ctx: RequestContext, input: SignUpInput): Promise<SignUpOutcome> {
  const email = input.email.trim().toLowerCase();
  if (!isLocale(input.language) || !ctx.site.allowedLanguages.includes(input.language)) {
    return { ok: false, errors: { language: 'language.error.unsupported' } };
  }
  const problem = newPasswordProblem(input.password, email);
  if (problem) return { ok: false, errors: { password: passwordProblemMessage(problem) } };
  // Counted before the address is looked up, so that sign-up cannot probe addresses either.
  const decision = await mailRequestAllowed(ctx, 'sign-up', email);
  if (!decision.allowed) {
    return {
      ok: false,
      errors: { form: 'signup.throttled' },
      retryAfterMinutes: decision.retryAfterMinutes,
    };
  }
  // Hashed whoever holds the address: the answer takes as long either way.
  const passwordHash = await hashPassword(input.password);
  // Issue 37: an address that has an account is answered as a new one would be (a link is on
  // its way); its owner is mailed that someone tried, with the ways to log in.
  const taken = async () => {
    await notifyExistingOwner(ctx, email);
    return { ok: true, userId: null } as const;
  };
  const [existing] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  if (existing) return taken();
  try {
    const userId = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          email,
          firstName: input.firstName.trim(),
          lastName: input.lastName.trim(),
          passwordHash,
          languageCode: input.language,
          orgId: ctx.site.org?.id ?? null,
          emailVerifiedAt: null,
          createdAt: ctx.now,
        })
        .returning({ id: users.id });
      await queueAccountLink(tx, {
        userId: row!.id,
        purpose: 'verify-email',
        email,
        now: ctx.now,
        next: input.next,
        device: input.device,
      });
      return row!.id;
    });
    return { ok: true, userId };
  } catch (error) {
    // Two sign-ups with one address at once: the unique index decides.
    if (isUniqueViolation(error)) return taken();
    throw error;
  }
}

/** Tells the owner of an address that someone asked to create an account with it. */
async function notifyExistingOwner(ctx: RequestContext, email: string): Promise<void> {
  const [owner] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  if (!owner) return;
  await enqueue(ctx.db, {
    kind: SIGN_UP_EXISTING_KIND,
    dedupeKey: `${SIGN_UP_EXISTING_KIND}:${owner.id}:${randomUUID()}`,
    payload: { userId: owner.id },
    to: { userId: owner.id },
  });
}

export type VerifyOutcome =
  /** `sameDevice`: opened in the browser that signed up (issue 38). */
  { ok: true; userId: number; sameDevice: boolean } | { ok: false; messageKey: string };

/**
 * Follows a verification link: the account's address is proved, once. `device` is the
 * browser's sign-up marker, if it has one.
 */
export async function verifyEmail(
  ctx: RequestContext,
  token: string,
  device: string | null = null,
): Promise<VerifyOutcome> {
  const link = await readLink(ctx.db, token, 'verify-email', ctx.now);
  if (link.state !== 'usable' || !link.row) {
    return {
      ok: false,
      messageKey: tokenRefusalMessage(link.state === 'usable' ? 'unknown' : link.state),
    };
  }
  const row = link.row;
  const done = await ctx.db.transaction(async (tx) => {
    if (!(await useLink(tx, row.id, ctx.now))) return false;
    // The link proves the address it was sent to, not one the account moved to since.
    const proved = await tx
      .update(users)
      .set({ emailVerifiedAt: ctx.now })
      .where(
        and(
          eq(users.id, row.userId),
          sql`lower(${users.email}) = lower(${row.email})`,
          isNull(users.emailVerifiedAt),
        ),
      )
      .returning({ id: users.id });
    if (proved.length === 1) {
      await claimSectionInvitations(tx, { userId: row.userId, email: row.email, now: ctx.now });
      return true;
    }
    return isVerified(tx, row.userId);
  });
  if (!done) return { ok: false, messageKey: tokenRefusalMessage('used') };
  forgetAccounts([row.userId]);
  return { ok: true, userId: row.userId, sameDevice: fromSameDevice(row, device) };
}

async function isVerified(db: RequestContext['db'], userId: number): Promise<boolean> {
  const [row] = await db
    .select({ at: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return !!row?.at;
}

export type ResendOutcome =
  | { ok: true }
  | { ok: false; reason: 'alreadyVerified' }
  | { ok: false; reason: 'throttled'; retryAfterMinutes: number };

/** A new verification link for the signed-in account, throttled per address and per IP. */
export async function resendVerification(
  ctx: RequestContext,
  next?: string,
): Promise<ResendOutcome> {
  const user = ctx.user;
  if (!user) throw new Error('resendVerification needs a signed-in user');
  if (user.emailVerified) return { ok: false, reason: 'alreadyVerified' };
  const decision = await mailRequestAllowed(ctx, 'verify-email', user.email);
  if (!decision.allowed) {
    return { ok: false, reason: 'throttled', retryAfterMinutes: decision.retryAfterMinutes };
  }
  await ctx.db.transaction((tx) =>
    queueAccountLink(tx, {
      userId: user.id,
      purpose: 'verify-email',
      email: user.email,
      now: ctx.now,
      next,
    }),
  );
  return { ok: true };
}
