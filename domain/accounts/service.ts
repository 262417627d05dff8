import { and, eq, gt, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { accountTokens } from '#db/schema/account-tokens.ts';
import { accountFlags, loginAttempts, sessions, users } from '#db/schema/accounts.ts';
import { organizations } from '#db/schema/sites.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Invalid } from '#domain/shared/errors.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import type { Site } from '#domain/sites/types.ts';
import { LAST_SEEN_EVERY_MS } from './device.ts';
import { isLocale, type Locale } from './language.ts';
import {
  accountJustLocked,
  LOGIN_WINDOW_MS,
  type LoginFailures,
  loginThrottle,
  MAX_FAILURES_PER_ACCOUNT,
} from './login-throttle.ts';
import type { NavigationFlags } from './navigation.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { sessionNeedsSecondFactor } from './second-factor.ts';
import { queueSecurityNotice } from './security-notice.ts';
import { newToken, SESSION_TTL_MS, tokenDigest } from './session-token.ts';
import type { LoginOutcome, SessionUser } from './types.ts';

export { hashPassword };

export async function login(
  ctx: RequestContext,
  input: { email: string; password: string },
): Promise<LoginOutcome> {
  const email = input.email.trim().toLowerCase();
  const since = new Date(ctx.now.getTime() - LOGIN_WINDOW_MS);
  const recent = await ctx.db
    .select({
      email: loginAttempts.email,
      ip: loginAttempts.ipAddress,
      at: loginAttempts.attemptedAt,
    })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.succeeded, false),
        gt(loginAttempts.attemptedAt, since),
        sql`(lower(${loginAttempts.email}) = ${email} or ${loginAttempts.ipAddress} = ${ctx.ipAddress})`,
      ),
    );
  const [user] = await ctx.db
    .select({ id: users.id, passwordHash: users.passwordHash, isActive: users.isActive })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  const onAccount = recent.filter((f) => f.email.toLowerCase() === email);
  const failures: LoginFailures = {
    forAccountFromAddress: onAccount.filter((f) => f.ip === ctx.ipAddress).map((f) => f.at),
    forAddress: recent.filter((f) => f.ip === ctx.ipAddress).map((f) => f.at),
    forAccount: onAccount.map((f) => f.at),
    // Only asked when it can matter: the account's own limit is within reach.
    lastResetAt:
      user && onAccount.length >= MAX_FAILURES_PER_ACCOUNT - 1
        ? await lastPasswordReset(ctx.db, user.id)
        : null,
  };
  const decision = loginThrottle(failures, ctx.now);
  if (!decision.allowed)
    return { ok: false, reason: 'throttled', retryAfterMinutes: decision.retryAfterMinutes };

  const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
  const succeeded = valid && !!user?.isActive;
  const attempt = {
    email: email.slice(0, 254),
    ipAddress: ctx.ipAddress,
    succeeded,
    attemptedAt: ctx.now,
  };
  // Issue 37: the owner hears of many failed attempts, once, when they make everyone wait.
  const after = { ...failures, forAccount: [...failures.forAccount, ctx.now] };
  if (!succeeded && user?.isActive && accountJustLocked(after, ctx.now)) {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(loginAttempts).values(attempt);
      await queueSecurityNotice(tx, {
        userId: user.id,
        event: 'many-failed-logins',
        now: ctx.now,
        detail: String(MAX_FAILURES_PER_ACCOUNT),
      });
    });
  } else {
    // One statement needs no transaction of its own (issue 40: three round trips were one).
    await ctx.db.insert(loginAttempts).values(attempt);
  }
  return succeeded && user ? { ok: true, userId: user.id } : { ok: false, reason: 'invalid' };
}

/** When the account's password was last reset with a mailed link (login-throttle.ts). */
async function lastPasswordReset(db: Queryable, userId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | null>`max(${accountTokens.usedAt})` })
    .from(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, 'reset-password')));
  return row?.at ? new Date(row.at) : null;
}

/** Starts a session; the previous one, if any, is ended so its id cannot be reused (rotation). */
export async function startSession(
  db: Queryable,
  input: {
    userId: number;
    previousToken?: string | null;
    now: Date;
    userAgent?: string | null;
    /** The sign-in proved two factors (a code, or a user-verified passkey). */
    secondFactor?: boolean;
    /** Switch Account (issue 39): the manager acting as this user. */
    impersonatorId?: number;
    /** A fixed end instead of the sliding one (Switch Account: 30 minutes, decision 039). */
    expiresAt?: Date;
  },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = input.expiresAt ?? new Date(input.now.getTime() + SESSION_TTL_MS);
  const row = {
    idHash: tokenDigest(token),
    userId: input.userId,
    expiresAt,
    createdAt: input.now,
    lastSeenAt: input.now,
    userAgent: input.userAgent?.slice(0, 500) ?? null,
    secondFactor: input.secondFactor ?? false,
    impersonatorId: input.impersonatorId ?? null,
  };
  const previous = input.previousToken;
  if (previous) {
    await db.transaction(async (tx) => {
      await tx.delete(sessions).where(eq(sessions.idHash, tokenDigest(previous)));
      sessionCache.delete(tokenDigest(previous));
      await tx.insert(sessions).values(row);
    });
  } else {
    // A first session is one statement: no transaction of its own (issue 40: round trips).
    await db.insert(sessions).values(row);
  }
  return { token, expiresAt };
}

export async function endSession(db: Queryable, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, tokenDigest(token)));
  // Other processes hear of it from the database (migration 0007); this one forgets now.
  sessionCache.delete(tokenDigest(token));
}

export async function findSession(
  db: Queryable,
  token: string,
  now: Date,
): Promise<{ userId: number; impersonatorId: number | null } | null> {
  if (token.length > 100) return null;
  const [row] = await db
    .select({
      userId: sessions.userId,
      impersonatorId: sessions.impersonatorId,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(and(eq(sessions.idHash, tokenDigest(token)), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row?.userId) return null;
  if (row.impersonatorId === null) await slideSessionExpiry(db, token, row.lastSeenAt, now);
  return { userId: row.userId, impersonatorId: row.impersonatorId };
}

/**
 * Sliding expiry and 'last seen' (issue 20), written at most once in 5 minutes. Not for a
 * Switch Account session: it ends 30 minutes after it started, busy or not (issue 39).
 */
async function slideSessionExpiry(db: Queryable, token: string, lastSeenAt: Date, now: Date) {
  if (now.getTime() - lastSeenAt.getTime() <= LAST_SEEN_EVERY_MS) return;
  await db
    .update(sessions)
    .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
    .where(eq(sessions.idHash, tokenDigest(token)));
}

const sessionUserColumns = {
  user: users,
  flags: accountFlags,
  org: {
    isRetailer: organizations.isRetailer,
    buysOnPartnerSite: organizations.buysOnPartnerSite,
  },
  roles: sql<
    string[]
  >`array(select "role" from "user_roles" where "user_roles"."user_id" = "users"."id")`,
  instructor: sql<boolean>`exists(select 1 from "section_members" where "section_members"."user_id" = "users"."id" and "section_members"."is_classroom_instructor")`,
};

/**
 * Who acts through a Switch Account session, as the audit names them ('Alex Morgan
 * <manager@demo.test>'); null when they may no longer (locked, no longer a manager).
 */
const impersonatorLabelColumn = sql<
  string | null
>`(select trim("i"."first_name" || ' ' || "i"."last_name") || ' <' || "i"."email" || '>' from "users" "i" where "i"."id" = ${sessions.impersonatorId} and "i"."is_active" and exists(select 1 from "user_roles" "r" where "r"."user_id" = "i"."id" and "r"."role" = 'manager'))`;

/** The language that manager chose for themselves (null: none stored), read while they act. */
const impersonatorLanguageColumn = sql<
  string | null
>`(select "i"."language_code" from "users" "i" where "i"."id" = ${sessions.impersonatorId})`;

type SessionUserRow = {
  user: typeof users.$inferSelect;
  flags: typeof accountFlags.$inferSelect | null;
  org: { isRetailer: boolean | null; buysOnPartnerSite: boolean | null } | null;
  roles: string[];
  instructor: boolean;
};

/**
 * The user of a live session, in one round trip (every logged-in request pays for it):
 * session, account, flags, organisation, roles and the instructor flag together.
 */
export async function findSessionUser(
  db: Queryable,
  token: string,
  now: Date,
): Promise<SessionUser | null> {
  if (token.length > 100) return null;
  const digest = tokenDigest(token);
  const hit = sessionCache.get(digest);
  if (hit && hit.expiresAt > now) return hit.user;
  const [row] = await db
    .select({
      ...sessionUserColumns,
      impersonatorId: sessions.impersonatorId,
      impersonatorLabel: impersonatorLabelColumn,
      impersonatorLanguage: impersonatorLanguageColumn,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      secondFactor: sessions.secondFactor,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(accountFlags, eq(accountFlags.userId, users.id))
    .leftJoin(organizations, eq(organizations.id, users.orgId))
    .where(
      and(
        eq(sessions.idHash, tokenDigest(token)),
        gt(sessions.expiresAt, now),
        eq(users.isActive, true),
      ),
    )
    .limit(1);
  if (!row) return null;
  // A role that needs two factors, given to someone already signed in with one: that session
  // ends here, and the next sign-in asks the code (or its enrolment) first (issue 20).
  if (sessionNeedsSecondFactor({ roles: row.roles, secondFactor: row.secondFactor })) {
    await endSession(db, token);
    return null;
  }
  // Switch Account (issue 39): the manager acting as this user was locked or lost the role
  // that let them: the session acting for them ends with it.
  if (row.impersonatorId !== null && row.impersonatorLabel === null) {
    await endSession(db, token);
    return null;
  }
  if (row.impersonatorId === null) await slideSessionExpiry(db, token, row.lastSeenAt, now);
  const user = toSessionUser(row, row.impersonatorId, row.impersonatorLabel);
  if (row.impersonatorId !== null) user.impersonatorLanguage = row.impersonatorLanguage;
  sessionCache.set(digest, { user, expiresAt: row.expiresAt });
  return user;
}

// Every logged-in request needs its session's user: each process keeps the answer for up to
// 30 s, and forgets it the moment the account, its roles, flags or sections, or the session
// change anywhere (the server calls forgetAccounts on notification 'u:<id>', migration 0007).
const sessionCache = new TimedCache<string, { user: SessionUser; expiresAt: Date }>(30_000, 10_000);

/**
 * Drops what this process keeps about these accounts (they changed somewhere), with the
 * Switch Account sessions they act through: a manager locked or no longer a manager stops
 * acting as anyone at their next request (issue 39).
 */
export function forgetAccounts(userIds: readonly number[]): void {
  const ids = new Set(userIds);
  sessionCache.deleteWhere(
    ({ user }) => ids.has(user.id) || (user.impersonatorId != null && ids.has(user.impersonatorId)),
  );
  for (const forget of accountForgetters) forget(ids);
}

const accountForgetters: ((ids: Set<number>) => void)[] = [];

/** Lets another context's per-account cache be forgotten with the account (shelf ownerships). */
export function onAccountsChanged(forget: (ids: Set<number>) => void): void {
  accountForgetters.push(forget);
}

export async function loadSessionUser(
  db: Queryable,
  input: { userId: number; impersonatorId: number | null },
): Promise<SessionUser | null> {
  const [row] = await db
    .select(sessionUserColumns)
    .from(users)
    .leftJoin(accountFlags, eq(accountFlags.userId, users.id))
    .leftJoin(organizations, eq(organizations.id, users.orgId))
    .where(and(eq(users.id, input.userId), eq(users.isActive, true)))
    .limit(1);
  return row ? toSessionUser(row, input.impersonatorId) : null;
}

function toSessionUser(
  row: SessionUserRow,
  impersonatorId: number | null,
  impersonatorLabel: string | null = null,
): SessionUser {
  const roleNames = row.roles;
  const f = row.flags;
  const { user } = row;
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    languageCode: user.languageCode,
    timeZone: user.timeZone,
    mustAcceptEula: user.mustAcceptEula && !user.eulaAcceptedAt,
    emailVerified: user.emailVerifiedAt !== null,
    orgId: user.orgId,
    org:
      user.orgId && row.org
        ? {
            isRetailer: row.org.isRetailer ?? false,
            buysOnPartnerSite: row.org.buysOnPartnerSite ?? false,
          }
        : null,
    roles: roleNames,
    isImpersonating: impersonatorId !== null,
    impersonatorId,
    impersonatorLabel,
    flags: {
      isClassroomInstructor: row.instructor,
      hasAccessToCampusTools: f?.hasAccessToCampusTools ?? false,
      isCourseManagerEnabled: f?.isCourseManagerEnabled ?? false,
      hasAccessToBsmProductRequests: f?.hasAccessToBsmProductRequests ?? false,
      hasAccessToPubProductRequests: f?.hasAccessToPubProductRequests ?? false,
      isPostingEnabled: f?.isPostingEnabled ?? false,
      isManager: roleNames.includes('manager'),
      isImpersonating: impersonatorId !== null,
      hasAccessToMyUsers: f?.hasAccessToMyUsers ?? false,
      isSamplesEnabled: f?.isSamplesEnabled ?? false,
      isAnalyticsEnabled: f?.isAnalyticsEnabled ?? false,
      hasAccessToClaimCodeChecker: f?.hasAccessToClaimCodeChecker ?? false,
      isBookstoreManager: roleNames.includes('bookstore_manager'),
      myShelfEnabled: f?.myShelfEnabled ?? true,
    },
  };
}

/** The account flags of spec 1 §3 Login.navigationInfo, as seen on this site. */
export function navigationFlags(user: SessionUser, site: Site): NavigationFlags {
  return {
    ...user.flags,
    myShelfEnabled: user.flags.myShelfEnabled && site.myShelfEnabled,
    onWhiteLabel: site.whiteLabelId !== null,
    isDashboardEnabled: site.isDashboardEnabled,
    isCampusInsightsEnabled: site.isCampusInsightsEnabled,
  };
}

/** spec 2 §7 Change language: stored for logged-in users. */
export async function changeLanguage(ctx: RequestContext, language: string): Promise<Locale> {
  if (!isLocale(language) || !ctx.site.allowedLanguages.includes(language)) {
    throw new Invalid('language.error.unsupported');
  }
  if (ctx.user) {
    // Acting through Switch Account, the manager chooses the language they read in: their own
    // account's, never the person's they help (decision 039).
    const chooser = ctx.user.impersonatorId ?? ctx.user.id;
    await ctx.db.update(users).set({ languageCode: language }).where(eq(users.id, chooser));
    forgetAccounts([ctx.user.id, chooser]);
  }
  return language;
}

export async function acceptEula(ctx: RequestContext): Promise<void> {
  if (!ctx.user) return;
  await ctx.db
    .update(users)
    .set({ mustAcceptEula: false, eulaAcceptedAt: ctx.now })
    .where(eq(users.id, ctx.user.id));
  forgetAccounts([ctx.user.id]);
}

export async function createUser(
  db: Queryable,
  input: {
    email: string;
    password: string;
    firstName: string;
    lastName: string;
    orgId?: number | null;
  },
): Promise<number> {
  const [row] = await db
    .insert(users)
    .values({
      email: input.email.trim().toLowerCase(),
      passwordHash: await hashPassword(input.password),
      firstName: input.firstName,
      lastName: input.lastName,
      orgId: input.orgId ?? null,
    })
    .returning({ id: users.id });
  return row!.id;
}
