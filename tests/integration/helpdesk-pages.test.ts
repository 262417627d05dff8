import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { accountFlags, userRoles, users } from '#db/schema/accounts.ts';
import { organizations } from '#db/schema/sites.ts';
import { findSessionUser, loadSessionUser, startSession } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { startSwitch } from '#domain/operations/helpdesk/impersonation-service.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { loader as profileLoader } from '#web/accounts/profile.tsx';
import { action as checkoutAction } from '#web/commerce/checkout.tsx';
import { loader as termsLoader } from '#web/manage/courses/terms.tsx';
import { loader as searchLoader } from '#web/manage/helpdesk/people-search.tsx';
import {
  action as personAction,
  loader as personLoader,
} from '#web/manage/helpdesk/person-page.tsx';

// Issue 39, the help desk's pages: "Hostile input: clear 4xx, nothing changed, never a 500";
// each tool opens for those its menu item shows to; Switch Account refuses the person's
// password, payment and the like with a 403 that says why.

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function account(
  input: {
    orgId?: number;
    roles?: string[];
    flags?: Partial<typeof accountFlags.$inferInsert>;
  } = {},
  impersonatorId: number | null = null,
): Promise<SessionUser> {
  const [row] = await database.db
    .insert(users)
    .values({
      email: `${unique('hdp')}@example.test`,
      firstName: 'Rosa',
      lastName: 'Diaz',
      orgId: input.orgId ?? null,
    })
    .returning({ id: users.id });
  for (const role of input.roles ?? [])
    await database.db.insert(userRoles).values({ userId: row!.id, role });
  await database.db.insert(accountFlags).values({ userId: row!.id, ...input.flags });
  return (await loadSessionUser(database.db, { userId: row!.id, impersonatorId }))!;
}

/** The status a loader or action answered or threw, and its data. */
async function run(
  fn: (args: never) => Promise<unknown>,
  user: SessionUser | null,
  url: string,
  params: Record<string, string> = {},
  form?: Record<string, string>,
): Promise<{ status: number; data: unknown }> {
  try {
    const answer = (await fn({
      request: new Request(
        `http://127.0.0.1${url}`,
        form ? { method: 'POST', body: new URLSearchParams(form) } : {},
      ),
      params,
      context: testWebContext(database, { user }),
    } as never)) as { data?: unknown; init?: { status?: number } | null };
    if (answer && typeof answer === 'object' && 'init' in answer) {
      return { status: answer.init?.status ?? 200, data: answer.data };
    }
    return { status: 200, data: answer };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, data: null };
    const error = thrown as { init?: { status?: number }; data?: unknown };
    if (error.init?.status) return { status: error.init.status, data: error.data };
    throw thrown;
  }
}

describe('the help desk pages refuse hostile input and strangers (issue 39)', () => {
  it('issue 39: the tool opens for managers who post and for My Users; a student is forbidden', async () => {
    const manager = await account({ roles: ['manager'], flags: { isPostingEnabled: true } });
    const support = await account({ roles: ['support'], flags: { hasAccessToMyUsers: true } });
    const student = await account();
    expect((await run(searchLoader, manager, '/manage/users')).status).toBe(200);
    expect((await run(searchLoader, support, '/manage/my-users')).status).toBe(200);
    expect((await run(searchLoader, student, '/manage/users')).status).toBe(403);
    expect((await run(searchLoader, null, '/manage/users')).status).toBe(302);
    // Each entry page opens for its own menu item's people only (one rule for item and page):
    // whoever's menu shows My Users is refused Users, and the reverse; the person page, shared
    // by both tools, opens for either.
    expect((await run(searchLoader, support, '/manage/users')).status).toBe(403);
    expect((await run(searchLoader, support, '/manage/users.data')).status).toBe(403);
    expect((await run(searchLoader, manager, '/manage/my-users')).status).toBe(403);
    const userId = String(student.id);
    expect((await run(personLoader, support, `/manage/users/${userId}`, { userId })).status).toBe(
      200,
    );
  });

  it('issue 39: Course Manager and Course Admin each open from their own menu item only', async () => {
    const campus = await org();
    const bookstore = await account({
      orgId: campus,
      roles: ['bookstore_manager'],
      flags: { isCourseManagerEnabled: true },
    });
    const manager = await account({ roles: ['manager'], flags: { isPostingEnabled: true } });
    expect((await run(termsLoader, bookstore, '/manage/course-manager')).status).toBe(200);
    expect((await run(termsLoader, bookstore, '/manage/course-admin')).status).toBe(403);
    expect((await run(termsLoader, manager, '/manage/course-admin')).status).toBe(200);
  });

  it('issue 39: a malformed or huge search, id or form is a 4xx that changes nothing', async () => {
    const manager = await account({ roles: ['manager'], flags: { isPostingEnabled: true } });
    const riverbend = await org();
    const student = await account({ orgId: riverbend });
    expect(await run(searchLoader, manager, `/manage/users?q=${'x'.repeat(5000)}`)).toMatchObject({
      status: 400,
      data: { error: 'ops.helpdesk.search.error.tooLong' },
    });
    expect((await run(searchLoader, manager, '/manage/users?q=a%00b')).status).toBe(400);
    for (const userId of ['0x10', '1e3', '-1', '99999999999', 'abc']) {
      expect((await run(personLoader, manager, `/manage/users/${userId}`, { userId })).status).toBe(
        404,
      );
    }
    const userId = String(student.id);
    for (const form of <Record<string, string>[]>[
      {},
      { intent: 'explode' },
      { intent: 'grant', role: 'admin' },
      { intent: 'grant', role: 'x'.repeat(10_000) },
      { intent: 'lock', confirm: 'maybe' },
    ]) {
      expect(
        (await run(personAction, manager, `/manage/users/${userId}`, { userId }, form)).status,
      ).toBe(400);
    }
    // A lock asks for confirmation first; only the second post locks.
    expect(
      await run(personAction, manager, `/manage/users/${userId}`, { userId }, { intent: 'lock' }),
    ).toMatchObject({
      status: 200,
      data: { ok: 'confirm', intent: 'lock' },
    });
    const [before] = await database.db.select().from(users).where(eq(users.id, student.id));
    expect(before?.isActive).toBe(true);
    expect(
      await run(
        personAction,
        manager,
        `/manage/users/${userId}`,
        { userId },
        { intent: 'lock', confirm: 'yes' },
      ),
    ).toMatchObject({ status: 200, data: { ok: true, messageKey: 'ops.helpdesk.done.locked' } });
  });

  it("issue 39: another campus's staff get 404 for the student's page and its actions", async () => {
    const riverbend = await org();
    const lakeshore = await org();
    const student = await account({ orgId: riverbend });
    const lakeStaff = await account({
      orgId: lakeshore,
      roles: ['bookstore_manager'],
      flags: { hasAccessToMyUsers: true },
    });
    const userId = String(student.id);
    expect((await run(personLoader, lakeStaff, `/manage/users/${userId}`, { userId })).status).toBe(
      404,
    );
    expect(
      (
        await run(
          personAction,
          lakeStaff,
          `/manage/users/${userId}`,
          { userId },
          { intent: 'lock', confirm: 'yes' },
        )
      ).status,
    ).toBe(404);
    const [after] = await database.db.select().from(users).where(eq(users.id, student.id));
    expect(after?.isActive).toBe(true);
  });

  it('issue 39: acting as someone, their password and payment are refused with a 403 that says why', async () => {
    const manager = await account({ roles: ['manager'] });
    const acting = await account({}, manager.id);
    expect(await run(profileLoader, acting, '/account/profile')).toMatchObject({
      status: 403,
      data: { messageKey: 'ops.helpdesk.impersonation.refused.password' },
    });
    expect(await run(checkoutAction, acting, '/checkout', {}, { intent: 'start' })).toMatchObject({
      status: 403,
      data: { messageKey: 'ops.helpdesk.impersonation.refused.payment' },
    });
    const own = await account();
    expect((await run(profileLoader, own, '/account/profile')).status).toBe(200);
  });
});

describe("the help desk's changes reach the person's next request (issue 39)", () => {
  /** What the server does with a request's session cookie (server/app.ts): its user, or none. */
  const requestOf = (token: string) => findSessionUser(database.db, token, new Date());

  it("issue 39: a manager revokes a role, or locks the account, from their own session; the person's next request no longer opens the tool", async () => {
    const manager = await account({ roles: ['manager'], flags: { isPostingEnabled: true } });
    const person = await account({ roles: ['manager'], flags: { isPostingEnabled: true } });
    const now = new Date();
    const managerSession = await startSession(database.db, {
      userId: manager.id,
      now,
      secondFactor: true,
    });
    const personSession = await startSession(database.db, {
      userId: person.id,
      now,
      secondFactor: true,
    });
    const userId = String(person.id);
    // Both sessions open their tools (and the person's is now kept by this process).
    const before = await requestOf(personSession.token);
    expect((await run(searchLoader, before, '/manage/users')).status).toBe(200);
    const revoke = { intent: 'revoke', role: 'manager', confirm: 'yes' };
    expect(
      await run(
        personAction,
        await requestOf(managerSession.token),
        `/manage/users/${userId}`,
        { userId },
        revoke,
      ),
    ).toMatchObject({ status: 200, data: { ok: true, messageKey: 'ops.helpdesk.done.revoked' } });
    const after = await requestOf(personSession.token);
    expect(after?.roles).toEqual([]);
    expect((await run(searchLoader, after, '/manage/users')).status).toBe(403);

    // Granted again, it opens at once; locked, the session is gone.
    const grant = { intent: 'grant', role: 'manager' };
    await run(
      personAction,
      await requestOf(managerSession.token),
      `/manage/users/${userId}`,
      { userId },
      grant,
    );
    expect(
      (await run(searchLoader, await requestOf(personSession.token), '/manage/users')).status,
    ).toBe(200);
    expect(
      await run(
        personAction,
        await requestOf(managerSession.token),
        `/manage/users/${userId}`,
        { userId },
        { intent: 'lock', confirm: 'yes' },
      ),
    ).toMatchObject({ status: 200, data: { ok: true, messageKey: 'ops.helpdesk.done.locked' } });
    expect(await requestOf(personSession.token)).toBeNull();
    expect((await run(searchLoader, null, '/manage/users')).status).toBe(302);
    // The manager's own session is untouched.
    expect((await requestOf(managerSession.token))?.id).toBe(manager.id);
  });

  it('issue 39: a manager who loses the role stops acting as anyone at the next request, even where the session was kept', async () => {
    const boss = await account({ roles: ['manager'], flags: { isPostingEnabled: true } });
    const manager = await account({ roles: ['manager'], flags: { canImpersonate: true } });
    const student = await account();
    const now = new Date();
    const own = await startSession(database.db, {
      userId: manager.id,
      now,
      secondFactor: true,
    });
    const switched = await startSwitch(testContext(database.db, { user: manager, now }), {
      userId: student.id,
      sessionToken: own.token,
      userAgent: null,
    });
    expect((await requestOf(switched.token))?.impersonatorId).toBe(manager.id);
    const userId = String(manager.id);
    expect(
      await run(
        personAction,
        boss,
        `/manage/users/${userId}`,
        { userId },
        { intent: 'revoke', role: 'manager', confirm: 'yes' },
      ),
    ).toMatchObject({ status: 200, data: { ok: true } });
    expect(await requestOf(switched.token)).toBeNull();
  });
});

async function org(): Promise<number> {
  const [row] = await database.db
    .insert(organizations)
    .values({ title: unique('Campus') })
    .returning({ id: organizations.id });
  return row!.id;
}
