import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { userRoles } from '#db/schema/accounts.ts';
import { passkeys, recoveryCodes, totpAuthenticators } from '#db/schema/second-factor.ts';
import { listPasskeys, removePasskey } from '#domain/accounts/passkey-service.ts';
import {
  afterFirstFactor,
  confirmIdentity,
  confirmTotpEnrolment,
  finishEnrolment,
  pendingEnrolment,
  secondFactorStatus,
  startTotpEnrolment,
  turnOffTotp,
  verifySecondFactor,
} from '#domain/accounts/second-factor-service.ts';
import {
  createUser,
  findSessionUser,
  forgetAccounts,
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

function context(overrides: Partial<RequestContext> = {}): RequestContext {
  return testContext(database.db, overrides);
}

async function person(role?: 'manager' | 'bookstore_manager'): Promise<number> {
  const id = await createUser(database.db, {
    email: `${unique('second-factor')}@example.test`,
    password: 'correct horse battery',
    firstName: 'Robin',
    lastName: 'Hale',
  });
  if (role) await database.db.insert(userRoles).values({ userId: id, role });
  return id;
}

const codeAt = (secret: string, when: Date) =>
  generate({ secret, epoch: Math.floor(when.getTime() / 1000) });

/** A manager who enrolled at sign-in, with the secret and recovery codes they were shown. */
async function enrolledManager(now: Date) {
  const userId = await person('manager');
  const ctx = context({ now });
  const first = await afterFirstFactor(ctx, {
    userId,
    method: 'password',
    next: '/manage/courseware-tools',
    anonymousKey: null,
  });
  expect(first.step).toBe('enrol');
  const token = first.step === 'session' ? '' : first.token;
  const setup = await startTotpEnrolment(ctx, userId);
  const confirmed = await confirmTotpEnrolment(ctx, {
    userId,
    code: await codeAt(setup.secret, now),
  });
  if (!confirmed.ok) throw new Error(`enrolment refused: ${confirmed.reason}`);
  expect(await finishEnrolment(ctx, token)).toMatchObject({
    userId,
    next: '/manage/courseware-tools',
  });
  return { userId, secret: setup.secret, recovery: confirmed.recoveryCodes };
}

async function secondStep(userId: number, now: Date): Promise<string> {
  const after = await afterFirstFactor(context({ now }), {
    userId,
    method: 'password',
    next: '/',
    anonymousKey: 'guest-cart-key',
  });
  if (after.step !== 'second-factor') throw new Error(`expected a second step, got ${after.step}`);
  return after.token;
}

describe('the second factor (issue 20)', () => {
  it('issue 20: a student signs in on the password alone; a manager must enrol first', async () => {
    const student = await person();
    expect(
      await afterFirstFactor(context(), {
        userId: student,
        method: 'password',
        next: '/',
        anonymousKey: null,
      }),
    ).toEqual({ step: 'session' });
    const manager = await person('bookstore_manager');
    const after = await afterFirstFactor(context(), {
      userId: manager,
      method: 'password',
      next: '/',
      anonymousKey: null,
    });
    expect(after.step).toBe('enrol');
    expect(
      await pendingEnrolment(context(), after.step === 'session' ? null : after.token),
    ).toMatchObject({ userId: manager });
  });

  it('issue 20: the enrolment gives ten recovery codes, stored only as digests', async () => {
    const { userId, recovery } = await enrolledManager(new Date());
    expect(recovery).toHaveLength(10);
    const stored = await database.db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, userId));
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(recovery).not.toContain(row.codeDigest);
    const [authenticator] = await database.db
      .select()
      .from(totpAuthenticators)
      .where(eq(totpAuthenticators.userId, userId));
    expect(authenticator?.secretCiphertext).toMatch(/^v1\./);
    expect(await secondFactorStatus(context(), { id: userId, roles: ['manager'] })).toEqual({
      totpOn: true,
      required: true,
      mayTurnOff: false,
      recoveryCodesLeft: 10,
    });
  });

  it('issue 20: a code passes the second step once; the same code again is refused', async () => {
    const start = new Date('2026-11-27T12:00:05Z');
    const { userId, secret } = await enrolledManager(start);
    const later = new Date(start.getTime() + 60_000);
    const code = await codeAt(secret, later);
    const token = await secondStep(userId, later);
    expect(await verifySecondFactor(context({ now: later }), { token, code })).toEqual({
      ok: true,
      pending: { userId, next: '/', anonymousKey: 'guest-cart-key', secondFactor: true },
    });
    // The step is used up, and the code cannot open another one.
    expect(await verifySecondFactor(context({ now: later }), { token, code })).toEqual({
      ok: false,
      reason: 'expired',
    });
    const again = await secondStep(userId, later);
    expect(await verifySecondFactor(context({ now: later }), { token: again, code })).toEqual({
      ok: false,
      reason: 'replayed',
    });
  });

  it('issue 20: a recovery code signs in once; its second use is refused', async () => {
    const { userId, recovery } = await enrolledManager(new Date());
    const code = recovery[3]!.toUpperCase();
    const first = await secondStep(userId, new Date());
    expect((await verifySecondFactor(context(), { token: first, code })).ok).toBe(true);
    const second = await secondStep(userId, new Date());
    expect(await verifySecondFactor(context(), { token: second, code })).toEqual({
      ok: false,
      reason: 'recovery-used',
    });
    // A code that was never theirs is only 'not correct'.
    expect(
      await verifySecondFactor(context(), { token: second, code: 'aaaaa-bbbbb' }),
    ).toMatchObject({ ok: false, reason: 'invalid' });
    expect(
      (await secondFactorStatus(context(), { id: userId, roles: ['manager'] })).recoveryCodesLeft,
    ).toBe(9);
  });

  it('issue 20: after five wrong codes the account waits, even for the right one', async () => {
    const now = new Date();
    const { userId, secret } = await enrolledManager(new Date(now.getTime() - 120_000));
    const token = await secondStep(userId, now);
    for (let i = 0; i < 5; i += 1) {
      const outcome = await verifySecondFactor(context({ now }), { token, code: '000000' });
      expect(outcome.ok).toBe(false);
    }
    const right = await codeAt(secret, now);
    expect(await verifySecondFactor(context({ now }), { token, code: right })).toEqual({
      ok: false,
      reason: 'throttled',
      retryAfterMinutes: 15,
    });
  });

  it('issue 20, decision 021: a passkey sign-in needs no code, even for a manager', async () => {
    const { userId } = await enrolledManager(new Date());
    expect(
      await afterFirstFactor(context(), {
        userId,
        method: 'passkey',
        next: '/',
        anonymousKey: null,
      }),
    ).toEqual({ step: 'session' });
  });

  it('issue 20: a student made a bookstore manager while signed in is signed out; a session with two factors stays', async () => {
    const userId = await person();
    const now = new Date();
    const oneFactor = await startSession(database.db, { userId, now });
    const twoFactors = await startSession(database.db, { userId, now, secondFactor: true });
    expect((await findSessionUser(database.db, oneFactor.token, now))?.id).toBe(userId);
    await database.db.insert(userRoles).values({ userId, role: 'bookstore_manager' });
    forgetAccounts([userId]); // what the role change's notification does in every process
    expect(await findSessionUser(database.db, oneFactor.token, now)).toBeNull();
    // Ended, not only refused: the role taken back does not bring it back.
    await database.db.delete(userRoles).where(eq(userRoles.userId, userId));
    forgetAccounts([userId]);
    expect(await findSessionUser(database.db, oneFactor.token, now)).toBeNull();
    expect((await findSessionUser(database.db, twoFactors.token, now))?.id).toBe(userId);
  });

  it('issue 20: a manager cannot turn the second factor off; a student can', async () => {
    const { userId } = await enrolledManager(new Date());
    await expect(turnOffTotp(context(), { id: userId, roles: ['manager'] })).rejects.toMatchObject({
      status: 403,
    });
    const student = await person();
    const setup = await startTotpEnrolment(context(), student);
    const confirmed = await confirmTotpEnrolment(context(), {
      userId: student,
      code: await codeAt(setup.secret, new Date()),
    });
    expect(confirmed.ok).toBe(true);
    await turnOffTotp(context(), { id: student, roles: [] });
    expect((await secondFactorStatus(context(), { id: student, roles: [] })).totpOn).toBe(false);
  });

  it('issue 20: removing a passkey asks the password, and never removes another user’s', async () => {
    const owner = await person();
    const other = await person();
    const [row] = await database.db
      .insert(passkeys)
      .values({ userId: owner, credentialId: unique('cred'), publicKey: 'AQID', name: 'Laptop' })
      .returning({ id: passkeys.id });
    expect(
      await confirmIdentity(context(), { userId: owner, password: 'wrong', sessionToken: null }),
    ).toBe(false);
    expect(
      await confirmIdentity(context(), {
        userId: owner,
        password: 'correct horse battery',
        sessionToken: null,
      }),
    ).toBe(true);
    await expect(
      removePasskey(context(), { userId: other, passkeyId: row!.id }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await listPasskeys(context(), owner)).toHaveLength(1);
    await removePasskey(context(), { userId: owner, passkeyId: row!.id });
    expect(await listPasskeys(context(), owner)).toEqual([]);
  });
});
