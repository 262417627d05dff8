import { and, eq, isNotNull, or } from 'drizzle-orm';
import { sessions, userRoles, users } from '#db/schema/accounts.ts';
import { requestPasswordReset } from '#domain/accounts/password-reset.ts';
import { forgetAccounts, loadSessionUser } from '#domain/accounts/service.ts';
import { resendVerification } from '#domain/accounts/sign-up.ts';
import { auditActorOf, recordAudit } from '#domain/operations/audit.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Forbidden } from '#domain/shared/errors.ts';
import { type AccountChange, accountChangeRefusal, type GrantableRole } from './people-scope.ts';
import { type PersonAccount, personInScopeOf } from './person-view.ts';

// Issue 39, the help desk's actions on a person: lock and unlock, a new verification or reset
// mail, staff roles granted and revoked (managers only). Each is audited on the person
// ('user', their id) in the transaction that makes it, and reaches their sessions at once.

export type HelpdeskOutcome =
  | { ok: true; messageKey: string }
  | { ok: false; messageKey: string; params?: Record<string, number> };

/** The person, in the staff member's scope, if the staff member may make this change. */
async function target(
  ctx: RequestContext,
  userId: number,
  change: AccountChange,
): Promise<{ staff: NonNullable<RequestContext['user']>; person: PersonAccount }> {
  const staff = ctx.user;
  if (!staff) throw new Forbidden('error.loginRequired');
  const person = await personInScopeOf(ctx.db, staff, userId);
  const refusal = accountChangeRefusal(staff, person, change);
  if (refusal) throw new Forbidden(refusal);
  return { staff, person };
}

/**
 * Locks the account: it cannot sign in (login() refuses an inactive account) and every session
 * it has, or has opened as someone else, ends now (issue 39).
 */
export async function lockAccount(ctx: RequestContext, userId: number): Promise<HelpdeskOutcome> {
  const { staff, person } = await target(ctx, userId, 'lock');
  const changed = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(users)
      .set({ isActive: false })
      .where(and(eq(users.id, person.id), eq(users.isActive, true)))
      .returning({ id: users.id });
    if (rows.length === 0) return false;
    await tx
      .delete(sessions)
      .where(or(eq(sessions.userId, person.id), eq(sessions.impersonatorId, person.id)));
    await recordAudit(tx, auditActorOf(staff), {
      orgId: person.orgId,
      objectType: 'user',
      objectId: person.id,
      action: 'lock',
      before: { isActive: true },
      after: { isActive: false },
    });
    return true;
  });
  forgetAccounts([person.id]);
  if (!changed) throw new Conflict('ops.helpdesk.error.alreadyLocked');
  return { ok: true, messageKey: 'ops.helpdesk.done.locked' };
}

export async function unlockAccount(ctx: RequestContext, userId: number): Promise<HelpdeskOutcome> {
  const { staff, person } = await target(ctx, userId, 'unlock');
  const changed = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .update(users)
      .set({ isActive: true })
      .where(and(eq(users.id, person.id), eq(users.isActive, false)))
      .returning({ id: users.id });
    if (rows.length === 0) return false;
    await recordAudit(tx, auditActorOf(staff), {
      orgId: person.orgId,
      objectType: 'user',
      objectId: person.id,
      action: 'unlock',
      before: { isActive: false },
      after: { isActive: true },
    });
    return true;
  });
  forgetAccounts([person.id]);
  if (!changed) throw new Conflict('ops.helpdesk.error.alreadyUnlocked');
  return { ok: true, messageKey: 'ops.helpdesk.done.unlocked' };
}

/**
 * A new link to prove the address, or to reset the password: the same mails and throttles as
 * the person asking themselves (sign-up.ts, password-reset.ts), audited with the staff member.
 */
export async function sendAccountMail(
  ctx: RequestContext,
  userId: number,
  kind: 'verify' | 'reset',
): Promise<HelpdeskOutcome> {
  const { staff, person } = await target(ctx, userId, 'mail');
  if (!person.isActive) throw new Conflict('ops.helpdesk.error.locked');
  return ctx.db.transaction(async (tx) => {
    const asPerson = await loadSessionUser(tx, { userId: person.id, impersonatorId: null });
    if (!asPerson) throw new Conflict('ops.helpdesk.error.locked');
    const outcome =
      kind === 'verify'
        ? await resendVerification({ ...ctx, db: tx, user: asPerson })
        : await requestPasswordReset({ ...ctx, db: tx }, person.email);
    if (!outcome.ok) {
      if (outcome.reason === 'alreadyVerified') {
        return { ok: false, messageKey: 'ops.helpdesk.error.alreadyVerified' };
      }
      return {
        ok: false,
        messageKey: 'ops.helpdesk.error.throttled',
        params: { minutes: outcome.retryAfterMinutes },
      };
    }
    await recordAudit(tx, auditActorOf(staff), {
      orgId: person.orgId,
      objectType: 'user',
      objectId: person.id,
      action: kind === 'verify' ? 'mail.verify' : 'mail.reset',
      after: { to: person.email },
    });
    return {
      ok: true,
      messageKey:
        kind === 'verify' ? 'ops.helpdesk.done.verifySent' : 'ops.helpdesk.done.resetSent',
    };
  });
}

/**
 * Grants or revokes a staff role (managers only). The person's sessions see it at their next
 * request: the session cache forgets them here, other processes through the database's
 * notification, and a role that needs a second factor ends a session signed in without one
 * (issue 20, findSessionUser).
 */
export async function changeRole(
  ctx: RequestContext,
  userId: number,
  input: { role: GrantableRole; grant: boolean },
): Promise<HelpdeskOutcome> {
  const { staff, person } = await target(ctx, userId, 'role');
  const rolesText = (roles: readonly string[]) => [...roles].sort().join(', ');
  const changed = await ctx.db.transaction(async (tx) => {
    const rows = input.grant
      ? await tx
          .insert(userRoles)
          .values({ userId: person.id, role: input.role })
          .onConflictDoNothing()
          .returning({ role: userRoles.role })
      : await tx
          .delete(userRoles)
          .where(and(eq(userRoles.userId, person.id), eq(userRoles.role, input.role)))
          .returning({ role: userRoles.role });
    if (rows.length === 0) return false;
    // Nobody goes on acting as someone who now runs the store (impersonation.ts).
    if (input.grant) {
      await tx
        .delete(sessions)
        .where(and(eq(sessions.userId, person.id), isNotNull(sessions.impersonatorId)));
    }
    const after = input.grant
      ? [...person.roles, input.role]
      : person.roles.filter((role) => role !== input.role);
    await recordAudit(tx, auditActorOf(staff), {
      orgId: person.orgId,
      objectType: 'user',
      objectId: person.id,
      action: input.grant ? 'role.grant' : 'role.revoke',
      before: { roles: rolesText(person.roles) },
      after: { roles: rolesText(after) },
    });
    return true;
  });
  forgetAccounts([person.id]);
  if (!changed) {
    return {
      ok: false,
      messageKey: input.grant ? 'ops.helpdesk.error.hasRole' : 'ops.helpdesk.error.lacksRole',
    };
  }
  return {
    ok: true,
    messageKey: input.grant ? 'ops.helpdesk.done.granted' : 'ops.helpdesk.done.revoked',
  };
}
