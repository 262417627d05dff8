import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import {
  courseSections,
  courses,
  departments,
  sectionMembers,
  sectionProducts,
} from '#db/schema/courses.ts';
import { organizations } from '#db/schema/sites.ts';
import { courseFinderSection, courseFinderStep } from '#domain/courses/course-finder.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import type { DomainError } from '#domain/shared/errors.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

let database: DatabaseHandle;
let ctx: RequestContext;
let school: { id: number; title: string };
let bio101: number;
let fallSection: number;
let springSection: number;
let textbook: number;
let workbook: number;

beforeAll(async () => {
  database = await openTestDatabase();
  ctx = testContext(database.db);
  const db = database.db;
  const [org] = await db
    .insert(organizations)
    .values({ title: unique('Finder University') })
    .returning({ id: organizations.id, title: organizations.title });
  school = org!;
  await db.insert(departments).values([
    { orgId: school.id, code: 'BIO', name: 'Biology', nameFrCa: 'Biologie' },
    { orgId: school.id, code: 'CHEM', name: 'Chemistry', nameFrCa: 'Chimie' },
  ]);
  const [bio, chem, art] = await db
    .insert(courses)
    .values([
      { orgId: school.id, name: 'Principles of Biology', department: 'BIO', number: '101' },
      { orgId: school.id, name: 'General Chemistry', department: 'CHEM', number: '110' },
      // A code without a name in the data is shown as its code.
      { orgId: school.id, name: 'Drawing', department: 'ART', number: '105' },
    ])
    .returning({ id: courses.id });
  bio101 = bio!.id;
  const section = (courseId: number, number: string, startDate: string, endDate: string) => ({
    courseId,
    name: 'Section',
    number,
    rsCourseId: unique('RS'),
    startDate,
    endDate,
    addDropAt: new Date(`${startDate}T12:00:00Z`),
  });
  const rows = await db
    .insert(courseSections)
    .values([
      section(bio101, '001', '2026-08-24', '2026-12-15'),
      section(bio101, '002', '2027-01-11', '2027-05-01'),
      section(chem!.id, '001', '2026-09-01', '2026-12-15'),
      section(art!.id, '001', '2026-06-15', '2026-07-30'),
    ])
    .returning({ id: courseSections.id });
  fallSection = rows[0]!.id;
  springSection = rows[1]!.id;
  textbook = await insertProduct(db, { title: 'Campbell Biology' }, { priceCents: 8999 });
  workbook = await insertProduct(db, { title: 'Biology Lab Workbook' }, { priceCents: 2499 });
  await db.insert(offerings).values({
    productId: textbook,
    type: 'digital',
    bookType: 'digital',
    priceCents: 5999,
    durationDays: 180,
    isRental: true,
  });
  await db.insert(sectionProducts).values([
    { sectionId: fallSection, productId: workbook, position: 0, isRequired: false },
    { sectionId: fallSection, productId: textbook, position: 1 },
  ]);
  const [student] = await db
    .insert(users)
    .values({
      email: `${unique('enrolled')}@example.test`,
      firstName: 'Zephyrine',
      lastName: 'Quillfeather',
    })
    .returning({ id: users.id });
  await db.insert(sectionMembers).values({
    sectionId: fallSection,
    userId: student!.id,
    role: 'student',
    addDropDate: new Date('2026-09-07T12:00:00Z'),
    rsCoursememberId: unique('RSM'),
  });
});
afterAll(async () => {
  await database?.close();
});

const notFoundKey = async (promise: Promise<unknown>) => {
  const error = (await promise.then(
    () => null,
    (e: unknown) => e,
  )) as DomainError | null;
  return error ? `${error.status} ${error.messageKey}` : 'no error';
};

describe('Find your course materials (issue 19)', () => {
  it('issue 19: school, then its terms derived from the sections, latest first', async () => {
    const first = await courseFinderStep(ctx, {});
    expect(first.step).toBe('school');
    expect(first.options).toContainEqual(school);
    const terms = await courseFinderStep(ctx, { school: String(school.id) });
    expect(terms.step).toBe('term');
    expect(terms.options.map((t) => ('key' in t ? t.key : null))).toEqual([
      '2027-winter-spring',
      '2026-fall',
      '2026-summer',
    ]);
  });

  it('issue 19: a term lists the departments with a section in it, by name (BIO is Biology)', async () => {
    const step = await courseFinderStep(ctx, { school: String(school.id), term: '2026-fall' });
    expect(step).toMatchObject({
      step: 'department',
      chosen: { school, term: { key: '2026-fall' } },
      options: [
        { code: 'BIO', name: 'Biology' },
        { code: 'CHEM', name: 'Chemistry' },
      ],
    });
    const french = await courseFinderStep(
      { ...ctx, locale: 'fr-CA' },
      { school: String(school.id), term: '2026-fall' },
    );
    expect(french.options).toEqual([
      { code: 'BIO', name: 'Biologie' },
      { code: 'CHEM', name: 'Chimie' },
    ]);
    const summer = await courseFinderStep(ctx, { school: String(school.id), term: '2026-summer' });
    expect(summer.options).toEqual([{ code: 'ART', name: 'ART' }]);
  });

  it('issue 19: department, then course, then the sections of that term only', async () => {
    const query = { school: String(school.id), term: '2026-fall', department: 'bio' };
    const step = await courseFinderStep(ctx, query);
    expect(step).toMatchObject({
      step: 'course',
      options: [{ id: bio101, department: 'BIO', number: '101', name: 'Principles of Biology' }],
    });
    const sections = await courseFinderStep(ctx, { ...query, course: String(bio101) });
    expect(sections.step).toBe('section');
    expect(sections.options.map((s) => ('id' in s ? s.id : null))).toEqual([fallSection]);
  });

  it('issue 19: unknown or malformed choices are not found, each with its own message', async () => {
    const id = String(school.id);
    expect(await notFoundKey(courseFinderStep(ctx, { school: 'abc' }))).toBe(
      '404 courseFinder.notFound.school',
    );
    expect(await notFoundKey(courseFinderStep(ctx, { school: '2147483647' }))).toBe(
      '404 courseFinder.notFound.school',
    );
    expect(await notFoundKey(courseFinderStep(ctx, { school: id, term: '2031-fall' }))).toBe(
      '404 courseFinder.notFound.term',
    );
    expect(await notFoundKey(courseFinderStep(ctx, { school: id, term: 'autumn' }))).toBe(
      '404 courseFinder.notFound.term',
    );
    expect(
      await notFoundKey(
        courseFinderStep(ctx, { school: id, term: '2026-fall', department: "ART'--" }),
      ),
    ).toBe('404 courseFinder.notFound.department');
    // ART has no fall section: not a department of this term.
    expect(
      await notFoundKey(
        courseFinderStep(ctx, { school: id, term: '2026-fall', department: 'ART' }),
      ),
    ).toBe('404 courseFinder.notFound.department');
    expect(
      await notFoundKey(
        courseFinderStep(ctx, {
          school: id,
          term: '2026-fall',
          department: 'CHEM',
          course: String(bio101),
        }),
      ),
    ).toBe('404 courseFinder.notFound.course');
    expect(await notFoundKey(courseFinderSection(ctx, '0'))).toBe(
      '404 courseFinder.notFound.section',
    );
    expect(await notFoundKey(courseFinderSection(ctx, '2147483647'))).toBe(
      '404 courseFinder.notFound.section',
    );
  });

  it('issue 19: a section lists its adopted materials, required first, with offerings and prices', async () => {
    const view = await courseFinderSection(ctx, String(fallSection));
    expect(view.chosen).toMatchObject({
      school,
      term: { key: '2026-fall' },
      department: { code: 'BIO', name: 'Biology' },
      course: { id: bio101, number: '101' },
    });
    expect(
      view.materials.map((m) => ({
        id: m.productId,
        required: m.isRequired,
        prices: m.offerings.map((o) => o.priceCents),
      })),
    ).toEqual([
      { id: textbook, required: true, prices: [5999, 8999] },
      { id: workbook, required: false, prices: [2499] },
    ]);
    expect(view.materials[0]!.path).toMatch(new RegExp(`^/book/${textbook}/`));
    const empty = await courseFinderSection(ctx, String(springSection));
    expect(empty.materials).toEqual([]);
  });

  it('issue 19: a section never says who is enrolled, nor how many', async () => {
    const view = JSON.stringify(await courseFinderSection(ctx, String(fallSection)));
    expect(view).not.toMatch(/Zephyrine|Quillfeather|enrolled|student|member/i);
    expect(Object.keys(JSON.parse(view).section).sort()).toEqual([
      'endDate',
      'id',
      'name',
      'number',
      'startDate',
    ]);
  });

  it('issue 19: a white label shows its own school only', async () => {
    const other = {
      ...ctx,
      site: { ...ctx.site, org: { ...ctx.site.org!, id: school.id + 100000 } },
    };
    const step = await courseFinderStep(other as RequestContext, {});
    expect(step.options).toEqual([]);
    expect(
      await notFoundKey(courseFinderSection(other as RequestContext, String(fallSection))),
    ).toBe('404 courseFinder.notFound.section');
  });
});
