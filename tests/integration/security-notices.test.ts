import { and, desc, eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { outbox } from '#db/schema/events.ts';
import { passkeys } from '#db/schema/second-factor.ts';
import { removePasskey } from '#domain/accounts/passkey-service.ts';
import { changePassword } from '#domain/accounts/profile.ts';
import {
  confirmTotpEnrolment,
  renewRecoveryCodes,
  startTotpEnrolment,
  turnOffTotp,
} from '#domain/accounts/second-factor-service.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import { securityNoticeEmail } from '#domain/notifications/account-email.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 20: a change to how an account signs in is mailed to its owner, through the outbox,
// in the same transaction as the change, in the owner's language and time zone.

const PASSWORD = 'correct horse battery';
const ORIGIN = 'http://127.0.0.1:3000';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function person(language = 'en', timeZone = 'America/New_York') {
  const userId = await createUser(database.db, {
    email: `${unique('notice')}@example.test`,
    password: PASSWORD,
    firstName: 'Robin',
    lastName: 'Hale',
  });
  await database.db
    .update(users)
    .set({ languageCode: language, timeZone })
    .where(eq(users.id, userId));
  const user = await loadSessionUser(database.db, { userId, impersonatorId: null });
  return { userId, user: user! };
}

/** The notices queued for this account, newest first, as their mails. */
async function notices(userId: number) {
  const rows = await database.db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(
      and(eq(outbox.kind, 'security-notice'), sql`(${outbox.payload}->>'userId')::int = ${userId}`),
    )
    .orderBy(desc(outbox.id));
  return Promise.all(
    rows.map(async ({ payload }) => {
      const p = payload as { userId: number; event: string; at: string; detail?: string };
      return { event: p.event, mail: await securityNoticeEmail(database.db, p, ORIGIN) };
    }),
  );
}

describe('security notices (issue 20)', () => {
  it('a password change is told to the account, with the time in its zone and what to do if it was not them', async () => {
    const { userId, user } = await person('en', 'America/Los_Angeles');
    const now = new Date('2026-11-27T20:05:00Z');
    const ctx = testContext(database.db, { user, now });
    await changePassword(ctx, {
      currentPassword: 'wrong password here',
      newPassword: 'new river lantern',
      sessionToken: null,
    });
    expect(await notices(userId)).toEqual([]);
    expect(
      await changePassword(ctx, {
        currentPassword: PASSWORD,
        newPassword: 'new river lantern',
        sessionToken: null,
      }),
    ).toEqual({ ok: true });
    const [notice] = await notices(userId);
    expect(notice?.event).toBe('password-changed');
    expect(notice?.mail).toMatchObject({ to: user.email, subject: 'Your password was changed' });
    expect(notice?.mail?.text).toContain(
      'The password of your account was changed on November 27, 2026 at 12:05 PM PST. Your other devices were signed out.',
    );
    expect(notice?.mail?.text).toContain('If this was you, there is nothing to do.');
    expect(notice?.mail?.text).toContain(`${ORIGIN}/accounts/password/forgot/`);
  });

  it('two-step verification on, new recovery codes, and off: each told, in French for a French account', async () => {
    const { userId, user } = await person('fr-CA', 'America/Toronto');
    const now = new Date();
    const ctx = testContext(database.db, { user, now });
    const setup = await startTotpEnrolment(ctx, userId);
    const code = await generate({ secret: setup.secret, epoch: Math.floor(now.getTime() / 1000) });
    expect((await confirmTotpEnrolment(ctx, { userId, code })).ok).toBe(true);
    await renewRecoveryCodes(ctx, userId);
    await turnOffTotp(ctx, { id: userId, roles: [] });
    const told = await notices(userId);
    expect(told.map((n) => n.event)).toEqual(['totp-off', 'recovery-codes-renewed', 'totp-on']);
    expect(told.map((n) => n.mail?.subject)).toEqual([
      'La vérification en deux étapes a été désactivée',
      'De nouveaux codes de récupération ont été créés',
      'La vérification en deux étapes est activée',
    ]);
    expect(told[0]?.mail?.text).toContain('Si c’était vous, vous n’avez rien à faire.');
    // The time in the account's zone, said (Toronto in November: HNE).
    expect(told[2]?.mail?.text).toMatch(
      /La vérification en deux étapes a été activée pour votre compte le .+ \d{1,2} h \d{2} HNE\./,
    );
  });

  it('removing a passkey names it; removing another user’s changes and tells nothing', async () => {
    const { userId, user } = await person();
    const other = await person();
    const [key] = await database.db
      .insert(passkeys)
      .values({ userId, credentialId: unique('cred'), publicKey: 'AAAA', name: 'Work laptop' })
      .returning({ id: passkeys.id });
    const otherCtx = testContext(database.db, { user: other.user });
    await expect(
      removePasskey(otherCtx, { userId: other.userId, passkeyId: key!.id }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await notices(userId)).toEqual([]);
    expect(await notices(other.userId)).toEqual([]);
    await removePasskey(testContext(database.db, { user }), { userId, passkeyId: key!.id });
    const [notice] = await notices(userId);
    expect(notice?.mail?.subject).toBe('A passkey was removed from your account');
    expect(notice?.mail?.text).toContain('The passkey named “Work laptop” was removed');
  });

  it('a closed account is sent no notice', async () => {
    const { userId, user } = await person();
    await changePassword(testContext(database.db, { user }), {
      currentPassword: PASSWORD,
      newPassword: 'new river lantern',
      sessionToken: null,
    });
    await database.db.update(users).set({ isActive: false }).where(eq(users.id, userId));
    const [notice] = await notices(userId);
    expect(notice).toEqual({ event: 'password-changed', mail: null });
  });
});
