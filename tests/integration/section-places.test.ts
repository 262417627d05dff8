import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { accountTokens } from '#db/schema/account-tokens.ts';
import { userRoles, users } from '#db/schema/accounts.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { outbox } from '#db/schema/events.ts';
import { sectionInvitations } from '#db/schema/section-invitations.ts';
import { organizations } from '#db/schema/sites.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { signUp, verifyEmail } from '#domain/accounts/sign-up.ts';
import {
  addSectionPlaces,
  removeSectionPlace,
  sectionPlaces,
} from '#domain/courses/section-places.ts';
import { accountLinkEmail } from '#domain/notifications/account-email.ts';
import { sectionPlaceEmail } from '#domain/notifications/section-place-email.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { action as placesAction, loader as placesLoader } from '#web/manage/section-places.tsx';

// Issue 20, the bookstore's section places: "A verified address is how a new account finds
// the sections the bookstore has already put it in." The services and the page's loader on
// the test database.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const now = new Date('2026-11-27T15:00:00Z');
const ADD_DROP = new Date('2026-12-05T04:59:59Z');

async function org() {
  const [row] = await database.db
    .insert(organizations)
    .values({ title: unique('Places org') })
    .returning({ id: organizations.id });
  return row!.id;
}

async function section(orgId: number) {
  const [course] = await database.db
    .insert(courses)
    .values({ orgId, name: 'College Composition', department: 'ENG', number: '101' })
    .returning({ id: courses.id });
  const [row] = await database.db
    .insert(courseSections)
    .values({
      courseId: course!.id,
      name: 'College Composition',
      number: '003',
      rsCourseId: unique('RSC'),
      startDate: '2026-08-24',
      endDate: '2026-12-15',
      addDropAt: ADD_DROP,
    })
    .returning({ id: courseSections.id });
  return row!.id;
}

/** A user (verified unless told otherwise) and their request context. */
async function person(
  input: { orgId?: number; roles?: string[]; email?: string; verified?: boolean } = {},
): Promise<RequestContext & { user: NonNullable<RequestContext['user']> }> {
  const [row] = await database.db
    .insert(users)
    .values({
      email: input.email ?? `${unique('places')}@example.test`,
      firstName: 'Rosa',
      lastName: 'Diaz',
      orgId: input.orgId ?? null,
      emailVerifiedAt: input.verified === false ? null : now,
    })
    .returning({ id: users.id });
  for (const role of input.roles ?? []) {
    await database.db.insert(userRoles).values({ userId: row!.id, role });
  }
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  return { ...testContext(database.db, { user, now }), user };
}

const membersOf = (sectionId: number) =>
  database.db
    .select({ userId: sectionMembers.userId, role: sectionMembers.role })
    .from(sectionMembers)
    .where(eq(sectionMembers.sectionId, sectionId));

const placesOf = (sectionId: number) =>
  database.db
    .select({
      id: sectionInvitations.id,
      email: sectionInvitations.email,
      claimedBy: sectionInvitations.claimedByUserId,
    })
    .from(sectionInvitations)
    .where(eq(sectionInvitations.sectionId, sectionId))
    .orderBy(sectionInvitations.id);

/** Signs up with this address and follows the link its mail carries. */
async function signUpAndVerify(email: string): Promise<number> {
  const ctx = testContext(database.db);
  const outcome = await signUp(ctx, {
    firstName: 'Lena',
    lastName: 'Park',
    email,
    password: 'violet kettle harbour',
    language: 'en',
    next: '/shelf/',
  });
  if (!outcome.ok || outcome.userId === null) throw new Error(JSON.stringify(outcome));
  const userId = outcome.userId;
  const [link] = await database.db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, 'verify-email')))
    .orderBy(desc(accountTokens.id))
    .limit(1);
  // Taken out of the shared outbox so that no other file's worker sends it meanwhile.
  const [queued] = await database.db
    .update(outbox)
    .set({ sentAt: new Date() })
    .where(eq(outbox.dedupeKey, `account-link:${link!.id}`))
    .returning({ payload: outbox.payload });
  const mail = await accountLinkEmail(
    database.db,
    { tokenId: link!.id, next: queued!.payload.next },
    'http://shop.test',
    new Date(),
  );
  const token = /\/([\w-]{40,})(?:\?|$)/m.exec(mail!.text)![1]!;
  expect((await verifyEmail(testContext(database.db), token)).ok).toBe(true);
  return userId;
}

/** The status the page answers this user for this section id (200, 302, 403 or 404). */
async function pageStatus(ctx: RequestContext, sectionId: string): Promise<number> {
  try {
    await placesLoader({
      request: new Request(`http://127.0.0.1/manage/sections/${sectionId}/places`),
      params: { sectionId },
      context: testWebContext(database, { user: ctx.user, now }),
    } as never);
    return 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    return (thrown as { init?: { status?: number } }).init?.status ?? -1;
  }
}

/** What the page's form answers: its status and the result it shows. */
async function post(ctx: RequestContext, sectionId: number, fields: Record<string, string>) {
  const answer = (await placesAction({
    request: new Request(`http://127.0.0.1/manage/sections/${sectionId}/places`, {
      method: 'POST',
      body: new URLSearchParams(fields),
    }),
    params: { sectionId: String(sectionId) },
    context: testWebContext(database, { user: ctx.user, now }),
  } as never)) as unknown as { data: Record<string, unknown>; init: { status?: number } | null };
  return { status: answer.init?.status ?? 200, result: answer.data };
}

describe('issue 20: the bookstore puts students in a section by e-mail', () => {
  it('adds an account with a verified address as a member at once, and keeps a place for an unknown address', async () => {
    const campus = await org();
    const sectionId = await section(campus);
    const bookstore = await person({ orgId: campus, roles: ['bookstore_manager'] });
    const student = await person();
    const unknown = `${unique('Newcomer')}@Example.test`;
    const outcome = await addSectionPlaces(bookstore, sectionId, {
      text: `${student.user.email.toUpperCase()}\n${unknown}; ${unknown.toLowerCase()}`,
      role: 'student',
    });
    expect(outcome).toEqual({ ok: true, added: 1, kept: 1, already: 0 });
    expect(await membersOf(sectionId)).toEqual([{ userId: student.user.id, role: 'student' }]);
    expect((await placesOf(sectionId)).map((p) => [p.email, p.claimedBy])).toEqual([
      [unknown, null],
    ]);

    // The same addresses again: both already there, nothing doubled.
    expect(
      await addSectionPlaces(bookstore, sectionId, {
        text: `${student.user.email}, ${unknown}`,
        role: 'student',
      }),
    ).toEqual({ ok: true, added: 0, kept: 0, already: 2 });
    expect(await membersOf(sectionId)).toHaveLength(1);
    expect(await placesOf(sectionId)).toHaveLength(1);

    const view = await sectionPlaces(bookstore, sectionId);
    expect(view.section).toMatchObject({ department: 'ENG', courseNumber: '101', number: '003' });
    expect(view.memberCount).toBe(1);
    expect(view.places.map((p) => [p.email, p.claimedAt, p.claimedBy])).toEqual([
      [unknown, null, null],
    ]);
  });

  it('a later sign-up with the kept address, once verified, makes that account a member', async () => {
    const campus = await org();
    const sectionId = await section(campus);
    const manager = await person({ roles: ['manager'] });
    const email = `${unique('later')}@example.test`;
    expect(await addSectionPlaces(manager, sectionId, { text: email, role: 'student' })).toEqual({
      ok: true,
      added: 0,
      kept: 1,
      already: 0,
    });
    const userId = await signUpAndVerify(email);
    expect(await membersOf(sectionId)).toEqual([{ userId, role: 'student' }]);
    const [place] = (await sectionPlaces(manager, sectionId)).places;
    expect(place?.claimedBy).toEqual({ firstName: 'Lena', lastName: 'Park', email });
    expect(place?.claimedAt).not.toBeNull();

    // A claimed place cannot be removed here; it stays, and so does the member.
    expect(await removeSectionPlace(manager, sectionId, place!.id)).toEqual({
      ok: false,
      problem: 'claimed',
    });
    expect(await placesOf(sectionId)).toHaveLength(1);
    expect(await membersOf(sectionId)).toHaveLength(1);
  });

  it('an account whose address is not verified yet gets a kept place, not a membership', async () => {
    const campus = await org();
    const sectionId = await section(campus);
    const bookstore = await person({ orgId: campus, roles: ['bookstore_manager'] });
    const unverified = await person({ verified: false });
    expect(
      await addSectionPlaces(bookstore, sectionId, {
        text: unverified.user.email,
        role: 'teaching_assistant',
      }),
    ).toEqual({ ok: true, added: 0, kept: 1, already: 0 });
    expect(await membersOf(sectionId)).toEqual([]);
    expect((await placesOf(sectionId)).map((p) => p.email)).toEqual([unverified.user.email]);
  });

  it('one bad address refuses the whole submission and writes nothing', async () => {
    const campus = await org();
    const sectionId = await section(campus);
    const bookstore = await person({ orgId: campus, roles: ['bookstore_manager'] });
    const student = await person();
    const outcome = await addSectionPlaces(bookstore, sectionId, {
      text: `${student.user.email}\n${unique('fine')}@example.test\nnot-an-address\nana@campus`,
      role: 'student',
    });
    expect(outcome).toEqual({
      ok: false,
      problem: 'invalid',
      invalid: ['not-an-address', 'ana@campus'],
    });
    expect(await membersOf(sectionId)).toEqual([]);
    expect(await placesOf(sectionId)).toEqual([]);
    // Empty and over the cap: refused the same way.
    expect(await addSectionPlaces(bookstore, sectionId, { text: ' ;, ', role: 'student' })).toEqual(
      { ok: false, problem: 'empty' },
    );
    const many = Array.from({ length: 501 }, (_, i) => `s${i}@example.test`).join('\n');
    expect(await addSectionPlaces(bookstore, sectionId, { text: many, role: 'student' })).toEqual({
      ok: false,
      problem: 'tooMany',
      count: 501,
      max: 500,
    });
    expect(await placesOf(sectionId)).toEqual([]);
  });

  it('a bookstore manager of another organisation, or a student, is refused and writes nothing', async () => {
    const campus = await org();
    const sectionId = await section(campus);
    const elsewhere = await person({ orgId: await org(), roles: ['bookstore_manager'] });
    const student = await person({ orgId: campus });
    const email = `${unique('refused')}@example.test`;
    // Issue 39: another campus's section is not found, exactly as an unknown id; a role without
    // the tool is forbidden it, whatever the section.
    for (const [ctx, status] of [
      [elsewhere, 404],
      [student, 403],
    ] as const) {
      await expect(
        addSectionPlaces(ctx, sectionId, { text: email, role: 'student' }),
      ).rejects.toMatchObject({ status });
      await expect(sectionPlaces(ctx, sectionId)).rejects.toMatchObject({ status });
      await expect(sectionPlaces(ctx, 2_000_000_000)).rejects.toMatchObject({ status });
    }
    expect(await placesOf(sectionId)).toEqual([]);

    // The page: not found for another campus's section as for an unknown or malformed id; the
    // forbidden page for a student.
    expect(await pageStatus(elsewhere, String(sectionId))).toBe(404);
    expect(await pageStatus(elsewhere, '2000000000')).toBe(404);
    expect(await pageStatus(student, String(sectionId))).toBe(403);
    const own = await person({ orgId: campus, roles: ['bookstore_manager'] });
    expect(await pageStatus(own, String(sectionId))).toBe(200);
    expect(await pageStatus(own, '2000000000')).toBe(404);
    expect(await pageStatus(own, 'abc')).toBe(404);
    expect(await pageStatus(testContext(database.db, { now }), String(sectionId))).toBe(302);
  });

  it('removes a place still kept, once; another section’s place is not found there', async () => {
    const campus = await org();
    const sectionId = await section(campus);
    const other = await section(campus);
    const bookstore = await person({ orgId: campus, roles: ['bookstore_manager'] });
    const email = `${unique('remove')}@example.test`;
    await addSectionPlaces(bookstore, sectionId, { text: email, role: 'student' });
    await addSectionPlaces(bookstore, other, { text: email, role: 'student' });
    const [place] = await placesOf(sectionId);
    const [otherPlace] = await placesOf(other);
    expect(await removeSectionPlace(bookstore, sectionId, otherPlace!.id)).toEqual({
      ok: false,
      problem: 'gone',
    });
    expect(await removeSectionPlace(bookstore, sectionId, place!.id)).toEqual({ ok: true, email });
    expect(await placesOf(sectionId)).toEqual([]);
    expect(await removeSectionPlace(bookstore, sectionId, place!.id)).toEqual({
      ok: false,
      problem: 'gone',
    });
    expect(await placesOf(other)).toHaveLength(1);
  });

  it('an account verified after its place was kept joins when the bookstore adds it again', async () => {
    const campus = await org();
    const sectionId = await section(campus);
    const bookstore = await person({ orgId: campus, roles: ['bookstore_manager'] });
    const student = await person({ verified: false });
    await addSectionPlaces(bookstore, sectionId, { text: student.user.email, role: 'student' });
    await database.db
      .update(users)
      .set({ emailVerifiedAt: now })
      .where(eq(users.id, student.user.id));
    expect(
      await addSectionPlaces(bookstore, sectionId, { text: student.user.email, role: 'student' }),
    ).toEqual({ ok: true, added: 1, kept: 0, already: 0 });
    expect(await membersOf(sectionId)).toEqual([{ userId: student.user.id, role: 'student' }]);
    expect((await placesOf(sectionId)).map((p) => p.claimedBy)).toEqual([student.user.id]);
  });

  it('mails each newly kept address, in the language of the page it was kept from, until its place is taken', async () => {
    const campus = await org();
    const sectionId = await section(campus);
    const bookstore = await person({ orgId: campus, roles: ['bookstore_manager'] });
    const inFrench = { ...bookstore, locale: 'fr-CA' as const };
    const member = await person();
    const email = `${unique('mailed')}@example.test`;
    await addSectionPlaces(inFrench, sectionId, {
      text: `${member.user.email}\n${email}`,
      role: 'student',
    });
    const [place] = await placesOf(sectionId);
    // Taken out of the shared outbox so that no other file's worker sends it meanwhile.
    const queued = await database.db
      .update(outbox)
      .set({ sentAt: new Date() })
      .where(eq(outbox.kind, 'section-place'))
      .returning({ dedupeKey: outbox.dedupeKey, payload: outbox.payload });
    // One mail: the kept address; the member who joined at once gets none.
    const mine = queued.filter((row) => row.dedupeKey === `section-place:${place!.id}`);
    expect(mine.map((row) => row.payload)).toEqual([{ placeId: place!.id, locale: 'fr-CA' }]);
    const [school] = await database.db
      .select({ title: organizations.title })
      .from(organizations)
      .where(eq(organizations.id, campus));
    const mail = await sectionPlaceEmail(
      database.db,
      mine[0]!.payload as never,
      'http://shop.test',
    );
    expect(mail).toEqual({
      to: email,
      subject: 'Une place vous est réservée dans ENG 101 : Section 003',
      text: [
        'Bonjour,',
        '',
        `Une place vous est réservée dans ENG 101 : Section 003 (College Composition) à ${school!.title}; créez votre compte avec cette adresse pour la trouver sur votre étagère.`,
        '',
        'Créez votre compte : http://shop.test/accounts/signup/',
        '',
        'Vous avez déjà un compte avec cette adresse? Connectez-vous et confirmez l’adresse : le cours sera sur votre étagère.',
        '',
        'Si vous ne suivez pas ce cours, vous pouvez ignorer ce courriel.',
      ].join('\n'),
    });
    const english = await sectionPlaceEmail(
      database.db,
      { placeId: place!.id, locale: 'en' },
      'http://shop.test',
    );
    expect(english?.subject).toBe('A place is kept for you in ENG 101: Section 003');
    expect(english?.text).toContain(
      'create your account with this address to find it on your shelf.',
    );
    // Taken before the worker came round: nothing to send.
    await signUpAndVerify(email);
    expect(
      await sectionPlaceEmail(
        database.db,
        { placeId: place!.id, locale: 'en' },
        'http://shop.test',
      ),
    ).toBeNull();
  });

  it('the form refuses bad input with a 400 and its message, a taken place with a 409, and writes nothing', async () => {
    const campus = await org();
    const sectionId = await section(campus);
    const bookstore = await person({ orgId: campus, roles: ['bookstore_manager'] });
    expect(
      await post(bookstore, sectionId, { intent: 'add', addresses: 'x', role: 'dean' }),
    ).toEqual({ status: 400, result: expect.objectContaining({ message: 'places.error.role' }) });
    expect(
      await post(bookstore, sectionId, {
        intent: 'add',
        addresses: 'a@b.ca '.repeat(30_000),
        role: 'student',
      }),
    ).toEqual({
      status: 400,
      result: expect.objectContaining({ message: 'places.error.tooLong' }),
    });
    expect(
      await post(bookstore, sectionId, {
        intent: 'add',
        addresses: 'ok@example.test\nbad',
        role: 'teaching_assistant',
      }),
    ).toEqual({
      status: 400,
      result: {
        kind: 'error',
        message: 'places.error.invalid',
        params: { count: 1 },
        invalid: ['bad'],
        // Back in the form, to be corrected.
        text: 'ok@example.test\nbad',
        role: 'teaching_assistant',
      },
    });
    expect(await post(bookstore, sectionId, { intent: 'remove', placeId: '0x10' })).toEqual({
      status: 400,
      result: expect.objectContaining({ message: 'error.invalid' }),
    });
    expect(await placesOf(sectionId)).toEqual([]);

    const email = `${unique('taken')}@example.test`;
    expect(
      await post(bookstore, sectionId, { intent: 'add', addresses: email, role: 'student' }),
    ).toEqual({ status: 200, result: { kind: 'added', added: 0, kept: 1, already: 0 } });
    await signUpAndVerify(email);
    const [place] = await placesOf(sectionId);
    expect(
      await post(bookstore, sectionId, { intent: 'remove', placeId: String(place!.id) }),
    ).toEqual({
      status: 409,
      result: { kind: 'error', message: 'places.error.claimed' },
    });
  });
});
