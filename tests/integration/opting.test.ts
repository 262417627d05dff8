import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import type { DatabaseHandle } from '#db/client.ts';
import { userRoles, users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import {
  courseSections,
  courses,
  optChanges,
  sectionMembers,
  sectionProducts,
} from '#db/schema/courses.ts';
import { analyticsEvents, outbox } from '#db/schema/events.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { optingFacts } from '#domain/courses/service.ts';
import { optingConfirmationEmail } from '#domain/notifications/opting-email.ts';
import { readingGrant } from '#domain/reading/reader-access.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden } from '#domain/shared/errors.ts';
import { acquireCourseMaterial, courseSectionView } from '#domain/shelf/course-section.ts';
import { enrolledSections, lostAccess } from '#domain/shelf/my-shelf.ts';
import { ownsProduct } from '#domain/shelf/service.ts';
import { runOutboxOnce, type Send } from '#server/outbox-worker.ts';
import { insertProduct, uniqueDigits } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { loader as optStatusCsvLoader } from '#web/routes/opt-status-csv.tsx';

// Issue 6, Opting: the member calls of spec 2 §7 on the database — the status, the
// opt_changes record and the inclusive-access reading move together; the deadline holds;
// members only. The partner hand-off look-up, the redirect-error event and the managers'
// opt-status download.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const DAY = 86_400_000;
const now = new Date('2026-11-23T15:00:00Z');
const today = '2026-11-23';

type OrgFlags = Partial<typeof organizations.$inferInsert>;

async function org(flags: OrgFlags = {}) {
  const [row] = await database.db
    .insert(organizations)
    .values({ title: unique('Org'), ...flags })
    .returning({ id: organizations.id });
  return row!.id;
}

async function person(
  input: {
    orgId?: number;
    roles?: string[];
    firstName?: string;
    lastName?: string;
    languageCode?: 'en' | 'fr-CA';
  } = {},
): Promise<RequestContext> {
  const [row] = await database.db
    .insert(users)
    .values({
      email: `${unique('opting')}@example.test`,
      firstName: input.firstName ?? 'Sam',
      lastName: input.lastName ?? 'Student',
      orgId: input.orgId ?? null,
      languageCode: input.languageCode ?? null,
    })
    .returning({ id: users.id });
  for (const role of input.roles ?? []) {
    await database.db.insert(userRoles).values({ userId: row!.id, role });
  }
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  return testContext(database.db, { user, now });
}

async function section(
  input: {
    orgId?: number;
    courseType?: string;
    optingMethod?: string;
    disableAutoProvisioning?: boolean;
    timeZone?: string;
    courseFeeCents?: number | null;
  } = {},
) {
  const [course] = await database.db
    .insert(courses)
    .values({
      orgId: input.orgId ?? (await org()),
      name: 'Organic Chemistry',
      department: 'CHEM',
      number: '240',
      courseType: input.courseType ?? 'inclusive_access',
    })
    .returning({ id: courses.id });
  const rsCourseId = unique('RSC');
  const [row] = await database.db
    .insert(courseSections)
    .values({
      courseId: course!.id,
      name: 'CHEM 240 - 001',
      number: '001',
      rsCourseId,
      startDate: '2026-08-25',
      endDate: '2026-12-15',
      addDropAt: new Date(now.getTime() + 10 * DAY),
      timeZone: input.timeZone ?? 'UTC',
      courseFeeCents: input.courseFeeCents ?? null,
      optingMethod: input.optingMethod ?? 'opt-out',
      disableAutoProvisioning: input.disableAutoProvisioning ?? false,
    })
    .returning({ id: courseSections.id });
  return { id: row!.id, rsCourseId };
}

async function join(
  ctx: RequestContext,
  sectionId: number,
  extra: Partial<typeof sectionMembers.$inferInsert> = {},
): Promise<number> {
  const [row] = await database.db
    .insert(sectionMembers)
    .values({
      sectionId,
      userId: ctx.user!.id,
      role: 'student',
      addDropDate: new Date(now.getTime() + 10 * DAY),
      rsCoursememberId: unique('RSM'),
      ...extra,
    })
    .returning({ id: sectionMembers.id });
  return row!.id;
}

/** A material of the section the student reads through inclusive access. */
async function inclusiveBook(ctx: RequestContext, sectionId: number): Promise<number> {
  const productId = await insertProduct(
    database.db,
    { title: unique('Inclusive') },
    { identifiers: [{ type: 'EISBN13', value: uniqueDigits() }], readerFile: true },
  );
  await database.db.insert(sectionProducts).values({ sectionId, productId });
  await database.db.insert(ownerships).values({
    userId: ctx.user!.id,
    productId,
    source: 'inclusive_access',
    courseSectionId: sectionId,
    startsAt: new Date('2026-08-25T00:00:00Z'),
    expiresAt: new Date('2026-12-16T00:00:00Z'),
  });
  return productId;
}

function call(
  ctx: RequestContext,
  path: string,
  init: { method?: string; body?: unknown; raw?: string } = {},
) {
  const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  return handleApiRequest(
    new Request(`http://127.0.0.1${path}`, {
      method: init.method ?? 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json' },
      body,
    }),
    testWebContext(database, { user: ctx.user, now: ctx.now }),
  );
}

const optOutBody = (reason: number | string, message?: string | null) => ({
  data: { type: 'Member', attributes: { selected_reason: reason, message } },
});

async function memberRow(memberId: number) {
  const [row] = await database.db
    .select()
    .from(sectionMembers)
    .where(eq(sectionMembers.id, memberId));
  return row!;
}

async function changesOf(memberId: number) {
  return database.db
    .select()
    .from(optChanges)
    .where(eq(optChanges.memberId, memberId))
    .orderBy(optChanges.id);
}

async function activeInclusive(userId: number, productId: number) {
  return database.db
    .select()
    .from(ownerships)
    .where(
      and(
        eq(ownerships.userId, userId),
        eq(ownerships.productId, productId),
        eq(ownerships.source, 'inclusive_access'),
      ),
    )
    .orderBy(ownerships.id);
}

describe('one deadline, one day (issue 38)', () => {
  // Found by the walk: after opting out the banner said 2026-12-16 and every material card
  // 2026-12-17, the UTC date of the same instant. Every place says the course's day.
  it('the banner, the material card, the reader and My Shelf say the deadline on the course’s day', async () => {
    const student = await person();
    const { id: sectionId } = await section({ timeZone: 'America/New_York' });
    const deadline = new Date('2026-12-04T04:59:00Z'); // Dec 3, 11:59 PM in New York
    const memberId = await join(student, sectionId, { addDropDate: deadline });
    const book = await inclusiveBook(student, sectionId);
    const out = await call(student, `/api/members/${memberId}/opt-out`, { body: optOutBody(2) });
    expect(out.status).toBe(200);
    const view = await courseSectionView(student, sectionId, today);
    expect(view.opting).toMatchObject({ optStatus: 'opted_out', deadline: '2026-12-03' });
    expect(view.materials.find((m) => m.productId === book)?.notice).toEqual({
      key: 'access.reason.optedOut',
      params: { deadline: '2026-12-03' },
    });
    const refusal = await readingGrant(student, book, { courseMemberId: null }).catch((e) => e);
    expect(refusal).toMatchObject({ params: { deadline: '2026-12-03' } });
    expect(await lostAccess(student, await enrolledSections(student), today)).toEqual([
      { kind: 'optedOut', sectionId, course: 'CHEM 240', deadline: '2026-12-03' },
    ]);
  });
});

describe('opting out, then back in (spec 1 §4 Opting; spec 2 §7)', () => {
  it('revokes inclusive-access reading at once, records each change, and restores it', async () => {
    const student = await person();
    const { id: sectionId } = await section();
    const memberId = await join(student, sectionId, { isCourseFee: true });
    const book = await inclusiveBook(student, sectionId);
    // What the course fee gave (Start Reading, Acquire Code) goes with the opt-out too.
    const feeBook = await insertProduct(
      database.db,
      { title: unique('Fee') },
      { readerFile: true, priceCents: null },
    );
    await database.db.insert(sectionProducts).values({ sectionId, productId: feeBook });
    await acquireCourseMaterial(student, sectionId, feeBook);
    expect(await ownsProduct(student, feeBook)).toBe(true);
    // The product pages' per-process cache has the ownership...
    expect(await ownsProduct(student, book)).toBe(true);
    const before = await courseSectionView(student, sectionId, today);
    expect(before.opting).toEqual({
      kind: 'standard',
      optStatus: 'opted_in',
      daysLeft: 10,
      deadline: '2026-12-03',
    });
    expect(before.materials.find((m) => m.productId === book)?.action).toBe('read');

    const out = await call(student, `/api/members/${memberId}/opt-out`, {
      body: optOutBody(5, '  Borrowed it from the library  '),
    });
    expect(out.status).toBe(200);
    expect((await out.json()).data).toMatchObject({
      type: 'Member',
      id: String(memberId),
      attributes: { optStatus: 'opted_out' },
    });
    expect((await memberRow(memberId)).optStatus).toBe('opted_out');
    // ...and forgets it with the change: no reading through inclusive access.
    expect(await ownsProduct(student, book)).toBe(false);
    expect(await ownsProduct(student, feeBook)).toBe(false);
    const [revoked] = await activeInclusive(student.user!.id, book);
    expect(revoked?.revokedAt).toEqual(now);
    expect(revoked?.revokedReason).toBe('optOut');
    const afterOut = await courseSectionView(student, sectionId, today);
    expect(afterOut.opting).toMatchObject({ kind: 'standard', optStatus: 'opted_out' });
    const material = afterOut.materials.find((m) => m.productId === book);
    // Not owned, no course fee once opted out, and before the deadline nothing to buy.
    expect(material).toMatchObject({ owned: false, action: null });
    // issue 14: it says why, and until when the student can opt back in...
    expect(material?.notice).toEqual({
      key: 'access.reason.optedOut',
      params: { deadline: '2026-12-03' },
    });
    // ...and so do the reader (with the way back) and My Shelf, which the book has left.
    const refusal = await readingGrant(student, book, { courseMemberId: null }).catch((e) => e);
    expect(refusal).toBeInstanceOf(Forbidden);
    expect(refusal).toMatchObject({
      messageKey: 'access.reason.optedOut',
      params: { deadline: '2026-12-03', wayBack: 'optBackIn', sectionId },
    });
    expect(await lostAccess(student, await enrolledSections(student), today)).toEqual([
      { kind: 'optedOut', sectionId, course: 'CHEM 240', deadline: '2026-12-03' },
    ]);
    // An opted-out student gets nothing through the course fee (spec 1 §6).
    await expect(acquireCourseMaterial(student, sectionId, book)).rejects.toBeInstanceOf(Forbidden);

    const later = { ...student, now: new Date(now.getTime() + DAY) };
    const back = await call(later, `/api/members/${memberId}/opt-in`, {
      body: { data: { type: 'Member', id: String(memberId) } },
    });
    expect(back.status).toBe(200);
    expect((await memberRow(memberId)).optStatus).toBe('opted_in');
    const rows = await activeInclusive(student.user!.id, book);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({
      revokedAt: null,
      courseSectionId: sectionId,
      startsAt: rows[0]!.startsAt,
      expiresAt: rows[0]!.expiresAt,
    });
    expect(await ownsProduct(later, book)).toBe(true);
    expect(await ownsProduct(later, feeBook)).toBe(true);
    expect(
      (await courseSectionView(later, sectionId, today)).materials.find((m) => m.productId === book)
        ?.action,
    ).toBe('read');

    // Every change: time, actor, from and to, and the reason of an opt-out.
    expect(
      (await changesOf(memberId)).map((c) => ({
        actor: c.actorUserId,
        from: c.fromStatus,
        to: c.toStatus,
        reason: c.reason,
        message: c.message,
        at: c.changedAt.toISOString(),
      })),
    ).toEqual([
      {
        actor: student.user!.id,
        from: 'opted_in',
        to: 'opted_out',
        reason: 5,
        message: 'Borrowed it from the library',
        at: now.toISOString(),
      },
      {
        actor: student.user!.id,
        from: 'opted_out',
        to: 'opted_in',
        reason: null,
        message: null,
        at: later.now.toISOString(),
      },
    ]);
  });

  it('opt-in takes an empty body too, and a reason given as its digit', async () => {
    const student = await person();
    const { id: sectionId } = await section();
    const memberId = await join(student, sectionId);
    expect(
      (await call(student, `/api/members/${memberId}/opt-out`, { body: optOutBody('2') })).status,
    ).toBe(200);
    expect((await changesOf(memberId))[0]?.reason).toBe(2);
    expect((await call(student, `/api/members/${memberId}/opt-in`)).status).toBe(200);
    expect((await memberRow(memberId)).optStatus).toBe('opted_in');
  });

  it('leaves a copy the student bought meanwhile as it is', async () => {
    const student = await person();
    const { id: sectionId } = await section();
    const memberId = await join(student, sectionId);
    const book = await inclusiveBook(student, sectionId);
    await call(student, `/api/members/${memberId}/opt-out`, { body: optOutBody(2) });
    await database.db.insert(ownerships).values({
      userId: student.user!.id,
      productId: book,
      source: 'purchase',
      startsAt: now,
    });
    expect((await call(student, `/api/members/${memberId}/opt-in`)).status).toBe(200);
    const active = await database.db
      .select({ source: ownerships.source })
      .from(ownerships)
      .where(and(eq(ownerships.userId, student.user!.id), eq(ownerships.productId, book)));
    expect(active.map((r) => r.source).sort()).toEqual(['inclusive_access', 'purchase']);
  });
});

describe('refusals change nothing (spec 1 §5; spec 2 §4)', () => {
  it('after the deadline: 409 with the translated message, in the page and by a request', async () => {
    const student = await person();
    const { id: sectionId } = await section();
    const memberId = await join(student, sectionId, {
      addDropDate: new Date(now.getTime() - 1000),
    });
    const book = await inclusiveBook(student, sectionId);
    expect((await courseSectionView(student, sectionId, today)).opting).toBeNull();
    const response = await call(student, `/api/members/${memberId}/opt-out`, {
      body: optOutBody(1),
    });
    expect(response.status).toBe(409);
    expect((await response.json()).errors[0]).toMatchObject({
      code: 'opting.error.deadline',
      detail: 'The opting deadline for this course has passed.',
    });
    const french = await handleApiRequest(
      new Request(`http://127.0.0.1/api/members/${memberId}/opt-out`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify(optOutBody(1)),
      }),
      testWebContext(database, { user: student.user, now, locale: 'fr-CA' }),
    );
    expect((await french.json()).errors[0].detail).toBe(
      'La date limite d’inscription pour ce cours est passée.',
    );
    expect((await memberRow(memberId)).optStatus).toBe('opted_in');
    expect(await changesOf(memberId)).toEqual([]);
    expect((await activeInclusive(student.user!.id, book))[0]?.revokedAt).toBeNull();
  });

  it('an opted-out student after the deadline cannot opt back in, and buys instead', async () => {
    const student = await person();
    const { id: sectionId } = await section();
    const memberId = await join(student, sectionId, {
      optStatus: 'opted_out',
      addDropDate: new Date(now.getTime() - DAY),
    });
    const productId = await insertProduct(database.db, { title: unique('Sold') });
    await database.db.insert(sectionProducts).values({ sectionId, productId });
    expect((await call(student, `/api/members/${memberId}/opt-in`)).status).toBe(409);
    expect((await memberRow(memberId)).optStatus).toBe('opted_out');
    // spec 1 §5: the ecommerce channel opens for them (spec 1 §4 shelf button priority 3).
    const view = await courseSectionView(student, sectionId, today);
    expect(view.materials.find((m) => m.productId === productId)?.action).toBe('addToCart');
  });

  it('who may not opt is forbidden; the same status twice is a conflict', async () => {
    const student = await person();
    const { id: sectionId } = await section();
    const locked = await join(student, sectionId, { canUpdateOptStatus: false });
    const response = await call(student, `/api/members/${locked}/opt-out`, {
      body: optOutBody(1),
    });
    expect(response.status).toBe(403);
    expect((await response.json()).errors[0].code).toBe('opting.error.notAllowed');

    const other = await person();
    const noOpt = await section({ optingMethod: 'no-opt' });
    const noOptMember = await join(other, noOpt.id);
    expect(
      (await call(other, `/api/members/${noOptMember}/opt-out`, { body: optOutBody(1) })).status,
    ).toBe(403);

    const professor = await person();
    const taught = await join(professor, sectionId, { role: 'professor' });
    expect(
      (await call(professor, `/api/members/${taught}/opt-out`, { body: optOutBody(1) })).status,
    ).toBe(403);

    const again = await person();
    const againMember = await join(again, sectionId);
    const same = await call(again, `/api/members/${againMember}/opt-in`);
    expect(same.status).toBe(409);
    expect((await same.json()).errors[0].code).toBe('opting.error.unchanged');
    expect(await changesOf(againMember)).toEqual([]);
  });

  it("another student's member id is not found; malformed calls are 404 or 400, never 500", async () => {
    const owner = await person();
    const stranger = await person();
    const { id: sectionId } = await section();
    const memberId = await join(owner, sectionId);
    const path = `/api/members/${memberId}/opt-out`;
    expect((await call(stranger, path, { body: optOutBody(1) })).status).toBe(404);
    expect(
      (await call(stranger, '/api/members/2000000000/opt-out', { body: optOutBody(1) })).status,
    ).toBe(404);
    for (const id of ['abc', '0', '-1', '99999999999', '1.5']) {
      expect(
        (await call(owner, `/api/members/${id}/opt-out`, { body: optOutBody(1) })).status,
      ).toBe(404);
    }
    const bad = [
      { raw: '{not json' },
      { body: {} },
      { body: { data: { type: 'User', attributes: { selected_reason: 1 } } } },
      { body: optOutBody(6) },
      { body: optOutBody(0) },
      { body: optOutBody('other') },
      { body: { data: { type: 'Member', attributes: { selected_reason: 1, extra: true } } } },
      { body: optOutBody(5) },
      { body: optOutBody(5, '   ') },
      { body: optOutBody(1, 'x'.repeat(257)) },
      { body: { data: { type: 'Member', id: '1', attributes: { selected_reason: 1 } } } },
    ];
    for (const init of bad) {
      const response = await call(owner, path, init);
      expect(response.status, JSON.stringify(init)).toBe(400);
    }
    expect(
      (
        await call(owner, `/api/members/${memberId}/opt-in`, {
          body: { data: { type: 'Member', attributes: { selected_reason: 1 } } },
        })
      ).status,
    ).toBe(400);
    expect((await call(owner, path, { method: 'GET' })).status).toBe(405);
    const anonymous = await handleApiRequest(
      new Request(`http://127.0.0.1${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify(optOutBody(1)),
      }),
      testWebContext(database, { now }),
    );
    expect(anonymous.status).toBe(403);
    expect((await memberRow(memberId)).optStatus).toBe('opted_in');
    expect(await changesOf(memberId)).toEqual([]);
  });
});

describe('what a section sells (spec 1 §5)', () => {
  it('offerings show with cdsEnabled or auto-provisioning disabled, not on inclusive access', async () => {
    const student = await person();
    const inclusive = await section();
    const cds = await section({ orgId: await org({ isCdsEnabled: true }), courseType: 'cds' });
    const lms = await section({ courseType: 'lms_ecommerce', disableAutoProvisioning: true });
    const productId = await insertProduct(
      database.db,
      { title: unique('Text') },
      { readerFile: true },
    );
    for (const s of [inclusive, cds, lms]) {
      await database.db.insert(sectionProducts).values({ sectionId: s.id, productId });
      await join(student, s.id);
    }
    const action = async (id: number) =>
      (await courseSectionView(student, id, today)).materials[0]?.action;
    // Inclusive access sells nothing; courtesy access reads it (issue 14).
    expect(await action(inclusive.id)).toBe('read');
    expect(await action(cds.id)).toBe('addToCart');
    expect(await action(lms.id)).toBe('addToCart');
    // Auto-provisioning disabled: no opting either.
    expect((await courseSectionView(student, lms.id, today)).opting).toBeNull();
  });
});

describe('the bookstore partner (spec 1 §4 Partner hand-off; spec 2 §7)', () => {
  it('shows its own banner and Buy Now modal, refuses opting, and answers the look-up', async () => {
    const partnerOrg = await org({
      isBookstorePartner: true,
      isRetailer: true,
      purchaseModalEnabled: true,
      partnerStoreUrl: 'https://store.example.edu/course-materials',
    });
    const student = await person({ orgId: partnerOrg });
    const { id: sectionId, rsCourseId } = await section({
      orgId: partnerOrg,
      courseType: 'student_choice',
    });
    const memberId = await join(student, sectionId, { optStatus: 'opted_out' });
    const isbn = uniqueDigits();
    const wanted = await insertProduct(
      database.db,
      { title: unique('Wanted') },
      { identifiers: [{ type: 'ISBN13', value: isbn }] },
    );
    const ownedIsbn = uniqueDigits();
    const owned = await insertProduct(
      database.db,
      { title: unique('Owned') },
      { identifiers: [{ type: 'EISBN13', value: ownedIsbn }] },
    );
    await database.db.insert(sectionProducts).values([
      { sectionId, productId: wanted },
      { sectionId, productId: owned },
    ]);
    await database.db.insert(ownerships).values({
      userId: student.user!.id,
      productId: owned,
      source: 'purchase',
      startsAt: new Date('2026-01-01'),
    });
    const view = await courseSectionView(student, sectionId, today);
    expect(view.opting).toMatchObject({ kind: 'partner', message: 'optedOut', open: true });
    expect(view.partner).toEqual({
      buyNow: true,
      purchaseModal: true,
      candidates: [{ productId: wanted, title: expect.any(String), productType: 'book' }],
      storeUrl: 'https://store.example.edu/course-materials',
    });
    const refused = await call(student, `/api/members/${memberId}/opt-in`);
    expect(refused.status).toBe(403);
    expect((await refused.json()).errors[0].code).toBe('opting.error.partner');

    const lookUp = await call(student, `/api/efollett/${rsCourseId}/`, { method: 'GET' });
    expect(lookUp.status).toBe(200);
    const { data } = await lookUp.json();
    expect(data.attributes.url).toBe('https://store.example.edu/course-materials');
    expect(data.attributes.body).toMatchObject({
      course_id: rsCourseId,
      department: 'CHEM',
      course_number: '240',
      section_number: '001',
      isbns: isbn,
    });

    // Members only; other organisations have no hand-off; nonsense ids are not found.
    const stranger = await person({ orgId: partnerOrg });
    expect((await call(stranger, `/api/efollett/${rsCourseId}/`, { method: 'GET' })).status).toBe(
      404,
    );
    const plain = await section();
    await join(student, plain.id);
    expect(
      (await call(student, `/api/efollett/${plain.rsCourseId}/`, { method: 'GET' })).status,
    ).toBe(404);
    expect((await call(student, '/api/efollett/%3Cx%3E/', { method: 'GET' })).status).toBe(404);
    const anonymous = await handleApiRequest(
      new Request(`http://127.0.0.1/api/efollett/${rsCourseId}/`),
      testWebContext(database, { now }),
    );
    expect(anonymous.status).toBe(403);
  });

  it('lists each material once: Buy Now for what is bought there, a free book to add, owned ones', async () => {
    const partnerOrg = await org({
      isBookstorePartner: true,
      isRetailer: true,
      purchaseModalEnabled: true,
      partnerStoreUrl: 'https://store.example.edu/course-materials',
    });
    const student = await person({ orgId: partnerOrg });
    const { id: sectionId, rsCourseId } = await section({
      orgId: partnerOrg,
      courseType: 'student_choice',
    });
    await join(student, sectionId, { optStatus: 'opted_out' });
    const isbn = (value: string) => ({ identifiers: [{ type: 'ISBN13', value }] });
    const [paidIsbn, freeIsbn, ownedIsbn] = [uniqueDigits(), uniqueDigits(), uniqueDigits()];
    const paid = await insertProduct(database.db, { title: unique('Paid') }, isbn(paidIsbn));
    const free = await insertProduct(
      database.db,
      { title: unique('Free') },
      { ...isbn(freeIsbn), priceCents: 0 },
    );
    const owned = await insertProduct(
      database.db,
      { title: unique('Owned') },
      { ...isbn(ownedIsbn), readerFile: true },
    );
    await database.db.insert(sectionProducts).values([
      { sectionId, productId: paid, position: 0 },
      { sectionId, productId: free, position: 1 },
      { sectionId, productId: owned, position: 2 },
    ]);
    await database.db.insert(ownerships).values({
      userId: student.user!.id,
      productId: owned,
      source: 'purchase',
      startsAt: new Date('2026-01-01'),
    });
    const view = await courseSectionView(student, sectionId, today);
    // 'Available to buy/acquire' with Buy Now: only what the partner store sells this member.
    expect(view.partner.candidates.map((c) => c.productId)).toEqual([paid]);
    // 'Your Materials': the rest, each once; the free book offers Add To My Shelf.
    expect(view.materials.map((m) => [m.productId, m.action])).toEqual([
      [free, 'addToShelf'],
      [owned, 'read'],
    ]);
    // The hand-off to the partner store names the same materials: not the free book.
    const lookUp = await call(student, `/api/efollett/${rsCourseId}/`, { method: 'GET' });
    expect((await lookUp.json()).data.attributes.body.isbns).toBe(paidIsbn);
  });

  it('records a redirect failure as a redirect_error event', async () => {
    const student = await person();
    const path = `/shelf/course-section/${unique('x')}`;
    const response = await call(student, '/api/events/redirect-error', {
      body: { path, message: 'handoff look-up answered 404' },
    });
    expect(response.status).toBe(204);
    const [event] = await database.db
      .select()
      .from(analyticsEvents)
      .where(and(eq(analyticsEvents.path, path), eq(analyticsEvents.name, 'redirect_error')));
    expect(event).toMatchObject({
      userId: student.user!.id,
      props: { message: 'handoff look-up answered 404' },
    });
    expect(
      (await call(student, '/api/events/redirect-error', { body: { path: 'x', message: 1 } }))
        .status,
    ).toBe(400);
  });
});

describe('the opt-status download (issue 6)', () => {
  // The file the page route answers (entry.server.tsx sends it as the response).
  async function download(ctx: RequestContext, sectionId: number | string) {
    const file = await optStatusCsvLoader({
      request: new Request(`http://127.0.0.1/manage/sections/${sectionId}/opt-status.csv`),
      params: { sectionId: String(sectionId) },
      context: testWebContext(database, { user: ctx.user, now: ctx.now }),
    } as never);
    return new Response(file.data, file.init ?? {});
  }

  async function status(ctx: RequestContext, sectionId: number | string): Promise<number> {
    try {
      return (await download(ctx, sectionId)).status;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown.status;
      return (thrown as { init?: { status?: number } }).init?.status ?? -1;
    }
  }

  it('lists who is opted in or out with reasons, safe for spreadsheets', async () => {
    const campus = await org();
    const { id: sectionId } = await section({ orgId: campus });
    const leaver = await person({ firstName: '=HYPERLINK("http://evil")', lastName: 'Aardvark' });
    const leaverMember = await join(leaver, sectionId);
    const stayer = await person({ firstName: 'Bea', lastName: 'Zed' });
    await join(stayer, sectionId);
    const professor = await person({ lastName: 'Prof' });
    await join(professor, sectionId, { role: 'professor' });
    await call(leaver, `/api/members/${leaverMember}/opt-out`, {
      body: optOutBody(5, '-cheaper, "used" copy'),
    });

    const manager = await person({ roles: ['manager'] });
    const response = await download(manager, sectionId);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toMatch(
      /^attachment; filename="opt-status-RSC-[\w.-]+\.csv"$/,
    );
    const text = (await response.text()).replace(/^\uFEFF/, '');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'Member ID,Last name,First name,E-mail,Opt status,Reason,Message,Changed at,Changed by',
    );
    // Students only, by last name; a formula-looking cell starts with an apostrophe.
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(',Aardvark,"\'=HYPERLINK(""http://evil"")",');
    expect(lines[1]).toContain(`,Opted out,Other,"'-cheaper, ""used"" copy",${now.toISOString()},`);
    expect(lines[1]?.endsWith(leaver.user!.email)).toBe(true);
    expect(lines[2]).toContain(',Zed,Bea,');
    expect(lines[2]).toContain(',Opted in,,,,');
    expect(lines[3]).toBe('');
  });

  it('is for managers, and bookstore managers of the section’s organisation', async () => {
    const campus = await org();
    const { id: sectionId } = await section({ orgId: campus });
    expect(
      await status(await person({ roles: ['bookstore_manager'], orgId: campus }), sectionId),
    ).toBe(200);
    // Issue 39: another campus's section is not found, exactly as an unknown id.
    const elsewhere = await person({ roles: ['bookstore_manager'], orgId: await org() });
    expect(await status(elsewhere, sectionId)).toBe(404);
    expect(await status(elsewhere, 2_000_000_000)).toBe(404);
    const student = await person({ orgId: campus });
    await join(student, sectionId);
    expect(await status(student, sectionId)).toBe(403);
    expect(await status(student, 2_000_000_000)).toBe(403);
    const manager = await person({ roles: ['manager'] });
    expect(await status(manager, 2_000_000_000)).toBe(404);
    expect(await status(manager, 'abc')).toBe(404);
    // Anonymous visitors are sent to log in.
    expect(await status(testContext(database.db, { now }), sectionId)).toBe(302);
  });
});

// Issue 19: every completed opt-out and opt-in sends one confirmation mail, in the student's
// language, through the outbox; and the student sees the fee, what it includes, the price of
// the same materials bought separately and the deadline's time with the course's time zone.
describe('issue 19: opting confirmations and what the student decides on', () => {
  /** The outbox rows of this member's opting confirmations. */
  async function confirmationsOf(memberId: number) {
    const changes = await changesOf(memberId);
    const keys = new Set(changes.map((c) => `opting-confirmation:${c.id}`));
    const rows = await database.db
      .select({ kind: outbox.kind, dedupeKey: outbox.dedupeKey, payload: outbox.payload })
      .from(outbox)
      .where(eq(outbox.kind, 'opting-confirmation'));
    return rows.filter((row) => row.dedupeKey !== null && keys.has(row.dedupeKey));
  }

  /** Runs the worker until nothing is due; the mails it sent to `to`. */
  async function sentTo(to: string) {
    const sent: Parameters<Send>[0][] = [];
    const send: Send = async (message) => {
      sent.push(message);
    };
    // The outbox row is due from the database's clock, not the test's.
    const options = { now: new Date(), publicOrigin: 'https://shop.test' };
    while ((await runOutboxOnce(database.db, send, options)).claimed > 0);
    return sent.filter((message) => message.to === to);
  }

  it('opt-out and opt-in each write one outbox mail naming course, section, status, time and deadline', async () => {
    const student = await person({ firstName: 'Ada' });
    const { id: sectionId } = await section({ timeZone: 'America/New_York' });
    const memberId = await join(student, sectionId);
    expect(await confirmationsOf(memberId)).toHaveLength(0);

    const out = await call(student, `/api/members/${memberId}/opt-out`, { body: optOutBody(2) });
    expect(out.status).toBe(200);
    const afterOut = await confirmationsOf(memberId);
    expect(afterOut).toHaveLength(1);
    const [outMail] = await sentTo(student.user!.email);
    expect(outMail?.subject).toBe('You are opted out of CHEM 240: Section 001');
    expect(outMail?.text).toBe(
      [
        'Hello Ada,',
        '',
        // 15:00 UTC is 10:00 AM in New York (standard time); the deadline is 10 days later.
        'You opted out of the inclusive-access program of CHEM 240: Section 001 (Organic Chemistry) on Nov 23, 2026, 10:00 AM EST. The course fee no longer covers its materials for you, and they have left your shelf.',
        '',
        'You can opt back in until Dec 3, 2026, 10:00 AM EST.',
        '',
        `Your course: https://shop.test/shelf/course-section/${sectionId}`,
      ].join('\n'),
    );

    const back = await call(student, `/api/members/${memberId}/opt-in`, {
      body: { data: { type: 'Member', id: String(memberId) } },
    });
    expect(back.status).toBe(200);
    expect(await confirmationsOf(memberId)).toHaveLength(2);
    const [inMail] = await sentTo(student.user!.email);
    expect(inMail?.subject).toBe('You are opted in to CHEM 240: Section 001');
    expect(inMail?.text).toContain(
      'You opted in to the inclusive-access program of CHEM 240: Section 001 (Organic Chemistry) on Nov 23, 2026, 10:00 AM EST.',
    );
    expect(inMail?.text).toContain('You can opt out again until Dec 3, 2026, 10:00 AM EST.');
    // Sent once: the worker does not send them again.
    expect(await sentTo(student.user!.email)).toHaveLength(0);
  });

  it('a refused or invalid call sends nothing', async () => {
    const student = await person();
    const { id: sectionId } = await section();
    const memberId = await join(student, sectionId, { addDropDate: new Date(now.getTime() - DAY) });
    const closed = await call(student, `/api/members/${memberId}/opt-out`, { body: optOutBody(1) });
    expect(closed.status).toBeGreaterThanOrEqual(400);
    const invalid = await call(student, `/api/members/${memberId}/opt-out`, {
      body: optOutBody(9),
    });
    expect(invalid.status).toBe(400);
    expect(await confirmationsOf(memberId)).toHaveLength(0);
  });

  it('the mail is in the student’s language (fr-CA), times in the course’s time zone', async () => {
    const student = await person({ firstName: 'Élise', languageCode: 'fr-CA' });
    const { id: sectionId } = await section({ timeZone: 'America/Toronto' });
    const memberId = await join(student, sectionId);
    await call(student, `/api/members/${memberId}/opt-out`, { body: optOutBody(3) });
    const [row] = await confirmationsOf(memberId);
    const mail = await optingConfirmationEmail(
      database.db,
      Number(row!.payload.optChangeId),
      'https://shop.test',
    );
    expect(mail?.subject).toBe('Vous êtes désinscrit de CHEM 240 : Section 001');
    expect(mail?.text).toContain('Bonjour Élise,');
    expect(mail?.text).toContain(
      'Vous vous êtes désinscrit du programme d’accès inclusif de CHEM 240 : Section 001 (Organic Chemistry) le 23 nov. 2026, 10 h 00 HNE.',
    );
    expect(mail?.text).toContain('Vous pouvez vous réinscrire jusqu’au 3 déc. 2026, 10 h 00 HNE.');
  });

  it('the facts: the fee, what it includes, the separate price and the deadline with its zone', async () => {
    const student = await person();
    const { id: sectionId } = await section({
      timeZone: 'America/New_York',
      courseFeeCents: 7900,
    });
    const memberId = await join(student, sectionId);
    const cheap = await insertProduct(database.db, { title: 'Cell Biology' }, { priceCents: 6499 });
    await database.db.insert(offerings).values([
      { productId: cheap, type: 'digital', bookType: 'digital', priceCents: 4399 },
      { productId: cheap, type: 'physical', bookType: 'print', priceCents: 1999 },
    ]);
    const courseware = await insertProduct(
      database.db,
      { title: 'Biology Online Courseware', productType: 'courseware' },
      { priceCents: 5999 },
    );
    const codeOnly = await insertProduct(
      database.db,
      { title: 'Lab Manual' },
      { priceCents: null },
    );
    await database.db.insert(sectionProducts).values([
      { sectionId, productId: cheap, position: 0 },
      { sectionId, productId: courseware, position: 1 },
      { sectionId, productId: codeOnly, position: 2 },
    ]);
    const facts = await optingFacts(student, sectionId);
    expect(facts.fee).toEqual({
      feeCents: 7900,
      currencyCode: 'USD',
      included: [
        { productId: cheap, title: 'Cell Biology', productType: 'book', separateCents: 4399 },
        {
          productId: courseware,
          title: 'Biology Online Courseware',
          productType: 'courseware',
          separateCents: 5999,
        },
        { productId: codeOnly, title: 'Lab Manual', productType: 'book', separateCents: null },
      ],
      separateTotalCents: 10_398,
      soldSeparatelyCount: 2,
      savingCents: 2498,
    });
    expect(facts.deadline).toBe('Dec 3, 2026, 10:00 AM EST');
    expect(facts.lastChange).toBeNull();
    const french = await optingFacts({ ...student, locale: 'fr-CA' }, sectionId);
    expect(french.deadline).toBe('3 déc. 2026, 10 h 00 HNE');

    await call(student, `/api/members/${memberId}/opt-out`, { body: optOutBody(4) });
    expect((await optingFacts(student, sectionId)).lastChange).toEqual({
      toStatus: 'opted_out',
      at: 'Nov 23, 2026, 10:00 AM EST',
    });
  });

  it('only a member of the section sees them', async () => {
    const stranger = await person();
    const { id: sectionId } = await section();
    await expect(optingFacts(stranger, sectionId)).rejects.toMatchObject({ name: 'NotFound' });
  });
});
