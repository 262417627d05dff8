import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import {
  createUser,
  endSession,
  findSession,
  findSessionUser,
  loadSessionUser,
  login,
  startSession,
} from '#domain/accounts/service.ts';
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

  it('stops the sixth try on one account after five failures, even with the right password', async () => {
    const email = `${unique('target')}@example.test`;
    await createUser(database.db, {
      email,
      password: 'right-password',
      firstName: 'T',
      lastName: 'T',
    });
    for (let i = 0; i < 5; i += 1) {
      expect((await login(context(), { email, password: `guess-${i}` })).ok).toBe(false);
    }
    const outcome = await login(context(), { email, password: 'right-password' });
    expect(outcome).toMatchObject({ ok: false, reason: 'throttled' });
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
