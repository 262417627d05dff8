import { readFileSync } from 'node:fs';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { accountFlags, sessions, userRoles, users } from '#db/schema/accounts.ts';
import { campusIdentities, campusSignIns } from '#db/schema/campus-sign-in.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { outbox } from '#db/schema/events.ts';
import { auditEvents, campusPeople } from '#db/schema/operations.ts';
import { sectionInvitations } from '#db/schema/section-invitations.ts';
import { organizations } from '#db/schema/sites.ts';
import { queueAccountLink } from '#domain/accounts/account-links.ts';
import { eraseAccount } from '#domain/accounts/privacy.ts';
import { queueSecurityNotice } from '#domain/accounts/security-notice.ts';
import { findSessionUser, loadSessionUser, startSession } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { enqueue, markSent } from '#domain/notifications/outbox.ts';
import { auditActorOf, auditTrail } from '#domain/operations/audit.ts';
import {
  changeRole,
  lockAccount,
  sendAccountMail,
  unlockAccount,
} from '#domain/operations/helpdesk/account-actions.ts';
import {
  recordImpersonatedRequest,
  startSwitch,
  switchBack,
} from '#domain/operations/helpdesk/impersonation-service.ts';
import { MAX_COUNTED, searchPeople } from '#domain/operations/helpdesk/people-search.ts';
import { personView } from '#domain/operations/helpdesk/person-view.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 39, the help desk and Switch Account: "Find a person by name, e-mail or campus id ...
// lock and unlock ... grant and revoke staff roles (managers only), taking effect on the
// person's sessions at once"; "Done when: a manager helps a student by switching to their
// account and back, and the audit shows it." On PGlite, and on PostgreSQL with DATABASE_URL.

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function org(title: string): Promise<number> {
  const [row] = await database.db
    .insert(organizations)
    .values({ title: unique(title) })
    .returning({ id: organizations.id });
  return row!.id;
}

async function account(
  input: {
    orgId?: number | null;
    roles?: string[];
    firstName?: string;
    lastName?: string;
    canImpersonate?: boolean;
  } = {},
): Promise<SessionUser> {
  const [row] = await database.db
    .insert(users)
    .values({
      email: `${unique('hd')}@example.test`,
      firstName: input.firstName ?? 'Maya',
      lastName: input.lastName ?? unique('Student'),
      orgId: input.orgId ?? null,
    })
    .returning({ id: users.id });
  for (const role of input.roles ?? []) {
    await database.db.insert(userRoles).values({ userId: row!.id, role });
  }
  if (input.canImpersonate) {
    await database.db.insert(accountFlags).values({ userId: row!.id, canImpersonate: true });
  }
  return (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
}

/** Makes the person a student of a new section of the organisation; the section's id. */
async function memberOf(orgId: number, userId: number): Promise<number> {
  const [course] = await database.db
    .insert(courses)
    .values({ orgId, name: 'Biology', department: 'BIO', number: '101' })
    .returning({ id: courses.id });
  const [section] = await database.db
    .insert(courseSections)
    .values({
      courseId: course!.id,
      name: 'Biology',
      number: '001',
      rsCourseId: unique('RSC'),
      startDate: '2026-08-24',
      endDate: '2026-12-15',
      addDropAt: new Date('2026-09-05T04:00:00Z'),
      courseFeeCents: 7900,
    })
    .returning({ id: courseSections.id });
  await database.db.insert(sectionMembers).values({
    sectionId: section!.id,
    userId,
    role: 'student',
    rsCoursememberId: unique('m'),
    addDropDate: new Date('2026-09-05T04:00:00Z'),
  });
  return section!.id;
}

const ctxOf = (user: SessionUser, now = new Date()) => testContext(database.db, { user, now });

describe('the help desk finds people of its scope only (issue 39)', () => {
  it('issue 39: by name, e-mail or campus id; a Lakeshore bookstore manager never finds a Riverbend student', async () => {
    const riverbend = await org('Riverbend');
    const lakeshore = await org('Lakeshore');
    const surname = unique('Okafor');
    const student = await account({ orgId: null, lastName: surname });
    await memberOf(riverbend, student.id);
    const campusId = unique('S');
    await database.db
      .insert(campusPeople)
      .values({ orgId: riverbend, userId: student.id, campusId, sourcedId: unique('sid') });
    const riverStaff = await account({ orgId: riverbend, roles: ['bookstore_manager'] });
    const lakeStaff = await account({ orgId: lakeshore, roles: ['bookstore_manager'] });
    const support = await account({ roles: ['support'] });

    for (const q of [surname, `maya ${surname}`, student.email.toUpperCase(), campusId]) {
      const found = await searchPeople(ctxOf(riverStaff), { q, page: 1 });
      expect(found.people.map((p) => p.id)).toEqual([student.id]);
      expect((await searchPeople(ctxOf(lakeStaff), { q, page: 1 })).people).toEqual([]);
      expect((await searchPeople(ctxOf(support), { q, page: 1 })).total).toBe(1);
    }
    // A wildcard typed is a character searched for, not a pattern.
    expect((await searchPeople(ctxOf(support), { q: '%', page: 1 })).people).toEqual([]);
    await expect(searchPeople(ctxOf(support), { q: 'a\u0000b', page: 1 })).rejects.toMatchObject({
      status: 400,
      messageKey: 'ops.helpdesk.search.error.invalid',
    });
    // The person page: found in scope, not found (as an unknown id) outside it.
    const view = await personView(ctxOf(riverStaff), student.id);
    expect(view.sections).toMatchObject([
      {
        title: { course: 'BIO 101', section: '001' },
        sectionName: 'Biology',
        role: 'student',
        optStatus: 'opted_in',
        courseFeeCents: 7900,
      },
    ]);
    expect(view.campusIds).toEqual([{ campusId, source: 'roster' }]);
    expect(view.can).toMatchObject({ lock: true, mail: true, changeRoles: false, switchTo: false });
    await expect(personView(ctxOf(lakeStaff), student.id)).rejects.toMatchObject({ status: 404 });
    await expect(personView(ctxOf(lakeStaff), 2_000_000_000)).rejects.toMatchObject({
      status: 404,
    });
    await expect(lockAccount(ctxOf(lakeStaff), student.id)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('issue 39: by each key, through the indexes of migration 0043: a part of the name either way round (two letters: a word’s start), the whole or a part of the address, an exact campus id', async () => {
    const campus = await org('Northgate');
    const staff = await account({ orgId: campus, roles: ['bookstore_manager'] });
    const tag = unique('t')
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase();
    const person = async (email: string, firstName: string, lastName: string) => {
      const [row] = await database.db
        .insert(users)
        .values({ email, firstName, lastName, orgId: campus })
        .returning({ id: users.id });
      return row!.id;
    };
    const wu = await person(`l.wu.${tag}@northgate.example`, 'Lin', 'Wu');
    const okafor = await person(`chidi.okafor.${tag}@northgate.example`, 'Chidi', 'Okafor');
    const cote = await person(`e.${tag}@mail.example`, 'Élodie', 'Côté');
    const rosterId = `N-${tag}`;
    await database.db
      .insert(campusPeople)
      .values({ orgId: campus, userId: okafor, campusId: rosterId, sourcedId: unique('sid') });
    const [signIn] = await database.db
      .insert(campusSignIns)
      .values({
        orgId: campus,
        protocol: 'oidc',
        oidcIssuer: 'https://idp.northgate.example',
        oidcClientId: 'shelfmark',
      })
      .returning({ id: campusSignIns.id });
    const signInId = `C-${tag}`;
    await database.db.insert(campusIdentities).values({
      userId: wu,
      campusSignInId: signIn!.id,
      issuer: 'https://idp.northgate.example',
      subject: unique('sub'),
      campusId: signInId,
    });
    const find = async (q: string) =>
      (await searchPeople(ctxOf(staff), { q, page: 1 })).people.map((p) => p.id);

    // A part of the name, either way round, case aside; two letters (no trigram) too.
    expect(await find('okaf')).toEqual([okafor]);
    expect(await find('Okafor Chidi')).toEqual([okafor]);
    expect(await find('CHIDI OKAFOR')).toEqual([okafor]);
    expect(await find('côté')).toEqual([cote]);
    // One or two characters start a word of the name or address ("Wu", not the "ka" of Okafor).
    expect(await find('Wu')).toContain(wu);
    expect(await find('Wu')).not.toContain(okafor);
    expect(await find('ok')).toContain(okafor);
    expect(await find('ka')).not.toContain(okafor);
    expect(await find('.*')).toEqual([]);
    expect(await find('(')).toEqual([]);
    // The whole address, or a part of it, with or without its @.
    expect(await find(`CHIDI.OKAFOR.${tag}@NORTHGATE.EXAMPLE`)).toEqual([okafor]);
    expect(await find(`okafor.${tag}@north`)).toEqual([okafor]);
    expect(await find(`${tag}@mail.ex`)).toEqual([cote]);
    expect(await find(`${tag}@northgate.example`)).toEqual([okafor, wu]);
    // A campus id, exactly: the roster's, a campus sign-in's; a part of one finds nobody.
    expect(await find(rosterId)).toEqual([okafor]);
    expect(await find(signInId)).toEqual([wu]);
    expect(await find(rosterId.slice(0, -1))).toEqual([]);
    // A wildcard typed is a character searched for.
    expect(await find('ok_for')).toEqual([]);
    expect(await searchPeople(ctxOf(staff), { q: 'okaf', page: 1 })).toMatchObject({
      total: 1,
      more: false,
      pages: 1,
    });
  });

  it('issue 39: counts no further than MAX_COUNTED, and says there are more', async () => {
    const campus = await org('Bigcampus');
    const staff = await account({ orgId: campus, roles: ['bookstore_manager'] });
    const surname = unique('Many').replace(/[^a-z0-9]/gi, '');
    await database.db.insert(users).values(
      Array.from({ length: MAX_COUNTED + 1 }, (_, i) => ({
        email: `m${i}.${surname.toLowerCase()}@big.example`,
        firstName: `P${String(i).padStart(4, '0')}`,
        lastName: surname,
        orgId: campus,
      })),
    );
    const first = await searchPeople(ctxOf(staff), { q: surname, page: 1 });
    expect(first).toMatchObject({ total: MAX_COUNTED, more: true, pages: MAX_COUNTED / 25 });
    expect(first.people.map((p) => p.firstName).slice(0, 2)).toEqual(['P0000', 'P0001']);
    const last = await searchPeople(ctxOf(staff), { q: surname, page: 999 });
    expect(last.page).toBe(MAX_COUNTED / 25);
    expect(last.people).toHaveLength(25);
  });
});

describe('the help desk changes accounts, audited, at once (issue 39)', () => {
  it('issue 39: locking ends every session of the person at once; unlocking lets them sign in again', async () => {
    const riverbend = await org('Riverbend');
    const student = await account({ orgId: riverbend });
    const staff = await account({ orgId: riverbend, roles: ['bookstore_manager'] });
    const now = new Date();
    const { token } = await startSession(database.db, { userId: student.id, now });
    expect((await findSessionUser(database.db, token, now))?.id).toBe(student.id);

    expect(await lockAccount(ctxOf(staff), student.id)).toEqual({
      ok: true,
      messageKey: 'ops.helpdesk.done.locked',
    });
    expect(await findSessionUser(database.db, token, now)).toBeNull();
    expect(
      await database.db.select().from(sessions).where(eq(sessions.userId, student.id)),
    ).toEqual([]);
    await expect(lockAccount(ctxOf(staff), student.id)).rejects.toMatchObject({ status: 409 });
    await unlockAccount(ctxOf(staff), student.id);
    const trail = await auditTrail(database.db, 'user', student.id);
    expect(trail.map((l) => [l.action, l.actorLabel, l.before, l.after])).toEqual([
      [
        'unlock',
        `${staff.firstName} ${staff.lastName} <${staff.email}>`,
        { isActive: false },
        { isActive: true },
      ],
      [
        'lock',
        `${staff.firstName} ${staff.lastName} <${staff.email}>`,
        { isActive: true },
        { isActive: false },
      ],
    ]);
  });

  it("issue 39: a campus's staff never change a manager's or support's account, nor grant roles", async () => {
    const riverbend = await org('Riverbend');
    const staff = await account({ orgId: riverbend, roles: ['bookstore_manager'] });
    const otherManager = await account({ orgId: riverbend, roles: ['manager'] });
    const student = await account({ orgId: riverbend });
    await expect(lockAccount(ctxOf(staff), otherManager.id)).rejects.toMatchObject({
      status: 403,
      messageKey: 'ops.helpdesk.error.protected',
    });
    await expect(
      changeRole(ctxOf(staff), student.id, { role: 'support', grant: true }),
    ).rejects.toMatchObject({ status: 403, messageKey: 'ops.helpdesk.error.managersOnly' });
    const [row] = await database.db.select().from(users).where(eq(users.id, otherManager.id));
    expect(row?.isActive).toBe(true);
  });

  it('issue 39: a role granted reaches the person’s session at once; one needing a second factor ends a session without it', async () => {
    const manager = await account({ roles: ['manager'] });
    const student = await account();
    const now = new Date();
    const { token } = await startSession(database.db, { userId: student.id, now });
    expect((await findSessionUser(database.db, token, now))?.roles).toEqual([]);

    await changeRole(ctxOf(manager), student.id, { role: 'support', grant: true });
    expect((await findSessionUser(database.db, token, now))?.roles).toEqual(['support']);
    await changeRole(ctxOf(manager), student.id, { role: 'bookstore_manager', grant: true });
    expect(await findSessionUser(database.db, token, now)).toBeNull();
    expect(await changeRole(ctxOf(manager), student.id, { role: 'support', grant: true })).toEqual({
      ok: false,
      messageKey: 'ops.helpdesk.error.hasRole',
    });
    await changeRole(ctxOf(manager), student.id, { role: 'support', grant: false });
    const trail = await auditTrail(database.db, 'user', student.id);
    expect(trail.map((l) => [l.action, l.before, l.after])).toEqual([
      ['role.revoke', { roles: 'bookstore_manager, support' }, { roles: 'bookstore_manager' }],
      ['role.grant', { roles: 'support' }, { roles: 'bookstore_manager, support' }],
      ['role.grant', { roles: '' }, { roles: 'support' }],
    ]);
  });

  it('issue 39: a new reset mail goes through the outbox and the audit; the verification mail of a verified account is refused', async () => {
    const manager = await account({ roles: ['manager'] });
    const student = await account();
    expect(await sendAccountMail(ctxOf(manager), student.id, 'reset')).toEqual({
      ok: true,
      messageKey: 'ops.helpdesk.done.resetSent',
    });
    expect(await sendAccountMail(ctxOf(manager), student.id, 'verify')).toEqual({
      ok: false,
      messageKey: 'ops.helpdesk.error.alreadyVerified',
    });
    const view = await personView(ctxOf(manager), student.id);
    expect(view.mails.map((m) => [m.kind, m.to, m.sentAt])).toEqual([
      ['account-link', student.email, null],
    ]);
    expect(view.audit.map((l) => [l.action, l.after])).toEqual([
      ['mail.reset', { to: student.email }],
    ]);
  });
});

describe("the person page's mails sent (issue 39)", () => {
  it('issue 39: lists the mails queued for the person by whom each was for when queued (migration 0047): kind, address, when, sent or waiting; never another’s', async () => {
    const manager = await account({ roles: ['manager'] });
    const student = await account();
    const other = await account();
    const now = new Date();
    // A place kept for their address (in capitals) before the address was theirs.
    await enqueue(database.db, {
      kind: 'section-place',
      dedupeKey: unique('place'),
      payload: { placeId: 0 },
      to: { userId: null, email: student.email.toUpperCase() },
    });
    await queueSecurityNotice(database.db, { userId: student.id, event: 'password-changed', now });
    // A change of address is proved at the new one.
    const newAddress = `${unique('new')}@Example.test`;
    await queueAccountLink(database.db, {
      userId: student.id,
      purpose: 'change-email',
      email: newAddress,
      now,
    });
    await queueSecurityNotice(database.db, { userId: other.id, event: 'password-changed', now });
    const [notice] = await database.db
      .select({ id: outbox.id, recipientEmail: outbox.recipientEmail })
      .from(outbox)
      .where(and(eq(outbox.recipientUserId, student.id), eq(outbox.kind, 'security-notice')));
    expect(notice?.recipientEmail).toBe(student.email.toLowerCase());
    await markSent(database.db, notice!.id, now);

    const view = await personView(ctxOf(manager), student.id);
    expect(view.mails.map((m) => [m.kind, m.to, m.sentAt !== null])).toEqual([
      ['account-link', newAddress.toLowerCase(), false],
      ['security-notice', student.email.toLowerCase(), true],
      ['section-place', student.email.toLowerCase(), false],
    ]);
    // The account's mails stay its own when its address changes.
    await database.db
      .update(users)
      .set({ email: `${unique('moved')}@example.test` })
      .where(eq(users.id, student.id));
    expect((await personView(ctxOf(manager), student.id)).mails.map((m) => m.kind)).toEqual([
      'account-link',
      'security-notice',
    ]);
  });

  it('issue 20/39: a deleted account’s mails keep no address', async () => {
    const student = await account();
    const now = new Date();
    await queueSecurityNotice(database.db, { userId: student.id, event: 'password-changed', now });
    await enqueue(database.db, {
      kind: 'section-place',
      dedupeKey: unique('place'),
      payload: { placeId: 0 },
      to: { userId: null, email: student.email },
    });
    await eraseAccount(database.db, student.id, student.email, now);
    const left = await database.db
      .select({ email: outbox.recipientEmail })
      .from(outbox)
      .where(eq(outbox.recipientEmail, student.email.toLowerCase()));
    expect(left).toEqual([]);
  });

  it('issue 39: migration 0047 finds whom the mails queued before it were for, from their payload', async () => {
    const student = await account();
    const riverbend = await org('Riverbend');
    const sectionId = await memberOf(riverbend, student.id);
    const now = new Date();
    const tokenId = await queueAccountLink(database.db, {
      userId: student.id,
      purpose: 'reset-password',
      email: student.email,
      now,
    });
    const placeEmail = `${unique('Place')}@Example.test`;
    const [place] = await database.db
      .insert(sectionInvitations)
      .values({ sectionId, email: placeEmail, addDropDate: now })
      .returning({ id: sectionInvitations.id });
    const tag = unique('old');
    // As an earlier version queued them: the payload alone says whom they are for.
    await database.db.insert(outbox).values([
      { kind: 'security-notice', dedupeKey: `${tag}:1`, payload: { userId: student.id } },
      {
        kind: 'email-change-notice',
        dedupeKey: `${tag}:2`,
        payload: { userId: student.id, oldEmail: 'Old@Example.test', newEmail: 'x@example.test' },
      },
      { kind: 'section-place', dedupeKey: `${tag}:3`, payload: { placeId: place!.id } },
      { kind: 'order-confirmation', dedupeKey: `${tag}:4`, payload: { orderId: 'no-such' } },
    ]);
    await database.db
      .update(outbox)
      .set({ recipientUserId: null, recipientEmail: null })
      .where(sql`${outbox.payload} ->> 'tokenId' = ${String(tokenId)}`);
    const migration = readFileSync(
      'db/migrations/0047_helpdesk_search_and_mail_recipients.sql',
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint')) {
      const text = statement
        .split('\n')
        .filter((line) => !line.startsWith('--'))
        .join('\n')
        .trim();
      if (text.startsWith('UPDATE')) await database.db.execute(sql.raw(text));
    }
    const rows = await database.db
      .select({
        key: outbox.dedupeKey,
        userId: outbox.recipientUserId,
        email: outbox.recipientEmail,
      })
      .from(outbox)
      .where(
        inArray(outbox.dedupeKey, [
          `${tag}:1`,
          `${tag}:2`,
          `${tag}:3`,
          `${tag}:4`,
          `account-link:${tokenId}`,
        ]),
      )
      .orderBy(outbox.dedupeKey);
    const address = student.email.toLowerCase();
    expect(rows).toEqual([
      { key: `account-link:${tokenId}`, userId: student.id, email: address },
      { key: `${tag}:1`, userId: student.id, email: address },
      { key: `${tag}:2`, userId: student.id, email: 'old@example.test' },
      { key: `${tag}:3`, userId: null, email: placeEmail.toLowerCase() },
      { key: `${tag}:4`, userId: null, email: null },
    ]);
  });
});

describe('Switch Account (issue 39)', () => {
  it('issue 39: a manager switches to a student and back; the audit names both; requests made meanwhile are recorded with both', async () => {
    const manager = await account({
      roles: ['manager'],
      firstName: 'Alex',
      lastName: 'Morgan',
      canImpersonate: true,
    });
    const student = await account({ firstName: 'Maya' });
    const startedAt = new Date('2026-09-01T12:00:00Z');
    const own = await startSession(database.db, {
      userId: manager.id,
      now: startedAt,
      secondFactor: true,
    });
    const view = await personView(ctxOf(manager, startedAt), student.id);
    expect(view.can.switchTo).toBe(true);

    const switched = await startSwitch(ctxOf(manager, startedAt), {
      userId: student.id,
      sessionToken: own.token,
      userAgent: 'Firefox',
    });
    expect(switched.expiresAt.toISOString()).toBe('2026-09-01T12:30:00.000Z');
    // The manager's own session was replaced (rotation): its cookie no longer signs in.
    expect(await findSessionUser(database.db, own.token, startedAt)).toBeNull();
    const acting = await findSessionUser(database.db, switched.token, startedAt);
    expect(acting).toMatchObject({
      id: student.id,
      isImpersonating: true,
      impersonatorId: manager.id,
      impersonatorLabel: `Alex Morgan <${manager.email}>`,
    });
    // A request made while switched: recorded with both identities.
    await recordImpersonatedRequest(database.db, acting!, { method: 'POST', path: '/cart' });
    expect(auditActorOf(acting!)).toEqual({
      userId: manager.id,
      actingAsUserId: student.id,
      label: `Alex Morgan <${manager.email}>`,
    });

    const back = await switchBack(ctxOf(acting!, new Date('2026-09-01T12:10:00Z')), {
      sessionToken: switched.token,
      userAgent: 'Firefox',
    });
    expect(await findSessionUser(database.db, switched.token, startedAt)).toBeNull();
    expect(
      await findSessionUser(database.db, back.token, new Date('2026-09-01T12:10:00Z')),
    ).toMatchObject({ id: manager.id, isImpersonating: false });

    const rows = await database.db
      .select({
        action: auditEvents.action,
        actor: auditEvents.actorUserId,
        actingAs: auditEvents.actingAsUserId,
        label: auditEvents.actorLabel,
      })
      .from(auditEvents)
      .where(and(eq(auditEvents.objectType, 'user'), eq(auditEvents.objectId, String(student.id))))
      .orderBy(auditEvents.id);
    const both = {
      actor: manager.id,
      actingAs: student.id,
      label: `Alex Morgan <${manager.email}>`,
    };
    expect(rows).toEqual([
      { action: 'impersonate.start', ...both },
      { action: 'impersonate.request', ...both },
      { action: 'impersonate.end', ...both },
    ]);
  });

  it('issue 39: it ends by itself after 30 minutes, busy or not, and never reaches a manager', async () => {
    const manager = await account({ roles: ['manager'], canImpersonate: true });
    const otherManager = await account({ roles: ['manager'] });
    const student = await account();
    const t0 = new Date();
    const own = await startSession(database.db, {
      userId: manager.id,
      now: t0,
      secondFactor: true,
    });
    await expect(
      startSwitch(ctxOf(manager, t0), {
        userId: otherManager.id,
        sessionToken: own.token,
        userAgent: null,
      }),
    ).rejects.toMatchObject({ status: 403, messageKey: 'ops.helpdesk.switch.error.staff' });
    const switched = await startSwitch(ctxOf(manager, t0), {
      userId: student.id,
      sessionToken: own.token,
      userAgent: null,
    });
    const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
    // Busy all along: each request would slide an ordinary session; this one keeps its end.
    for (const minutes of [6, 12, 18, 24, 29]) {
      expect((await findSessionUser(database.db, switched.token, at(minutes)))?.id).toBe(
        student.id,
      );
    }
    expect(await findSessionUser(database.db, switched.token, at(30.5))).toBeNull();
  });

  it('issue 39: locking the manager ends the sessions they opened as someone else', async () => {
    const manager = await account({ roles: ['manager'], canImpersonate: true });
    const boss = await account({ roles: ['manager'] });
    const student = await account();
    const t0 = new Date();
    const own = await startSession(database.db, {
      userId: manager.id,
      now: t0,
      secondFactor: true,
    });
    const switched = await startSwitch(ctxOf(manager, t0), {
      userId: student.id,
      sessionToken: own.token,
      userAgent: null,
    });
    await lockAccount(ctxOf(boss), manager.id);
    expect(await findSessionUser(database.db, switched.token, t0)).toBeNull();
  });
});
