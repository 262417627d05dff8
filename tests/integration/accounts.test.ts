import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { accountTokens } from '#db/schema/account-tokens.ts';
import { outbox } from '#db/schema/events.ts';
import {
  createUser,
  endSession,
  findSession,
  findSessionUser,
  loadSessionUser,
  login,
  startSession,
} from '#domain/accounts/service.ts';
import { securityNoticeEmail } from '#domain/notifications/account-email.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

function context(ipAddress = unique('ip')): RequestContext {
  return testContext(database.db, { ipAddress });
}

describe('login (issue 2 §4)', () => {
  it('accepts the right password, case-insensitively on the e-mail, and refuses a wrong one', async () => {
    const email = `${unique('reader')}@example.test`;
    const id = await createUser(database.db, {
      email,
      password: 'correct horse',
      firstName: 'Ada',
      lastName: 'L',
    });
    expect(
      await login(context(), { email: email.toUpperCase(), password: 'correct horse' }),
    ).toEqual({ ok: true, userId: id });
    expect(await login(context(), { email, password: 'wrong' })).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await login(context(), { email: `nobody-${email}`, password: 'x' })).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  // Issue 37: five wrong passwords used to lock the owner out from any address.
  it('five failures from one address make that address wait, not the owner elsewhere', async () => {
    const email = `${unique('target')}@example.test`;
    const id = await createUser(database.db, {
      email,
      password: 'right-password',
      firstName: 'T',
      lastName: 'T',
    });
    const attacker = unique('attacker');
    for (let i = 0; i < 5; i += 1) {
      expect((await login(context(attacker), { email, password: `guess-${i}` })).ok).toBe(false);
    }
    expect(await login(context(attacker), { email, password: 'right-password' })).toMatchObject({
      ok: false,
      reason: 'throttled',
    });
    expect(await login(context(), { email, password: 'right-password' })).toEqual({
      ok: true,
      userId: id,
    });
  });

  it('twenty failures from many addresses: everyone waits, the owner is told once, a reset ends it', async () => {
    const email = `${unique('guessed')}@example.test`;
    const id = await createUser(database.db, {
      email,
      password: 'right-password',
      firstName: 'G',
      lastName: 'G',
    });
    for (let i = 0; i < 22; i += 1) {
      await login(context(), { email, password: `guess-${i}` });
    }
    expect(await login(context(), { email, password: 'right-password' })).toMatchObject({
      ok: false,
      reason: 'throttled',
    });
    const notices = await database.db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(
        and(
          eq(outbox.kind, 'security-notice'),
          sql`${outbox.payload}->>'userId' = ${String(id)}`,
          sql`${outbox.payload}->>'event' = 'many-failed-logins'`,
        ),
      );
    expect(notices).toHaveLength(1);
    const mail = await securityNoticeEmail(
      database.db,
      notices[0]!.payload as Parameters<typeof securityNoticeEmail>[1],
      'https://store.example',
    );
    expect(mail?.subject).toBe('Many attempts to sign in to your account');
    expect(mail?.text).toContain('with a wrong password 20 times in 15 minutes');
    expect(mail?.text).toContain('https://store.example/accounts/password/forgot/');
    // The owner follows a reset link: the wait is over.
    await database.db.insert(accountTokens).values({
      userId: id,
      purpose: 'reset-password',
      email,
      tokenHash: unique('reset-hash'),
      expiresAt: new Date(Date.now() + 3_600_000),
      usedAt: new Date(),
    });
    expect(await login(context(), { email, password: 'right-password' })).toEqual({
      ok: true,
      userId: id,
    });
  });

  it('stops one address spraying many accounts', async () => {
    const ip = unique('sprayer');
    for (let i = 0; i < 20; i += 1) {
      await login(context(ip), { email: `${unique('spray')}@example.test`, password: 'x' });
    }
    expect(
      await login(context(ip), { email: `${unique('spray')}@example.test`, password: 'x' }),
    ).toMatchObject({
      reason: 'throttled',
    });
  });
});

describe('sessions (issue 2 §4)', () => {
  it('a new session replaces the previous one (rotation) and logout ends it', async () => {
    const email = `${unique('session')}@example.test`;
    const userId = await createUser(database.db, {
      email,
      password: 'pw-123456',
      firstName: 'Sam',
      lastName: 'S',
    });
    const now = new Date();
    const first = await startSession(database.db, { userId, now });
    expect(await findSession(database.db, first.token, now)).toEqual({
      userId,
      impersonatorId: null,
    });
    const second = await startSession(database.db, { userId, previousToken: first.token, now });
    expect(await findSession(database.db, first.token, now)).toBeNull();
    expect(await findSession(database.db, second.token, now)).not.toBeNull();
    expect((await findSessionUser(database.db, second.token, now))?.id).toBe(userId);
    await endSession(database.db, second.token);
    expect(await findSession(database.db, second.token, now)).toBeNull();
    // The per-process session cache forgets an ended session at once.
    expect(await findSessionUser(database.db, second.token, now)).toBeNull();
  });

  it('an expired session is not found', async () => {
    const userId = await createUser(database.db, {
      email: `${unique('exp')}@example.test`,
      password: 'pw-123456',
      firstName: 'E',
      lastName: 'E',
    });
    const { token } = await startSession(database.db, { userId, now: new Date() });
    const later = new Date(Date.now() + 15 * 24 * 60 * 60 * 1000);
    expect(await findSession(database.db, token, later)).toBeNull();
  });

  it('a session user carries the account flags with safe defaults', async () => {
    const userId = await createUser(database.db, {
      email: `${unique('flags')}@example.test`,
      password: 'pw-123456',
      firstName: 'F',
      lastName: 'F',
    });
    const user = await loadSessionUser(database.db, { userId, impersonatorId: null });
    expect(user?.flags).toMatchObject({
      myShelfEnabled: true,
      isManager: false,
      isPostingEnabled: false,
    });
    expect(user?.mustAcceptEula).toBe(true);
  });
});
