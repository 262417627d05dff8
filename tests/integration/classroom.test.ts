import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { courseSections, courses, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import {
  confirmSectionCode,
  sectionClassroomEntries,
  taughtClassrooms,
} from '#domain/access/classroom.ts';
import {
  addClassroomNote,
  type ClassroomPage,
  classroomPage,
  deleteClassroomNote,
  editClassroomNote,
} from '#domain/access/classroom-view.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { DomainError } from '#domain/shared/errors.ts';
import { courseSectionView } from '#domain/shelf/course-section.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { action as classroomAction } from '#web/classroom/classroom.tsx';

// Issue 14, Classroom (spec 1 §4 Classroom redeem prompt, §6 Roles; spec 2 §4 Classroom): who
// enters which view of a section's classroom, the instructor's notes to the class and who has
// joined, on the database.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const DAY = 86_400_000;
const now = new Date('2026-11-23T15:00:00Z');

async function person(name: string): Promise<RequestContext> {
  const [row] = await database.db
    .insert(users)
    .values({ email: `${unique(name)}@example.test`, firstName: name, lastName: 'Test' })
    .returning({ id: users.id });
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  return testContext(database.db, { user, now });
}

const later = (ctx: RequestContext, minutes: number): RequestContext => ({
  ...ctx,
  now: new Date(now.getTime() + minutes * 60_000),
});

/** A current section with a classroom (code given) and two other materials, out of order. */
async function classroomSection() {
  const [org] = await database.db
    .insert(organizations)
    .values({ title: unique('Org') })
    .returning({ id: organizations.id });
  const [course] = await database.db
    .insert(courses)
    .values({ orgId: org!.id, name: 'Intro to CS', department: 'CS', number: '120' })
    .returning({ id: courses.id });
  const code = unique('CODE');
  const section = async (number: string, sectionCode: string) => {
    const [row] = await database.db
      .insert(courseSections)
      .values({
        courseId: course!.id,
        name: 'Intro to CS',
        number,
        rsCourseId: unique('RSC'),
        startDate: '2026-08-25',
        endDate: '2026-12-15',
        addDropAt: new Date(now.getTime() - 30 * DAY),
        timeZone: 'UTC',
        optingMethod: 'no-opt',
        disableAutoProvisioning: true,
        sectionCode,
      })
      .returning({ id: courseSections.id });
    return row!.id;
  };
  const sectionId = await section('001', code);
  const otherSectionId = await section('002', `${code}-B`);
  const classroomId = await insertProduct(database.db, {
    productType: 'classroom',
    title: unique('Classroom'),
  });
  const second = await insertProduct(database.db, { title: unique('Second book') });
  const first = await insertProduct(database.db, { title: unique('First book') });
  await database.db.insert(sectionProducts).values([
    { sectionId, productId: second, position: 2 },
    { sectionId, productId: classroomId, position: 0 },
    { sectionId, productId: first, position: 1 },
    { sectionId: otherSectionId, productId: classroomId, position: 0 },
  ]);
  return { sectionId, otherSectionId, classroomId, first, second, code };
}

type Section = Awaited<ReturnType<typeof classroomSection>>;

async function member(ctx: RequestContext, sectionId: number, role: string) {
  await database.db.insert(sectionMembers).values({
    sectionId,
    userId: ctx.user!.id,
    role,
    addDropDate: new Date(now.getTime() - 30 * DAY),
    rsCoursememberId: unique('RSM'),
  });
}

async function buy(ctx: RequestContext, productId: number) {
  await database.db.insert(ownerships).values({
    userId: ctx.user!.id,
    productId,
    source: 'purchase',
    startsAt: new Date(now.getTime() - DAY),
  });
}

const page = (ctx: RequestContext, s: Section, asked: 'instructor' | 'student' | null = null) =>
  classroomPage(ctx, { productId: s.classroomId, sectionId: s.sectionId, asked });

async function refusal(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return [error.status, error.messageKey];
    throw error;
  }
  throw new Error('it was not refused');
}

function entered(result: ClassroomPage) {
  if (result.kind !== 'enter') throw new Error(`expected to enter, got ${result.kind}`);
  return result;
}

describe('who enters a section’s classroom (spec 2 §4 Classroom; spec 1 §6)', () => {
  it('"Instructors may enter without confirmation": the professor and the teaching assistant get the instructor view', async () => {
    const s = await classroomSection();
    const professor = await person('Prof');
    const ta = await person('Assistant');
    await member(professor, s.sectionId, 'professor');
    await member(ta, s.sectionId, 'teaching_assistant');
    for (const instructor of [professor, ta]) {
      const result = entered(await page(instructor, s, 'instructor'));
      expect(result.view).toBe('instructor');
      expect(result.joined).toEqual([]);
    }
    // Asked for the student view, an instructor sees what students see (no joined list).
    const preview = entered(await page(professor, s, 'student'));
    expect(preview.view).toBe('student');
    expect(preview.joined).toBeNull();
    // …but not another section's classroom, which they do not teach.
    expect(
      await refusal(
        classroomPage(professor, {
          productId: s.classroomId,
          sectionId: s.otherSectionId,
          asked: 'instructor',
        }),
      ),
    ).toEqual([403, 'classroom.refused.notOwned']);
  });

  it('a student who owns it is prompted, enters the student view once the code is confirmed, and never the instructor’s', async () => {
    const s = await classroomSection();
    const student = await person('Student');
    await member(student, s.sectionId, 'student');
    await buy(student, s.classroomId);
    expect((await page(student, s, 'student')).kind).toBe('prompt');
    expect((await page(student, s, 'instructor')).kind).toBe('prompt');
    // Typed as people type it (issue 38): lower case, spaces for its hyphens.
    await confirmSectionCode(student, {
      productId: s.classroomId,
      code: s.code.toLowerCase().replaceAll('-', ' '),
    });
    const result = entered(await page(student, s, 'instructor'));
    expect(result.view).toBe('student');
    expect(result.joined).toBeNull();
  });

  it('on a section’s own page, only that section’s code is taken; a wrong one changes nothing', async () => {
    const s = await classroomSection();
    const student = await person('Student');
    await buy(student, s.classroomId);
    expect(
      await refusal(
        confirmSectionCode(student, {
          productId: s.classroomId,
          sectionId: s.sectionId,
          code: `${s.code}-B`,
        }),
      ),
    ).toEqual([400, 'classroom.error.code']);
    expect((await page(student, s)).kind).toBe('prompt');
    await confirmSectionCode(student, {
      productId: s.classroomId,
      sectionId: s.sectionId,
      code: ` ${s.code} `,
    });
    expect(entered(await page(student, s)).view).toBe('student');
  });

  it('anyone else is refused with the reason: a stranger, and a student confirmed for another section', async () => {
    const s = await classroomSection();
    const stranger = await person('Stranger');
    expect(await refusal(page(stranger, s, 'instructor'))).toEqual([
      403,
      'classroom.refused.notOwned',
    ]);
    const elsewhere = await person('Elsewhere');
    await buy(elsewhere, s.classroomId);
    await confirmSectionCode(elsewhere, { productId: s.classroomId, code: `${s.code}-B` });
    expect(await refusal(page(elsewhere, s))).toEqual([403, 'classroom.refused.otherSection']);
    // A section that does not list this classroom has none: not found.
    expect(
      await refusal(
        classroomPage(elsewhere, { productId: s.first, sectionId: s.sectionId, asked: null }),
      ),
    ).toEqual([404, 'error.notFound']);
  });

  it('the course section page’s Access Classroom follows the same door', async () => {
    const s = await classroomSection();
    const professor = await person('Prof');
    const student = await person('Student');
    const stranger = await person('Stranger');
    await member(professor, s.sectionId, 'professor');
    await member(student, s.sectionId, 'student');
    await member(stranger, s.sectionId, 'student');
    await buy(student, s.classroomId);
    const entries = (ctx: RequestContext) =>
      sectionClassroomEntries(ctx, s.sectionId, [s.classroomId]);
    expect(await entries(professor)).toEqual({ [s.classroomId]: 'instructor' });
    expect(await entries(student)).toEqual({ [s.classroomId]: 'prompt' });
    expect(await entries(stranger)).toEqual({});
  });
});

describe('My Classrooms (spec 1 §2 user menu, "instructors of classrooms")', () => {
  it('lists each classroom a person teaches, by section, with how many students joined', async () => {
    const s = await classroomSection();
    const ta = await person('Assistant');
    const student = await person('Student');
    const gone = await person('Refunded');
    await member(ta, s.sectionId, 'teaching_assistant');
    await member(ta, s.otherSectionId, 'teaching_assistant');
    await member(student, s.sectionId, 'student');
    for (const who of [student, gone]) {
      await buy(who, s.classroomId);
      await confirmSectionCode(who, { productId: s.classroomId, code: s.code });
    }
    // A withdrawn classroom no longer counts as joined.
    await database.db
      .update(ownerships)
      .set({ revokedAt: new Date(now.getTime() - 60_000) })
      .where(eq(ownerships.userId, gone.user!.id));
    const mine = await taughtClassrooms(ta);
    expect(mine.map((room) => [room.sectionId, room.sectionNumber, room.joined])).toEqual([
      [s.sectionId, '001', 1],
      [s.otherSectionId, '002', 0],
    ]);
    expect(mine.every((room) => room.productId === s.classroomId)).toBe(true);
    expect(await taughtClassrooms(student)).toEqual([]);
  });
});

describe('what the classroom holds (issue 14, Classroom)', () => {
  it('the section’s materials in the classroom’s order, each with the section’s own button, the classroom left out', async () => {
    const s = await classroomSection();
    const professor = await person('Prof');
    await member(professor, s.sectionId, 'professor');
    await buy(professor, s.first);
    const result = entered(await page(professor, s));
    // The buttons are the course section page's own, not decided again here.
    const section = await courseSectionView(professor, s.sectionId, '2026-11-23');
    const sectionAction = (productId: number) =>
      section.materials.find((m) => m.productId === productId)?.action ?? null;
    expect(result.materials.map((m) => [m.productId, m.action])).toEqual([
      [s.first, sectionAction(s.first)],
      [s.second, sectionAction(s.second)],
    ]);
    // Someone in the classroom by its code alone, not a member, sees the list without buttons.
    const buyer = await person('Buyer');
    await buy(buyer, s.classroomId);
    await confirmSectionCode(buyer, { productId: s.classroomId, code: s.code });
    const theirs = entered(await page(buyer, s));
    expect(theirs.materials.map((m) => [m.productId, m.action])).toEqual([
      [s.first, null],
      [s.second, null],
    ]);
  });

  it('instructors write, edit and delete notes; students read them newest first; who joined, with the date, for instructors only', async () => {
    const s = await classroomSection();
    const professor = await person('Prof');
    const ta = await person('Assistant');
    const student = await person('Student');
    await member(professor, s.sectionId, 'professor');
    await member(ta, s.sectionId, 'teaching_assistant');
    await member(student, s.sectionId, 'student');
    await buy(student, s.classroomId);
    const room = { productId: s.classroomId, sectionId: s.sectionId };

    const first = await addClassroomNote(professor, { ...room, body: '  Read chapter 1.\r\n ' });
    const second = await addClassroomNote(later(ta, 5), { ...room, body: 'Quiz on Friday.' });
    await editClassroomNote(later(professor, 10), {
      ...room,
      noteId: first.id,
      body: 'Read chapters 1 and 2.',
    });
    await confirmSectionCode(later(student, 20), { productId: s.classroomId, code: s.code });

    const read = entered(await page(later(student, 30), s, 'student'));
    expect(read.notes.map((n) => [n.id, n.body, n.authorName])).toEqual([
      [second.id, 'Quiz on Friday.', 'Assistant Test'],
      [first.id, 'Read chapters 1 and 2.', 'Prof Test'],
    ]);
    expect(read.notes[1]!.updatedAt).toEqual(later(professor, 10).now);
    expect(read.joined).toBeNull();

    const taught = entered(await page(later(professor, 30), s, 'instructor'));
    expect(taught.joined).toEqual([
      {
        userId: student.user!.id,
        name: 'Student Test',
        email: student.user!.email,
        joinedAt: later(student, 20).now,
      },
    ]);

    await deleteClassroomNote(professor, { ...room, noteId: second.id });
    expect(entered(await page(student, s)).notes.map((n) => n.id)).toEqual([first.id]);
  });

  it('bad notes and the wrong people get a clear 4xx: blank, too long, a student, another section’s note', async () => {
    const s = await classroomSection();
    const professor = await person('Prof');
    const student = await person('Student');
    await member(professor, s.sectionId, 'professor');
    await member(student, s.sectionId, 'student');
    await buy(student, s.classroomId);
    await confirmSectionCode(student, { productId: s.classroomId, code: s.code });
    const room = { productId: s.classroomId, sectionId: s.sectionId };
    expect(await refusal(addClassroomNote(professor, { ...room, body: ' \n ' }))).toEqual([
      400,
      'classroom.note.error.empty',
    ]);
    expect(await refusal(addClassroomNote(professor, { ...room, body: 'x'.repeat(501) }))).toEqual([
      400,
      'classroom.note.error.tooLong',
    ]);
    expect(await refusal(addClassroomNote(student, { ...room, body: 'Hi all' }))).toEqual([
      403,
      'classroom.note.error.notInstructor',
    ]);
    const note = await addClassroomNote(professor, { ...room, body: 'Welcome.' });
    expect(await refusal(deleteClassroomNote(student, { ...room, noteId: note.id }))).toEqual([
      403,
      'classroom.note.error.notInstructor',
    ]);
    // The professor of another section cannot reach this note through their own classroom.
    const other = await classroomSection();
    const otherProfessor = await person('Other');
    await member(otherProfessor, other.sectionId, 'professor');
    expect(
      await refusal(
        editClassroomNote(otherProfessor, {
          productId: other.classroomId,
          sectionId: other.sectionId,
          noteId: note.id,
          body: 'Mine now',
        }),
      ),
    ).toEqual([404, 'classroom.note.error.gone']);
    expect(entered(await page(student, s)).notes.map((n) => n.body)).toEqual(['Welcome.']);
  });

  it('the page’s form answers 400 with the note’s own message, never a 500', async () => {
    const s = await classroomSection();
    const professor = await person('Prof');
    await member(professor, s.sectionId, 'professor');
    const post = async (fields: Record<string, string>) => {
      try {
        return await classroomAction({
          request: new Request(
            `http://127.0.0.1/classroom/${s.classroomId}/section/${s.sectionId}`,
            { method: 'POST', body: new URLSearchParams(fields) },
          ),
          params: { id: String(s.classroomId), sectionId: String(s.sectionId) },
          context: testWebContext(database, { user: professor.user, now }),
        } as never);
      } catch (thrown) {
        return thrown;
      }
    };
    const tooLong = (await post({ intent: 'add-note', body: 'x'.repeat(600) })) as {
      data: unknown;
      init: ResponseInit;
    };
    expect(tooLong.init.status).toBe(400);
    expect(tooLong.data).toEqual({
      noteError: { form: 'new', messageKey: 'classroom.note.error.tooLong' },
    });
    const unknown = (await post({ intent: 'shout', body: 'x' })) as { init: ResponseInit };
    expect(unknown.init.status).toBe(400);
    const badId = (await post({ intent: 'delete-note', noteId: '1e3' })) as {
      init: ResponseInit;
    };
    expect(badId.init.status).toBe(400);
    const posted = (await post({ intent: 'add-note', body: 'See you Monday.' })) as Response;
    expect(posted.status).toBe(302);
    expect(posted.headers.get('Location')).toBe(
      `/classroom/${s.classroomId}/section/${s.sectionId}?type=instructor#notes`,
    );
  });
});
