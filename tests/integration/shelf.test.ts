import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import type { DatabaseHandle } from '#db/client.ts';
import { accessCodes } from '#db/schema/access.ts';
import { users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import { courseSections, courses, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { entitlementOf } from '#domain/access/entitlement-facts.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { readingGrant } from '#domain/reading/reader-access.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import { acquireCourseMaterial, courseSectionView } from '#domain/shelf/course-section.ts';
import { lostAccess, memberSection, shelfMaterials } from '#domain/shelf/my-shelf.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';

// Issue 5: My Shelf and course sections on the database — members only, the course-fee
// rules, choices, paging; and the access code panel's calls.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const today = '2026-11-23';
const now = new Date('2026-11-23T15:00:00Z');

async function person(): Promise<RequestContext> {
  const [row] = await database.db
    .insert(users)
    .values({ email: `${unique('shelf')}@example.test`, firstName: 'S' })
    .returning({ id: users.id });
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  return testContext(database.db, { user, now });
}

async function section(input: { startDate?: string; endDate?: string; courseType?: string } = {}) {
  const [org] = await database.db
    .insert(organizations)
    .values({ title: unique('Org') })
    .returning({ id: organizations.id });
  const [course] = await database.db
    .insert(courses)
    .values({
      orgId: org!.id,
      name: 'Cell Biology',
      department: 'BIO',
      number: '230',
      courseType: input.courseType ?? 'inclusive_access',
    })
    .returning({ id: courses.id });
  const [row] = await database.db
    .insert(courseSections)
    .values({
      courseId: course!.id,
      name: 'BIO 230 - 002',
      number: '002',
      rsCourseId: unique('RS'),
      startDate: input.startDate ?? '2026-08-25',
      endDate: input.endDate ?? '2026-12-15',
      addDropAt: new Date('2026-09-10T04:00:00Z'),
    })
    .returning({ id: courseSections.id });
  return row!.id;
}

async function join(
  ctx: RequestContext,
  sectionId: number,
  extra: { isCourseFee?: boolean; role?: string } = {},
) {
  await database.db.insert(sectionMembers).values({
    sectionId,
    userId: ctx.user!.id,
    role: extra.role ?? 'student',
    isCourseFee: extra.isCourseFee ?? false,
    addDropDate: new Date('2026-09-10T04:00:00Z'),
    rsCoursememberId: unique('RSM'),
  });
}

describe('a course section (issue 5)', () => {
  it('is for its members only: others are forbidden, unknown ids not found', async () => {
    const sectionId = await section();
    const member = await person();
    const stranger = await person();
    await join(member, sectionId);
    expect((await memberSection(member, sectionId)).id).toBe(sectionId);
    await expect(memberSection(stranger, sectionId)).rejects.toBeInstanceOf(Forbidden);
    await expect(memberSection(member, 2_000_000_000)).rejects.toBeInstanceOf(NotFound);
  });

  it('a choice shows both versions until one is owned; a course-fee member starts reading', async () => {
    const sectionId = await section();
    const digital = await insertProduct(
      database.db,
      { title: unique('Digital') },
      { priceCents: 3000, readerFile: true },
    );
    const print = await insertProduct(
      database.db,
      { title: unique('Print') },
      { priceCents: null },
    );
    await database.db.insert(offerings).values({
      productId: print,
      type: 'physical',
      bookType: 'print',
      priceCents: 5000,
      stock: 3,
    });
    await database.db.insert(sectionProducts).values({
      sectionId,
      productId: digital,
      additionalProductId: print,
      isPhysicalDigitalChoice: true,
    });
    const student = await person();
    await join(student, sectionId, { isCourseFee: true });
    const before = await courseSectionView(student, sectionId, today);
    expect(before.materials.map((m) => [m.productId, m.action])).toEqual([
      [digital, 'startReading'],
      // After the add/drop date a course fee drops a choice's physical offerings.
      [print, null],
    ]);
    // Before the add/drop date the print version is bought: "Physical gives Add To Cart or
    // View Cart" (spec 1 §4 Course fee; issue 14: it had no button).
    const early = { ...student, now: new Date('2026-09-01T12:00:00Z') };
    const beforeAddDrop = await courseSectionView(early, sectionId, '2026-09-01');
    expect(beforeAddDrop.materials.map((m) => [m.productId, m.action])).toEqual([
      [digital, 'startReading'],
      [print, 'addToCart'],
    ]);
    // Start Reading opens the reader through the course: the course fee is the way in, with
    // nothing acquired first (issue 14: it led to /cds_book_read/ and a 403).
    expect(
      await readingGrant(student, digital, { courseMemberId: null, courseSectionId: sectionId }),
    ).toMatchObject({ via: 'courseFee', sectionId });
    // The print version is the student's to buy, not theirs through the fee (issue 19: its
    // product page said "through your course" and its course row said Add To Cart).
    await expect(
      readingGrant(student, print, { courseMemberId: null, courseSectionId: sectionId }),
    ).rejects.toMatchObject({ messageKey: 'access.reason.notEntitled' });
    expect((await entitlementOf(student, print)).decision).toMatchObject({ ok: false });
    expect((await entitlementOf(student, digital)).decision).toMatchObject({
      ok: true,
      via: 'courseFee',
    });
    await acquireCourseMaterial(student, sectionId, digital);
    const after = await courseSectionView(student, sectionId, today);
    expect(after.materials.map((m) => [m.productId, m.action])).toEqual([[digital, 'read']]);
    const [owned] = await database.db
      .select()
      .from(ownerships)
      .where(eq(ownerships.userId, student.user!.id));
    expect(owned).toMatchObject({
      productId: digital,
      source: 'course_fee',
      courseSectionId: sectionId,
    });
    // Someone outside the section acquires nothing (issue 14: the entitlement rule says why).
    const outsider = await person();
    await expect(acquireCourseMaterial(outsider, sectionId, digital)).rejects.toBeInstanceOf(
      Forbidden,
    );
    // Without a course fee, courtesy access (spec 1 §5) acquires for the term, as inclusive
    // access, which an opt-out takes back.
    const payer = await person();
    await join(payer, sectionId);
    await acquireCourseMaterial(payer, sectionId, digital);
    const [courtesy] = await database.db
      .select()
      .from(ownerships)
      .where(eq(ownerships.userId, payer.user!.id));
    expect(courtesy).toMatchObject({ source: 'inclusive_access', courseSectionId: sectionId });
    expect(courtesy?.expiresAt).not.toBeNull();
    await database.db.delete(ownerships).where(eq(ownerships.userId, payer.user!.id));
    // Nor anything to buy: on inclusive access (no CDS, auto-provisioning on) offerings do not
    // show (spec 1 §5), until an opted-out student's deadline passes (tests/integration/opting).
    // Courtesy access reads it instead (spec 1 §5; issue 14: it showed no button at all).
    expect((await courseSectionView(payer, sectionId, today)).materials[0]?.action).toBe('read');
  });

  it('issue 14: a book with no file to read says so instead of a button that ends in 404', async () => {
    const sectionId = await section();
    const withFile = await insertProduct(
      database.db,
      { title: unique('Readable') },
      { priceCents: null, readerFile: true },
    );
    const withoutFile = await insertProduct(
      database.db,
      { title: unique('No file') },
      { priceCents: null, readerFile: false },
    );
    await database.db.insert(sectionProducts).values([
      { sectionId, productId: withFile, position: 0 },
      { sectionId, productId: withoutFile, position: 1 },
    ]);
    const student = await person();
    await join(student, sectionId);
    const view = await courseSectionView(student, sectionId, today);
    // Courtesy access (spec 1 §5) reads the one with a file; the other says why not.
    expect(view.materials.map((m) => [m.productId, m.action, m.notice?.key ?? null])).toEqual([
      [withFile, 'read', null],
      [withoutFile, null, 'reading.error.noFile'],
    ]);
  });

  it('issue 14: a rental that ended says so on My Shelf, until it is bought again', async () => {
    const student = await person();
    const rented = await insertProduct(database.db, { title: unique('Rented') });
    const ended = new Date(now.getTime() - 3 * 86_400_000);
    await database.db.insert(ownerships).values({
      userId: student.user!.id,
      productId: rented,
      source: 'purchase',
      startsAt: new Date(now.getTime() - 200 * 86_400_000),
      expiresAt: ended,
    });
    const lost = await lostAccess(student, [], today);
    expect(lost).toEqual([
      {
        kind: 'ended',
        productId: rented,
        title: expect.stringContaining('Rented'),
        date: '2026-11-20',
      },
    ]);
    // Bought again for life (a purchase extends the one ownership): nothing left to say.
    await database.db
      .update(ownerships)
      .set({ expiresAt: null })
      .where(eq(ownerships.productId, rented));
    expect(await lostAccess(student, [], today)).toEqual([]);
  });

  it('issue 14: a classroom the course opens is acquired, then entered with its code', async () => {
    const sectionId = await section();
    const classroom = await insertProduct(
      database.db,
      { title: unique('Classroom'), productType: 'classroom' },
      { priceCents: null },
    );
    await database.db.insert(sectionProducts).values({ sectionId, productId: classroom });
    const student = await person();
    await join(student, sectionId);
    const action = async () =>
      (await courseSectionView(student, sectionId, today)).materials[0]?.action;
    // Courtesy access (spec 1 §5): no Access Classroom that the door would refuse.
    expect(await action()).toBe('acquireCode');
    await acquireCourseMaterial(student, sectionId, classroom);
    expect(await action()).toBe('accessClassroom');
  });

  it('before two weeks ahead of the start, materials wait, with the day to come back', async () => {
    const sectionId = await section({ startDate: '2027-01-12', endDate: '2027-05-01' });
    const student = await person();
    await join(student, sectionId, { role: 'teaching_assistant' });
    const view = await courseSectionView(student, sectionId, today);
    expect(view).toMatchObject({
      checkBackOn: '2026-12-29',
      materials: [],
      canViewAnalytics: true,
    });
  });
});

describe('My Shelf materials (issue 5; spec 2 §9 page size 100)', () => {
  it('pages by 100, filters by type and sorts by title', async () => {
    const owner = await person();
    const ids: number[] = [];
    for (let i = 0; i < 101; i += 1) {
      ids.push(
        await insertProduct(
          database.db,
          {
            title: `Shelf ${String(i).padStart(3, '0')} ${unique('t')}`,
            productType: i === 0 ? 'courseware' : 'book',
          },
          { priceCents: null },
        ),
      );
    }
    await database.db.insert(ownerships).values(
      ids.map((productId) => ({
        userId: owner.user!.id,
        productId,
        source: 'purchase',
        startsAt: new Date('2026-01-01'),
      })),
    );
    const first = await shelfMaterials(owner, { types: [], sort: 'alphabetical_asc', page: 1 });
    expect(first).toMatchObject({ count: 101, page: 1, pages: 2 });
    expect(first.tiles).toHaveLength(100);
    expect(first.tiles[0]?.title.startsWith('Shelf 000')).toBe(true);
    const second = await shelfMaterials(owner, { types: [], sort: 'alphabetical_asc', page: 2 });
    expect(second.tiles.map((t) => t.title.slice(0, 9))).toEqual(['Shelf 100']);
    const desc = await shelfMaterials(owner, { types: [], sort: 'alphabetical_desc', page: 1 });
    expect(desc.tiles[0]?.title.startsWith('Shelf 100')).toBe(true);
    const courseware = await shelfMaterials(owner, {
      types: ['courseware'],
      sort: 'default',
      page: 1,
    });
    expect(courseware.tiles.map((t) => t.productId)).toEqual([ids[0]]);
    // A page past the end shows the last one.
    expect((await shelfMaterials(owner, { types: [], sort: 'default', page: 99 })).page).toBe(2);
  });
});

describe('the access code panel calls (spec 1 §4 Access code panel)', () => {
  it('owners read or acquire a code; an empty pool gives the failure text; others get 404', async () => {
    const owner = await person();
    const productId = await insertProduct(
      database.db,
      { productType: 'courseware' },
      { priceCents: 5000 },
    );
    await database.db.insert(ownerships).values({
      userId: owner.user!.id,
      productId,
      source: 'purchase',
      startsAt: new Date('2026-01-01'),
    });
    await database.db.insert(accessCodes).values({ productId, code: unique('CODE') });
    const web = testWebContext(database, { user: owner.user, now });
    const call = (method: string, id: number | string = productId, ctx = web) =>
      handleApiRequest(
        new Request(`http://127.0.0.1/api/access-items/${id}/access-code`, { method }),
        ctx,
      );
    const none = await call('GET');
    expect((await none.json()).data.attributes.user_access_code).toBeNull();
    // Two presses at once still hand out one code.
    const [a, b] = await Promise.all([call('POST'), call('POST')]);
    const codes = [
      (await a.json()).data.attributes.user_access_code,
      (await b.json()).data.attributes.user_access_code,
    ];
    expect(codes[0]).toBe(codes[1]);
    expect((await (await call('GET')).json()).data.attributes.user_access_code).toBe(codes[0]);
    // Another owner finds the pool empty.
    const late = await person();
    await database.db.insert(ownerships).values({
      userId: late.user!.id,
      productId,
      source: 'purchase',
      startsAt: new Date('2026-01-01'),
    });
    const refused = await call(
      'POST',
      productId,
      testWebContext(database, { user: late.user, now }),
    );
    expect(refused.status).toBe(409);
    expect((await refused.json()).errors[0].detail).toMatch(
      /^We are having trouble retrieving your access code\./,
    );
    const stranger = testWebContext(database, { user: (await person()).user, now });
    expect((await call('GET', productId, stranger)).status).toBe(404);
    expect((await call('GET', 'abc')).status).toBe(404);
    expect((await call('GET', productId, testWebContext(database, { now }))).status).toBe(403);
  });
});
