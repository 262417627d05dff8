import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { sessions, userRoles, users } from '#db/schema/accounts.ts';
import {
  recoveryCodes,
  secondFactorAttempts,
  totpAuthenticators,
} from '#db/schema/second-factor.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Forbidden } from '#domain/shared/errors.ts';
import { verifyPassword } from './password.ts';
import { newRecoveryCodes, recoveryCodeDigest } from './recovery-codes.ts';
import {
  codeShape,
  freshSignIn,
  mayTurnOffTotp,
  SECOND_FACTOR_WINDOW_MS,
  type SignInMethod,
  type SignInStep,
  secondFactorRequired,
  secondFactorThrottle,
  signInStep,
} from './second-factor.ts';
import { openSecret, sealSecret } from './secret-box.ts';
import { queueSecurityNotice } from './security-notice.ts';
import { tokenDigest } from './session-token.ts';
import { findStep, openStep, takeStep } from './sign-in-steps.ts';
import { checkTotp, groupedSecret, newTotpSecret, totpUri } from './totp.ts';

// Issue 20, decision 021: the second factor. A first factor proved (password or passkey)
// leads to a session, to a code, or (a manager without an authenticator) to an enrolment, as
// signInStep decides; the code and the enrolment are steps kept by sign-in-steps.ts.

async function rolesOf(db: Queryable, userId: number): Promise<string[]> {
  const rows = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(eq(userRoles.userId, userId));
  return rows.map((r) => r.role);
}

async function authenticatorOf(db: Queryable, userId: number) {
  const [row] = await db
    .select()
    .from(totpAuthenticators)
    .where(eq(totpAuthenticators.userId, userId))
    .limit(1);
  return row ?? null;
}

export type AfterFirstFactor =
  | { step: 'session' }
  | { step: Exclude<SignInStep, 'session'>; token: string; expiresAt: Date };

/** What follows a proved first factor; a code or an enrolment is kept as a step. */
export async function afterFirstFactor(
  ctx: RequestContext,
  input: { userId: number; method: SignInMethod; next: string; anonymousKey: string | null },
): Promise<AfterFirstFactor> {
  const [roles, authenticator] = await Promise.all([
    rolesOf(ctx.db, input.userId),
    authenticatorOf(ctx.db, input.userId),
  ]);
  const step = signInStep({
    method: input.method,
    roles,
    totpEnrolled: !!authenticator?.confirmedAt,
  });
  if (step === 'session') return { step };
  const opened = await openStep(ctx.db, {
    kind: step,
    now: ctx.now,
    userId: input.userId,
    next: input.next,
    anonymousKey: input.anonymousKey,
  });
  return { step, ...opened };
}

/** A proved sign-in on its way to a session; `secondFactor` when it proved two factors. */
export type PendingSignIn = {
  userId: number;
  next: string;
  anonymousKey: string | null;
  secondFactor: boolean;
};

/** The sign-in waiting for its code behind this cookie value, if it is still waiting. */
export async function pendingSecondFactor(
  ctx: RequestContext,
  token: string | null,
): Promise<PendingSignIn | null> {
  const step = await findStep(ctx.db, token, 'second-factor', ctx.now);
  return step?.userId
    ? {
        userId: step.userId,
        next: step.next ?? '/',
        anonymousKey: step.anonymousKey,
        secondFactor: false,
      }
    : null;
}

export type CodeOutcome =
  | { ok: true; pending: PendingSignIn }
  | { ok: false; reason: 'expired' | 'invalid' | 'replayed' | 'recovery-used' }
  | { ok: false; reason: 'throttled'; retryAfterMinutes: number };

/** The second step: a code from the authenticator, or an unused recovery code. */
export async function verifySecondFactor(
  ctx: RequestContext,
  input: { token: string | null; code: string },
): Promise<CodeOutcome> {
  const step = await findStep(ctx.db, input.token, 'second-factor', ctx.now);
  if (!step?.userId) return { ok: false, reason: 'expired' };
  const userId = step.userId;
  const throttled = await codeThrottle(ctx, userId);
  if (throttled) return throttled;
  const checked = await spendCode(ctx, userId, input.code);
  await recordAttempt(ctx, userId, checked === 'ok');
  if (checked !== 'ok') return { ok: false, reason: checked };
  // The step is used once: a second post with the same cookie finds nothing.
  const taken = await takeStep(ctx.db, input.token, 'second-factor', ctx.now);
  if (!taken) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    pending: {
      userId,
      next: step.next ?? '/',
      anonymousKey: step.anonymousKey,
      secondFactor: true,
    },
  };
}

async function codeThrottle(
  ctx: RequestContext,
  userId: number,
): Promise<{ ok: false; reason: 'throttled'; retryAfterMinutes: number } | null> {
  const since = new Date(ctx.now.getTime() - SECOND_FACTOR_WINDOW_MS);
  const failures = await ctx.db
    .select({
      userId: secondFactorAttempts.userId,
      ip: secondFactorAttempts.ipAddress,
      at: secondFactorAttempts.attemptedAt,
    })
    .from(secondFactorAttempts)
    .where(
      and(
        eq(secondFactorAttempts.succeeded, false),
        gt(secondFactorAttempts.attemptedAt, since),
        sql`(${secondFactorAttempts.userId} = ${userId} or ${secondFactorAttempts.ipAddress} = ${ctx.ipAddress})`,
      ),
    );
  const decision = secondFactorThrottle(
    {
      forAccount: failures.filter((f) => f.userId === userId).map((f) => f.at),
      forAddress: failures.filter((f) => f.ip === ctx.ipAddress).map((f) => f.at),
    },
    ctx.now,
  );
  return decision.allowed
    ? null
    : { ok: false, reason: 'throttled', retryAfterMinutes: decision.retryAfterMinutes };
}

async function recordAttempt(ctx: RequestContext, userId: number, succeeded: boolean) {
  await ctx.db.insert(secondFactorAttempts).values({
    userId,
    ipAddress: ctx.ipAddress,
    succeeded,
    attemptedAt: ctx.now,
  });
}

/** Checks a typed code and uses it up: a TOTP step moves forward, a recovery code is spent. */
async function spendCode(
  ctx: RequestContext,
  userId: number,
  typed: string,
): Promise<'ok' | 'invalid' | 'replayed' | 'recovery-used'> {
  const shape = codeShape(typed);
  if (!shape) return 'invalid';
  if (shape.kind === 'recovery') {
    const spent = await ctx.db
      .update(recoveryCodes)
      .set({ usedAt: ctx.now })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeDigest, recoveryCodeDigest(shape.code)),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    if (spent.length > 0) return 'ok';
    // One of theirs, spent before: said so, not "not correct" (the walk of issue 20).
    const [used] = await ctx.db
      .select({ id: recoveryCodes.id })
      .from(recoveryCodes)
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeDigest, recoveryCodeDigest(shape.code)),
        ),
      )
      .limit(1);
    return used ? 'recovery-used' : 'invalid';
  }
  const authenticator = await authenticatorOf(ctx.db, userId);
  if (!authenticator?.confirmedAt) return 'invalid';
  return acceptTotp(ctx, userId, authenticator, shape.code);
}

async function acceptTotp(
  ctx: RequestContext,
  userId: number,
  authenticator: typeof totpAuthenticators.$inferSelect,
  code: string,
): Promise<'ok' | 'invalid' | 'replayed'> {
  const secret = openSecret(ctx.keys.lti, authenticator.secretCiphertext);
  const checked = await checkTotp({
    secret,
    code,
    now: ctx.now,
    lastUsedStep: authenticator.lastUsedStep,
  });
  if (!checked.ok) return checked.reason;
  // Two requests with one code at once: only one moves the step forward.
  const moved = await ctx.db
    .update(totpAuthenticators)
    .set({ lastUsedStep: checked.step })
    .where(
      and(
        eq(totpAuthenticators.userId, userId),
        sql`(${totpAuthenticators.lastUsedStep} is null or ${totpAuthenticators.lastUsedStep} < ${checked.step})`,
      ),
    )
    .returning({ userId: totpAuthenticators.userId });
  return moved.length > 0 ? 'ok' : 'replayed';
}

export type TotpSetup = { secret: string; groupedSecret: string; uri: string };

/** A new secret to enrol (or the one already waiting for its first code). */
export async function startTotpEnrolment(ctx: RequestContext, userId: number): Promise<TotpSetup> {
  const existing = await authenticatorOf(ctx.db, userId);
  if (existing?.confirmedAt) throw new Conflict('security.totp.error.alreadyOn');
  let secret: string;
  if (existing) {
    secret = openSecret(ctx.keys.lti, existing.secretCiphertext);
  } else {
    secret = newTotpSecret();
    await ctx.db
      .insert(totpAuthenticators)
      .values({ userId, secretCiphertext: sealSecret(ctx.keys.lti, secret), createdAt: ctx.now })
      .onConflictDoNothing();
  }
  const [user] = await ctx.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return {
    secret,
    groupedSecret: groupedSecret(secret),
    uri: totpUri({ issuer: ctx.site.title || 'Shelfmark', account: user?.email ?? '', secret }),
  };
}

export type EnrolOutcome =
  | { ok: true; recoveryCodes: string[] }
  | { ok: false; reason: 'invalid' | 'replayed' }
  | { ok: false; reason: 'throttled'; retryAfterMinutes: number };

/** The first code from the app confirms the authenticator; ten recovery codes, shown once. */
export async function confirmTotpEnrolment(
  ctx: RequestContext,
  input: { userId: number; code: string },
): Promise<EnrolOutcome> {
  const throttled = await codeThrottle(ctx, input.userId);
  if (throttled) return throttled;
  const authenticator = await authenticatorOf(ctx.db, input.userId);
  if (!authenticator) return { ok: false, reason: 'invalid' };
  if (authenticator.confirmedAt) throw new Conflict('security.totp.error.alreadyOn');
  const shape = codeShape(input.code);
  const checked =
    shape?.kind === 'totp'
      ? await acceptTotp(ctx, input.userId, authenticator, shape.code)
      : ('invalid' as const);
  await recordAttempt(ctx, input.userId, checked === 'ok');
  if (checked !== 'ok') return { ok: false, reason: checked };
  const codes = newRecoveryCodes();
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(totpAuthenticators)
      .set({ confirmedAt: ctx.now })
      .where(eq(totpAuthenticators.userId, input.userId));
    await replaceRecoveryCodes(tx, input.userId, codes);
    await queueSecurityNotice(tx, { userId: input.userId, event: 'totp-on', now: ctx.now });
  });
  return { ok: true, recoveryCodes: codes };
}

async function replaceRecoveryCodes(db: Queryable, userId: number, codes: string[]) {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeDigest: recoveryCodeDigest(code) })));
}

/** The sign-in waiting for a manager's enrolment behind this cookie value. */
export async function pendingEnrolment(
  ctx: RequestContext,
  token: string | null,
): Promise<PendingSignIn | null> {
  const step = await findStep(ctx.db, token, 'enrol', ctx.now);
  return step?.userId
    ? {
        userId: step.userId,
        next: step.next ?? '/',
        anonymousKey: step.anonymousKey,
        secondFactor: false,
      }
    : null;
}

/** Ends the enrolment step once the authenticator is confirmed (it is used once). */
export async function finishEnrolment(
  ctx: RequestContext,
  token: string | null,
): Promise<PendingSignIn | null> {
  const step = await takeStep(ctx.db, token, 'enrol', ctx.now);
  return step?.userId
    ? {
        userId: step.userId,
        next: step.next ?? '/',
        anonymousKey: step.anonymousKey,
        secondFactor: true,
      }
    : null;
}

export type SecondFactorStatus = {
  totpOn: boolean;
  required: boolean;
  mayTurnOff: boolean;
  recoveryCodesLeft: number;
};

export async function secondFactorStatus(
  ctx: RequestContext,
  user: { id: number; roles: readonly string[] },
): Promise<SecondFactorStatus> {
  const authenticator = await authenticatorOf(ctx.db, user.id);
  const [left] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, user.id), isNull(recoveryCodes.usedAt)));
  return {
    totpOn: !!authenticator?.confirmedAt,
    required: secondFactorRequired(user.roles),
    mayTurnOff: mayTurnOffTotp(user.roles),
    recoveryCodesLeft: left?.count ?? 0,
  };
}

/**
 * The account holder, again, before a change that weakens the account: the current password,
 * or (an account without one) a sign-in of the last minutes.
 */
export async function confirmIdentity(
  ctx: RequestContext,
  input: { userId: number; password: string; sessionToken: string | null },
): Promise<boolean> {
  const [user] = await ctx.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, input.userId));
  if (user?.passwordHash) return verifyPassword(user.passwordHash, input.password);
  if (!input.sessionToken) return false;
  const [session] = await ctx.db
    .select({ createdAt: sessions.createdAt })
    .from(sessions)
    .where(eq(sessions.idHash, tokenDigest(input.sessionToken)));
  return freshSignIn(session?.createdAt ?? null, ctx.now);
}

/** Whether the account has a password to ask for (campus accounts may have none). */
export async function hasPassword(ctx: RequestContext, userId: number): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.passwordHash)));
  return !!row;
}

/** Turns the authenticator off (not for the roles that require it); the recovery codes go too. */
export async function turnOffTotp(ctx: RequestContext, user: { id: number; roles: string[] }) {
  if (!mayTurnOffTotp(user.roles)) throw new Forbidden('security.totp.error.required.role');
  await ctx.db.transaction(async (tx) => {
    const removed = await tx
      .delete(totpAuthenticators)
      .where(eq(totpAuthenticators.userId, user.id))
      .returning({ confirmedAt: totpAuthenticators.confirmedAt });
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    // Told only when it was on (an enrolment left half-way was never on).
    if (removed[0]?.confirmedAt) {
      await queueSecurityNotice(tx, { userId: user.id, event: 'totp-off', now: ctx.now });
    }
  });
}

/** Ten new recovery codes; the old ones stop working. */
export async function renewRecoveryCodes(ctx: RequestContext, userId: number): Promise<string[]> {
  const authenticator = await authenticatorOf(ctx.db, userId);
  if (!authenticator?.confirmedAt) throw new Conflict('security.totp.error.off');
  const codes = newRecoveryCodes();
  await ctx.db.transaction(async (tx) => {
    await replaceRecoveryCodes(tx, userId, codes);
    await queueSecurityNotice(tx, { userId, event: 'recovery-codes-renewed', now: ctx.now });
  });
  return codes;
}
