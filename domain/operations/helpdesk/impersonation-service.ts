import type { Queryable } from '#db/client.ts';
import { forgetAccounts, startSession } from '#domain/accounts/service.ts';
import { sessionFacts } from '#domain/accounts/session-facts.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { auditActorOf, recordAudit } from '#domain/operations/audit.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Forbidden } from '#domain/shared/errors.ts';
import { impersonationExpiry, isRecordedWhileSwitched, switchRefusal } from './impersonation.ts';
import { personInScopeOf, switchActor } from './person-view.ts';

// Issue 39, Switch Account (decision 039). Starting it replaces the manager's session with a
// new one (a new cookie, as a sign-in rotates it) whose user is the person and whose
// impersonator is the manager, ending 30 minutes later whatever happens. Switching back
// replaces that one with a fresh session of the manager's own. Both are audited on the person.

function nameOf(user: Pick<SessionUser, 'firstName' | 'lastName' | 'email'>): string {
  return `${`${user.firstName} ${user.lastName}`.trim() || user.email} <${user.email}>`;
}

export async function startSwitch(
  ctx: RequestContext,
  input: { userId: number; sessionToken: string; userAgent: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const staff = ctx.user;
  if (!staff) throw new Forbidden('error.loginRequired');
  const person = await personInScopeOf(ctx.db, staff, input.userId);
  const refusal = switchRefusal(await switchActor(ctx.db, staff), person);
  if (refusal) throw new Forbidden(refusal);
  const own = await sessionFacts(ctx.db, input.sessionToken, ctx.now);
  if (!own || own.userId !== staff.id || own.impersonatorId !== null) {
    throw new Forbidden('error.loginRequired');
  }
  const session = await ctx.db.transaction(async (tx) => {
    const started = await startSession(tx, {
      userId: person.id,
      impersonatorId: staff.id,
      previousToken: input.sessionToken,
      now: ctx.now,
      userAgent: input.userAgent,
      // What the manager's sign-in proved comes back with their session (switchBack).
      secondFactor: own.secondFactor,
      expiresAt: impersonationExpiry(ctx.now),
    });
    await recordAudit(
      tx,
      {
        userId: staff.id,
        actingAsUserId: person.id,
        label: nameOf(staff),
      },
      {
        orgId: person.orgId,
        objectType: 'user',
        objectId: person.id,
        action: 'impersonate.start',
        after: { until: started.expiresAt.toISOString() },
      },
    );
    return started;
  });
  forgetAccounts([staff.id]);
  return session;
}

/**
 * Ends acting as the person: their session goes, and the manager gets a fresh session of
 * their own. A session that is not acting as anyone has nothing to end.
 */
export async function switchBack(
  ctx: RequestContext,
  input: { sessionToken: string; userAgent: string | null },
): Promise<{ token: string; expiresAt: Date; userId: number; managerId: number }> {
  const user = ctx.user;
  if (!user) throw new Forbidden('error.loginRequired');
  const facts = await sessionFacts(ctx.db, input.sessionToken, ctx.now);
  if (!facts || facts.impersonatorId === null || facts.userId !== user.id) {
    throw new Conflict('ops.helpdesk.switch.error.notSwitched');
  }
  const managerId = facts.impersonatorId;
  const session = await ctx.db.transaction(async (tx) => {
    await recordAudit(tx, auditActorOf(user), {
      orgId: user.orgId,
      objectType: 'user',
      objectId: user.id,
      action: 'impersonate.end',
    });
    return startSession(tx, {
      userId: managerId,
      previousToken: input.sessionToken,
      now: ctx.now,
      userAgent: input.userAgent,
      secondFactor: facts.secondFactor,
    });
  });
  forgetAccounts([user.id, managerId]);
  return { ...session, userId: user.id, managerId };
}

/**
 * Issue 39: every action taken while acting as someone is recorded with both identities. The
 * person's own actions (opting, cart, orders, profile) write no audit of their own, so the
 * server asks this of every request made through a Switch Account session, and those that may
 * change something (isRecordedWhileSwitched) are recorded: the method and the path, never the
 * body (it may hold a password or a card).
 */
export async function recordImpersonatedRequest(
  db: Queryable,
  user: SessionUser,
  request: { method: string; path: string },
): Promise<void> {
  if (!user.isImpersonating || !isRecordedWhileSwitched(request.method, request.path)) return;
  await recordAudit(db, auditActorOf(user), {
    orgId: user.orgId,
    objectType: 'user',
    objectId: user.id,
    action: 'impersonate.request',
    after: { request: `${request.method} ${request.path}`.slice(0, 500) },
  });
}
