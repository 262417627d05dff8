import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { accountTokens } from '#db/schema/account-tokens.ts';
import { sessions, users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { outbox } from '#db/schema/events.ts';
import { sectionInvitations } from '#db/schema/section-invitations.ts';
import { organizations } from '#db/schema/sites.ts';
import { redeemCode } from '#domain/access/redeem.ts';
import { deviceSessions, endDeviceSession } from '#domain/accounts/device-sessions.ts';
import { MAX_SIGN_UPS_PER_IP } from '#domain/accounts/mail-request-throttle.ts';
import { requestPasswordReset, resetPassword } from '#domain/accounts/password-reset.ts';
import { requestAccountDeletion } from '#domain/accounts/privacy.ts';
import {
  changePassword,
  confirmEmailChange,
  requestEmailChange,
} from '#domain/accounts/profile.ts';
import { findSession, loadSessionUser, login, startSession } from '#domain/accounts/service.ts';
import { newToken, tokenDigest } from '#domain/accounts/session-token.ts';
import { resendVerification, signUp, verifyEmail } from '#domain/accounts/sign-up.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import {
  accountLinkEmail,
  emailChangeNotice,
  signUpExistingEmail,
} from '#domain/notifications/account-email.ts';
import { withMailHost } from '#domain/shared/mail-host.ts';
import { addFreeBook } from '#domain/shelf/free-book.ts';
import { runOutboxOnce } from '#server/outbox-worker.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { action as confirmRoute } from '#web/accounts/email-confirm.tsx';
import { action as verifyLinkRoute } from '#web/accounts/verify-link.tsx';

// Issue 20: sign up, prove the address, forget the password, change address and password,
// and the signed-in devices, through the services on the test database.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const ORIGIN = 'http://shop.test';
const PASSWORD = 'violet kettle harbour';

/** The mail of the account's latest link of this purpose, as the outbox worker writes it. */
async function latestLinkMail(userId: number, purpose: string) {
  const [row] = await database.db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose)))
    .orderBy(desc(accountTokens.id))
    .limit(1);
  // Taken out of the shared outbox so that no other file's worker sends it meanwhile.
  const [queued] = await database.db
    .update(outbox)
    .set({ sentAt: new Date() })
    .where(eq(outbox.dedupeKey, `account-link:${row!.id}`))
    .returning({ payload: outbox.payload });
  const payload = { tokenId: row!.id, next: queued!.payload.next };
  const mail = await accountLinkEmail(database.db, payload, ORIGIN, new Date());
  const token = /\/([\w-]{40,})(?:\?|$)/m.exec(mail!.text)?.[1];
  return { mail: mail!, token: token! };
}

async function newAccount(language = 'en', email = `${unique('new')}@example.test`) {
  const ctx = testContext(database.db);
  const outcome = await signUp(ctx, {
    firstName: 'Noor',
    lastName: 'Haddad',
    email,
    password: PASSWORD,
    language,
    next: '/checkout/',
  });
  if (!outcome.ok || outcome.userId === null) throw new Error(JSON.stringify(outcome));
  return { email, userId: outcome.userId };
}

const sessionUser = async (userId: number) =>
  (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;

describe('sign up and verify (issue 20)', () => {
  it('a new account is unverified, mailed a link in its language, and refused a purchase until it follows it', async () => {
    const { email, userId } = await newAccount('fr-CA');
    expect((await sessionUser(userId)).emailVerified).toBe(false);
    const { mail, token } = await latestLinkMail(userId, 'verify-email');
    expect(mail.to).toBe(email);
    expect(mail.subject).toBe('Confirmez votre adresse courriel');
    expect(mail.text).toContain(`${ORIGIN}/accounts/verify/${token}?next=%2Fcheckout%2F`);

    const productId = await insertProduct(
      database.db,
      { title: unique('Signup') },
      { priceCents: 1500 },
    );
    const [offer] = await database.db
      .select({ id: offerings.id })
      .from(offerings)
      .where(eq(offerings.productId, productId));
    const ctx = testContext(database.db, { user: await sessionUser(userId) });
    await putInCart(ctx, { userId }, { offeringId: offer!.id });
    await expect(placeOrder(ctx, { idempotencyKey: unique('key-signup') })).rejects.toMatchObject({
      messageKey: 'verify.error.required',
      status: 403,
    });

    expect(await verifyEmail(testContext(database.db), token)).toEqual({
      ok: true,
      userId,
      sameDevice: false,
    });
    expect((await sessionUser(userId)).emailVerified).toBe(true);
    // Single use.
    expect(await verifyEmail(testContext(database.db), token)).toEqual({
      ok: false,
      messageKey: 'token.error.used',
    });
    const verified = testContext(database.db, { user: await sessionUser(userId) });
    const { created } = await placeOrder(verified, { idempotencyKey: unique('key-signup') });
    expect(created).toBe(true);
  });

  // Issue 38: the link signs in on the device that signed up, and nowhere else by itself.
  it('issue 38: confirmed in the browser that signed up, the account is signed in and goes on to next; in another, the sign-in page comes first', async () => {
    const device = newToken();
    const signUpIn = async (marker: string) => {
      const email = `${unique('device')}@example.test`;
      const outcome = await signUp(testContext(database.db), {
        firstName: 'Noor',
        lastName: 'Haddad',
        email,
        password: PASSWORD,
        language: 'en',
        next: '/checkout/',
        device: marker,
      });
      if (!outcome.ok || outcome.userId === null) throw new Error(JSON.stringify(outcome));
      return (await latestLinkMail(outcome.userId, 'verify-email')).token;
    };
    const confirm = (token: string, cookie: string | null, next = '/checkout/') =>
      verifyLinkRoute({
        request: new Request(`http://127.0.0.1/accounts/verify/${token}`, {
          method: 'POST',
          headers: cookie ? { cookie } : {},
          body: new URLSearchParams({ next }),
        }),
        params: { token },
        context: testWebContext(database),
      } as never).catch((thrown: unknown) => thrown) as Promise<Response>;

    // The browser that signed up: a session, the marker spent, straight on to `next`.
    const here = await confirm(await signUpIn(device), `signup_device=${device}`);
    expect(here.status).toBe(302);
    expect(here.headers.get('Location')).toBe('/checkout/');
    const cookies = here.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith('sid='))).toBe(true);
    expect(cookies).toContain(
      'signup_device=; Path=/accounts/verify; Max-Age=0; HttpOnly; SameSite=Lax',
    );

    // Another browser (no marker, or another one's): the address is proved, no session; the
    // sign-in page says so and keeps `next`.
    for (const cookie of [null, `signup_device=${newToken()}`]) {
      const token = await signUpIn(device);
      const elsewhere = await confirm(token, cookie);
      expect(elsewhere.status).toBe(302);
      expect(elsewhere.headers.get('Location')).toBe(
        '/accounts/login/?next=%2Fcheckout%2F&confirmed=1',
      );
      expect(elsewhere.headers.getSetCookie().some((c) => c.startsWith('sid='))).toBe(false);
      const [row] = await database.db
        .select({ verified: users.emailVerifiedAt })
        .from(users)
        .innerJoin(accountTokens, eq(accountTokens.userId, users.id))
        .where(eq(accountTokens.tokenHash, tokenDigest(token)));
      expect(row!.verified).not.toBeNull();
    }

    // `next` is a path of this store only, whatever the form says.
    const away = await confirm(
      await signUpIn(device),
      `signup_device=${device}`,
      'https://evil.example/',
    );
    expect(away.headers.get('Location')).toBe('/');
  });

  it('issue 38: the confirmation mail links to PUBLIC_ORIGIN, or to the white-label host it was asked from; never to the Host header', async () => {
    const texts = new Map<string, string>();
    const emails = [`${unique('origin')}@example.test`, `${unique('label')}@example.test`];
    const signUpAs = (email: string) =>
      signUp(testContext(database.db), {
        firstName: 'Wren',
        lastName: 'L',
        email,
        password: PASSWORD,
        language: 'en',
        next: '/shelf',
      });
    await signUpAs(emails[0]!);
    await withMailHost('books.campus.test', () => signUpAs(emails[1]!));
    const send = async (message: { to: string; text: string }) => {
      if (emails.includes(message.to)) texts.set(message.to, message.text);
    };
    const options = { now: new Date(), publicOrigin: 'https://store.example.edu' };
    for (let i = 0; i < 100 && texts.size < 2; i += 1) {
      if ((await runOutboxOnce(database.db, send, options)).claimed === 0) break;
    }
    expect(texts.get(emails[0]!)).toMatch(
      /https:\/\/store\.example\.edu\/accounts\/verify\/[\w-]{40,}\?next=%2Fshelf/,
    );
    expect(texts.get(emails[1]!)).toMatch(
      /https:\/\/books\.campus\.test\/accounts\/verify\/[\w-]{40,}\?next=%2Fshelf/,
    );
  });

  it('an unverified account is refused a free book and a code redemption too, with the way to a new link', async () => {
    const { userId } = await newAccount();
    const ctx = testContext(database.db, { user: await sessionUser(userId) });
    const refusal = { messageKey: 'verify.error.required', params: { wayBack: 'verifyEmail' } };
    await expect(addFreeBook(ctx, 1)).rejects.toMatchObject(refusal);
    await expect(redeemCode(ctx, 'ABCD-EFGH-JKLM')).rejects.toMatchObject(refusal);
  });

  it('a verified address takes the section places the bookstore kept for it, once', async () => {
    const db = database.db;
    const [org] = await db
      .insert(organizations)
      .values({ title: unique('Roster U') })
      .returning({ id: organizations.id });
    const [course] = await db
      .insert(courses)
      .values({ orgId: org!.id, name: 'World History', department: 'HIST', number: '110' })
      .returning({ id: courses.id });
    const [section] = await db
      .insert(courseSections)
      .values({
        courseId: course!.id,
        name: 'Section',
        number: '001',
        rsCourseId: unique('RS'),
        startDate: '2026-08-24',
        endDate: '2026-12-15',
        addDropAt: new Date('2026-09-07T12:00:00Z'),
      })
      .returning({ id: courseSections.id });
    const email = `${unique('Invited')}@example.test`;
    await db.insert(sectionInvitations).values({
      sectionId: section!.id,
      email: email.toUpperCase(),
      addDropDate: new Date('2026-09-07T12:00:00Z'),
    });
    const { userId } = await newAccount('en', email);
    const membersOf = () =>
      db
        .select({ sectionId: sectionMembers.sectionId, role: sectionMembers.role })
        .from(sectionMembers)
        .where(eq(sectionMembers.userId, userId));
    // Not before the address is proved.
    expect(await membersOf()).toEqual([]);
    const { token } = await latestLinkMail(userId, 'verify-email');
    expect((await verifyEmail(testContext(db), token)).ok).toBe(true);
    expect(await membersOf()).toEqual([{ sectionId: section!.id, role: 'student' }]);
    const [invitation] = await db
      .select({ by: sectionInvitations.claimedByUserId })
      .from(sectionInvitations)
      .where(eq(sectionInvitations.sectionId, section!.id));
    expect(invitation?.by).toBe(userId);
  });

  // Issue 37: sign-up answered a taken address with 409 "An account already uses this e-mail
  // address", telling anyone who has an account.
  it('a taken address is answered as a new one, makes nothing, and its owner is mailed', async () => {
    const { email, userId } = await newAccount();
    const ctx = testContext(database.db);
    const base = { firstName: 'A', lastName: 'B', language: 'en' };
    expect(await signUp(ctx, { ...base, email: email.toUpperCase(), password: PASSWORD })).toEqual({
      ok: true,
      userId: null,
    });
    expect(
      await database.db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`),
    ).toEqual([{ id: userId }]);
    const [queued] = await database.db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(
        and(
          eq(outbox.kind, 'sign-up-existing'),
          sql`${outbox.payload}->>'userId' = ${String(userId)}`,
        ),
      );
    const mail = await signUpExistingEmail(
      database.db,
      queued!.payload as { userId: number },
      'https://store.example',
    );
    expect(mail).toMatchObject({
      to: email,
      subject: 'Someone tried to create an account with your address',
    });
    expect(mail?.text).toContain(
      'If it was you, log in instead: https://store.example/accounts/login/',
    );
    expect(mail?.text).toContain('https://store.example/accounts/password/forgot/');
  });

  it('a common password or a bad language changes nothing', async () => {
    const ctx = testContext(database.db);
    const base = { firstName: 'A', lastName: 'B', language: 'en' };
    const fresh = `${unique('fresh')}@example.test`;
    expect(await signUp(ctx, { ...base, email: fresh, password: 'Password2024!' })).toEqual({
      ok: false,
      errors: { password: 'password.error.common' },
    });
    expect(await signUp(ctx, { ...base, email: fresh, password: 'short' })).toEqual({
      ok: false,
      errors: { password: 'password.error.tooShort' },
    });
    expect(
      await signUp(ctx, { ...base, email: fresh, password: PASSWORD, language: 'de' }),
    ).toEqual({ ok: false, errors: { language: 'language.error.unsupported' } });
    const rows = await database.db.select().from(users).where(eq(users.email, fresh));
    expect(rows).toHaveLength(0);
  });

  it('sign-up is throttled per IP (a classroom an hour) and per address, before the address is looked up', async () => {
    const ipAddress = unique('lab');
    const base = { firstName: 'Lab', lastName: 'Student', language: 'en', password: PASSWORD };
    for (let i = 0; i < MAX_SIGN_UPS_PER_IP; i += 1) {
      const outcome = await signUp(testContext(database.db, { ipAddress }), {
        ...base,
        email: `${unique('lab')}@example.test`,
      });
      expect(outcome.ok).toBe(true);
    }
    const refused = `${unique('one-too-many')}@example.test`;
    expect(
      await signUp(testContext(database.db, { ipAddress }), { ...base, email: refused }),
    ).toEqual({ ok: false, errors: { form: 'signup.throttled' }, retryAfterMinutes: 60 });
    expect(await database.db.select().from(users).where(eq(users.email, refused))).toHaveLength(0);
    // Another IP still signs up.
    expect((await signUp(testContext(database.db), { ...base, email: refused })).ok).toBe(true);

    // One address probed from many IPs: three tries an hour, then refused, taken or not.
    for (let i = 0; i < 2; i += 1) {
      expect(await signUp(testContext(database.db), { ...base, email: refused })).toEqual({
        ok: true,
        userId: null,
      });
    }
    expect(await signUp(testContext(database.db), { ...base, email: refused })).toMatchObject({
      ok: false,
      errors: { form: 'signup.throttled' },
    });
  });

  it('an expired verification link is refused; a new one can be asked, three times in 15 minutes', async () => {
    const { userId } = await newAccount();
    const { token } = await latestLinkMail(userId, 'verify-email');
    const later = new Date(Date.now() + 48 * 60 * 60 * 1000 + 1000);
    expect(await verifyEmail(testContext(database.db, { now: later }), token)).toEqual({
      ok: false,
      messageKey: 'token.error.expired',
    });
    const ctx = testContext(database.db, { user: await sessionUser(userId) });
    for (let i = 0; i < 3; i += 1) expect(await resendVerification(ctx)).toEqual({ ok: true });
    expect(await resendVerification(ctx)).toMatchObject({ ok: false, reason: 'throttled' });
  });
});

describe('forgot password (issue 20)', () => {
  it('answers the same for an unknown address, mails a known one, and the link ends every session once used', async () => {
    const { email, userId } = await newAccount();
    const ip = unique('ip');
    expect(
      await requestPasswordReset(testContext(database.db, { ipAddress: ip }), `nobody-${email}`),
    ).toEqual({ ok: true });
    expect(await requestPasswordReset(testContext(database.db, { ipAddress: ip }), email)).toEqual({
      ok: true,
    });
    const { mail, token } = await latestLinkMail(userId, 'reset-password');
    expect(mail.subject).toBe('Choose a new password');
    expect(mail.text).toContain('The link works once, for one hour.');

    const now = new Date();
    const old = await startSession(database.db, { userId, now });
    const tooLate = new Date(now.getTime() + 60 * 60 * 1000 + 1);
    expect(
      await resetPassword(testContext(database.db, { now: tooLate }), token, 'new river lantern'),
    ).toMatchObject({
      ok: false,
      messageKey: 'token.error.expired',
    });
    expect(await resetPassword(testContext(database.db), token, 'qwerty12345')).toMatchObject({
      ok: false,
      field: 'password',
      messageKey: 'password.error.common',
    });
    expect(await resetPassword(testContext(database.db), token, 'new river lantern')).toEqual({
      ok: true,
      userId,
    });
    expect(await findSession(database.db, old.token, new Date())).toBeNull();
    expect(
      await resetPassword(testContext(database.db), token, 'another river lantern'),
    ).toMatchObject({
      ok: false,
      messageKey: 'token.error.used',
    });
    expect(await login(testContext(database.db), { email, password: 'new river lantern' })).toEqual(
      {
        ok: true,
        userId,
      },
    );
  });

  it('is throttled per address, known or not', async () => {
    const email = `${unique('ghost')}@example.test`;
    for (let i = 0; i < 3; i += 1) {
      expect(await requestPasswordReset(testContext(database.db), email)).toEqual({ ok: true });
    }
    expect(await requestPasswordReset(testContext(database.db), email)).toMatchObject({
      ok: false,
      reason: 'throttled',
    });
  });
});

describe('profile and devices (issue 20)', () => {
  it('changing the password asks the current one and signs out the other devices', async () => {
    const { email, userId } = await newAccount();
    const now = new Date();
    const here = await startSession(database.db, {
      userId,
      now,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/121.0',
    });
    const there = await startSession(database.db, {
      userId,
      now,
      userAgent: 'Mozilla/5.0 (iPhone) Safari/604.1',
    });
    const ctx = testContext(database.db, { user: await sessionUser(userId) });
    expect(
      await changePassword(ctx, {
        currentPassword: 'wrong password',
        newPassword: 'new river lantern',
        sessionToken: here.token,
      }),
    ).toEqual({ ok: false, errors: { currentPassword: 'profile.error.currentPassword' } });
    // The current password again is no change: said, and nothing ends.
    expect(
      await changePassword(ctx, {
        currentPassword: PASSWORD,
        newPassword: PASSWORD,
        sessionToken: here.token,
      }),
    ).toEqual({ ok: false, errors: { newPassword: 'profile.error.samePassword' } });
    expect(await findSession(database.db, there.token, new Date())).not.toBeNull();
    expect(
      await changePassword(ctx, {
        currentPassword: PASSWORD,
        newPassword: 'new river lantern',
        sessionToken: here.token,
      }),
    ).toEqual({ ok: true });
    expect(await findSession(database.db, here.token, new Date())).not.toBeNull();
    expect(await findSession(database.db, there.token, new Date())).toBeNull();
    expect(
      (await login(testContext(database.db), { email, password: 'new river lantern' })).ok,
    ).toBe(true);
  });

  it('lists the devices, this one first, and signs out another; not another account’s', async () => {
    const { userId } = await newAccount();
    const other = await newAccount();
    const now = new Date();
    const here = await startSession(database.db, {
      userId,
      now,
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/121.0',
    });
    await startSession(database.db, {
      userId,
      now,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) Safari/604.1',
    });
    const stranger = await startSession(database.db, { userId: other.userId, now });
    const ctx = testContext(database.db, { user: await sessionUser(userId) });
    const list = await deviceSessions(ctx, here.token);
    expect(list.map((s) => [s.browser, s.system, s.current])).toEqual([
      ['Firefox', 'Linux', true],
      ['Safari', 'iOS', false],
    ]);
    const [strangerRow] = await database.db
      .select({ idHash: sessions.idHash })
      .from(sessions)
      .where(eq(sessions.userId, other.userId));
    await expect(endDeviceSession(ctx, here.token, strangerRow!.idHash)).rejects.toMatchObject({
      status: 404,
    });
    expect(await findSession(database.db, stranger.token, new Date())).not.toBeNull();
    await endDeviceSession(ctx, here.token, list[1]!.key);
    expect((await deviceSessions(ctx, here.token)).map((s) => s.current)).toEqual([true]);
  });

  it('an account made by campus sign-in has no password: a sign-in of the last ten minutes confirms it is them', async () => {
    const [row] = await database.db
      .insert(users)
      .values({
        email: `${unique('campus')}@example.test`,
        firstName: 'Camille',
        lastName: 'Tremblay',
        passwordHash: null,
        emailVerifiedAt: new Date(),
      })
      .returning({ id: users.id });
    const userId = row!.id;
    const signedInAt = new Date();
    const { token } = await startSession(database.db, { userId, now: signedInAt });
    const at = (minutes: number) =>
      testContext(database.db, {
        user: null,
        now: new Date(signedInAt.getTime() + minutes * 60_000),
      });
    const user = await sessionUser(userId);
    const late = { ...at(11), user };
    expect(
      await changePassword(late, {
        currentPassword: '',
        newPassword: 'maple lantern orbit',
        sessionToken: token,
      }),
    ).toEqual({ ok: false, errors: { form: 'account.error.signInAgain' } });
    expect(await requestAccountDeletion(late, '', token)).toEqual({
      ok: false,
      error: 'account.error.signInAgain',
    });
    // Another session's token is not this account's sign-in.
    const stranger = await newAccount();
    const theirs = await startSession(database.db, { userId: stranger.userId, now: signedInAt });
    expect(
      await requestEmailChange(
        { ...at(1), user },
        {
          currentPassword: '',
          newEmail: `${unique('x')}@example.test`,
          sessionToken: theirs.token,
        },
      ),
    ).toEqual({ ok: false, errors: { form: 'account.error.signInAgain' } });
    // Fresh: the account sets its first password, and can then log in with it.
    expect(
      await changePassword(
        { ...at(5), user },
        { currentPassword: '', newPassword: 'maple lantern orbit', sessionToken: token },
      ),
    ).toEqual({ ok: true });
    expect(
      (
        await login(testContext(database.db), {
          email: user.email,
          password: 'maple lantern orbit',
        })
      ).ok,
    ).toBe(true);
  });

  it('changing the address mails the new one a link and the old one a notice; it changes when followed', async () => {
    const { email, userId } = await newAccount();
    const ctx = testContext(database.db, { user: await sessionUser(userId) });
    const newEmail = `${unique('moved')}@example.test`;
    expect(
      await requestEmailChange(ctx, {
        currentPassword: PASSWORD,
        newEmail: email,
        sessionToken: null,
      }),
    ).toEqual({
      ok: false,
      errors: { newEmail: 'profile.error.sameEmail' },
    });
    expect(
      await requestEmailChange(ctx, { currentPassword: PASSWORD, newEmail, sessionToken: null }),
    ).toEqual({
      ok: true,
    });
    const { mail, token } = await latestLinkMail(userId, 'change-email');
    expect(mail.to).toBe(newEmail);
    const notice = await emailChangeNotice(database.db, { userId, oldEmail: email, newEmail });
    expect(notice?.to).toBe(email);
    expect(notice?.text).toContain(`change its e-mail address to ${newEmail}`);
    // Not yet.
    expect((await sessionUser(userId)).email).toBe(email);
    expect(await confirmEmailChange(testContext(database.db), token)).toEqual({
      ok: true,
      email: newEmail,
      userId,
    });
    const moved = await sessionUser(userId);
    expect([moved.email, moved.emailVerified]).toEqual([newEmail, true]);
  });

  it('a link opened while signed in as someone else says which address its own account moved to', async () => {
    const { email, userId } = await newAccount();
    const newEmail = `${unique('moved')}@example.test`;
    const owner = testContext(database.db, { user: await sessionUser(userId) });
    await requestEmailChange(owner, { currentPassword: PASSWORD, newEmail, sessionToken: null });
    const { token } = await latestLinkMail(userId, 'change-email');
    const someoneElse = await newAccount();
    const answer = await confirmRoute({
      request: new Request(`http://127.0.0.1/account/email/confirm/${token}`, { method: 'POST' }),
      params: { token },
      context: testWebContext(database, { user: await sessionUser(someoneElse.userId) }),
    } as never);
    expect(answer).toEqual({ error: null, movedTo: newEmail });
    // The signed-in account is untouched; the link's own account moved.
    expect((await sessionUser(someoneElse.userId)).email).toBe(someoneElse.email);
    expect((await sessionUser(userId)).email).toBe(newEmail);
    expect(email).not.toBe(newEmail);
  });
});
