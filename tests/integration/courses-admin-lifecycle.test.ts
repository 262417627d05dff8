import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from '#db/client.ts';
import { billingCharges, billingRuns } from '#db/schema/billing.ts';
import { academicTerms, courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import {
  createCourse,
  createSection,
  createTerm,
  endSection,
  endTerm,
  termList,
  updateSection,
} from '#domain/courses/course-admin-service.ts';
import { courseView, sectionView, termView } from '#domain/courses/course-admin-views.ts';
import { addMember } from '#domain/courses/section-people-service.ts';
import { openTestDatabase } from '#tests/database.ts';
import { action as courseAction } from '#web/manage/courses/course.tsx';
import { action as sectionAction } from '#web/manage/courses/section.tsx';
import { action as termAction } from '#web/manage/courses/term.tsx';
import { courseAdminFixtures, type Staff, sectionInput } from './course-admin-fixtures.ts';

// Issue 39, Course Manager / Course Admin: "Create, edit, end — with the spec's rules enforced
// where they apply (deadlines in order, a fee only where the type has one), clear errors beside
// the field, nothing half-saved. Every change a staff member makes is audited". What a browser
// walk found: a course type change left its sections' fees behind, past and ended terms showed
// Running, and End term, End section and Remove member acted on one click.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const now = new Date('2026-08-01T15:00:00Z');
const { org, person, campusWithSection, answer } = courseAdminFixtures(() => database, now);

const sectionRow = async (id: number) =>
  (await database.db.select().from(courseSections).where(eq(courseSections.id, id)))[0]!;
const courseType = async (id: number) =>
  (await database.db.select().from(courses).where(eq(courses.id, id)))[0]!.courseType;

/** Posts the course's edit form as the page does. */
const saveCourse = (staff: Staff, courseId: number, fields: Record<string, string>) =>
  answer(
    courseAction,
    staff,
    `/manage/course-manager/courses/${courseId}`,
    { courseId: String(courseId) },
    { name: 'Principles of Biology', department: 'BIO', number: '101', ...fields },
  );

/** A section of the course that ran last spring: its last day is over. */
async function pastSection(staff: Staff, courseId: number, fee: string) {
  const made = await createSection(
    staff,
    courseId,
    sectionInput({
      number: '090',
      startDate: '2026-05-01',
      endDate: '2026-06-30',
      optOutDate: '2026-05-10',
      fee,
    }),
  );
  if (!made.ok) throw new Error(JSON.stringify(made.errors));
  return made.id;
}

describe('issue 39: a course type change brings its running sections along', () => {
  it('issue 39, a fee only where the type has one: made regular, its running sections lose their fee and provision nothing, each audited; ended and past sections keep theirs', async () => {
    const { staff, courseId, sectionId } = await campusWithSection();
    const ended = await createSection(staff, courseId, sectionInput({ number: '002' }));
    if (!ended.ok) throw new Error('section');
    await endSection(staff, ended.id);
    const past = await pastSection(staff, courseId, '79.00');

    expect((await saveCourse(staff, courseId, { courseType: 'lms_ecommerce' })).status).toBe(302);

    expect(await courseType(courseId)).toBe('lms_ecommerce');
    expect(await sectionRow(sectionId)).toMatchObject({
      courseFeeCents: null,
      disableAutoProvisioning: true,
    });
    for (const kept of [ended.id, past]) {
      expect(await sectionRow(kept)).toMatchObject({
        courseFeeCents: 7900,
        disableAutoProvisioning: false,
      });
    }
    const section = await sectionView(staff, sectionId);
    const edit = section.audit.find((a) => a.action === 'section.edit');
    expect(edit).toMatchObject({
      actorLabel: `Rosa Diaz <${staff.user.email}>`,
      before: { courseFeeCents: 7900, provisionsMaterials: true },
      after: { courseFeeCents: null, provisionsMaterials: false },
    });
    expect(section.form.fee).toBe('');
    const course = await courseView(staff, courseId);
    expect(course.audit.find((a) => a.action === 'course.edit')).toMatchObject({
      before: { courseType: 'inclusive_access' },
      after: { courseType: 'lms_ecommerce' },
    });
    expect((await sectionView(staff, ended.id)).audit.map((a) => a.action)).not.toContain(
      'section.edit',
    );
  });

  it('issue 39: made inclusive access, the form asks for the section fee beside the field (French amounts read), and its sections without a fee take it', async () => {
    const { orgId, staff } = await campusWithSection();
    const made = await createCourse(staff, {
      orgId,
      name: 'Principles of Biology',
      department: 'BIO',
      number: '101',
      courseType: 'lms_ecommerce',
    });
    if (!made.ok) throw new Error('course');
    const section = await createSection(staff, made.id, sectionInput({ fee: '' }));
    if (!section.ok) throw new Error('section');

    const refused = await saveCourse(staff, made.id, {
      courseType: 'inclusive_access',
      sectionFee: '',
    });
    expect(refused.status).toBe(400);
    expect(refused.data?.errors).toEqual({ sectionFee: 'ops.courses.error.sectionFeeRequired' });
    expect(refused.data?.values).toMatchObject({ courseType: 'inclusive_access', sectionFee: '' });
    const malformed = await saveCourse(staff, made.id, {
      courseType: 'inclusive_access',
      sectionFee: 'soixante',
    });
    expect(malformed.data?.errors).toEqual({ sectionFee: 'ops.courses.error.feeFormat' });
    // Nothing half-saved: the course, its section and the audits are as they were.
    expect(await courseType(made.id)).toBe('lms_ecommerce');
    expect((await sectionRow(section.id)).courseFeeCents).toBeNull();
    expect((await courseView(staff, made.id)).audit.map((a) => a.action)).toEqual([
      'course.create',
    ]);

    const saved = await saveCourse(staff, made.id, {
      courseType: 'inclusive_access',
      sectionFee: '1 250,00 $',
    });
    expect(saved.status).toBe(302);
    expect(await courseType(made.id)).toBe('inclusive_access');
    expect(await sectionRow(section.id)).toMatchObject({
      courseFeeCents: 125000,
      disableAutoProvisioning: false,
    });
    expect(
      (await sectionView(staff, section.id)).audit.find((a) => a.action === 'section.edit'),
    ).toMatchObject({
      before: { courseFeeCents: null, provisionsMaterials: false },
      after: { courseFeeCents: 125000, provisionsMaterials: true },
    });
  });

  it('issue 39: made a course-fee course, the students of its running sections read through the course fee as if they had joined it; its professor and its past sections’ students do not', async () => {
    const { orgId, staff, courseId, sectionId } = await campusWithSection();
    const past = await pastSection(staff, courseId, '79.00');
    const student = await person({ orgId });
    const professor = await person({ orgId });
    const alumnus = await person({ orgId });
    await addMember(staff, sectionId, { email: student.user.email, role: 'student' });
    await addMember(staff, sectionId, { email: professor.user.email, role: 'professor' });
    await addMember(staff, past, { email: alumnus.user.email, role: 'student' });
    const onFee = async () =>
      Object.fromEntries(
        (
          await database.db
            .select({ userId: sectionMembers.userId, isCourseFee: sectionMembers.isCourseFee })
            .from(sectionMembers)
            .where(sql`${sectionMembers.sectionId} in (${sectionId}, ${past})`)
        ).map((m) => [m.userId, m.isCourseFee]),
      );
    expect(await onFee()).toEqual({
      [student.user.id]: false,
      [professor.user.id]: false,
      [alumnus.user.id]: false,
    });

    expect((await saveCourse(staff, courseId, { courseType: 'course_fee' })).status).toBe(302);
    expect(await onFee()).toEqual({
      [student.user.id]: true,
      [professor.user.id]: false,
      [alumnus.user.id]: false,
    });

    expect((await saveCourse(staff, courseId, { courseType: 'inclusive_access' })).status).toBe(
      302,
    );
    expect((await onFee())[student.user.id]).toBe(false);
  });

  it('issue 39: once billing has charged a running section, the course cannot become regular: refused beside the type, nothing changed', async () => {
    const { orgId, staff, termId, courseId, sectionId } = await campusWithSection();
    const student = await person({ orgId });
    const [run] = await database.db
      .insert(billingRuns)
      .values({
        orgId,
        termId,
        sequence: 1,
        createdByLabel: 'test',
        chargeCount: 1,
        creditCount: 0,
        totalCents: 7900,
        currency: 'USD',
        fileName: 'charges-1.csv',
        fileText: '',
        fileSha256: '',
      })
      .returning({ id: billingRuns.id });
    await database.db.insert(billingCharges).values({
      orgId,
      termId,
      sectionId,
      userId: student.user.id,
      runId: run!.id,
      kind: 'charge',
      amountCents: 7900,
      currency: 'USD',
      campusId: 'S1',
    });
    const refused = await saveCourse(staff, courseId, { courseType: 'lms_ecommerce' });
    expect(refused.status).toBe(400);
    expect(refused.data?.errors).toEqual({ courseType: 'ops.courses.error.typeBilled' });
    expect(await courseType(courseId)).toBe('inclusive_access');
    expect((await sectionRow(sectionId)).courseFeeCents).toBe(7900);
    expect((await sectionView(staff, sectionId)).audit.map((a) => a.action)).toEqual([
      'section.create',
    ]);
    // Between two fee types the billed fee is left as it is: allowed.
    expect((await saveCourse(staff, courseId, { courseType: 'course_fee' })).status).toBe(302);
    expect((await sectionRow(sectionId)).courseFeeCents).toBe(7900);
  });
});

describe('issue 39: a course type change and a section edit at once', () => {
  it.runIf(process.env.DATABASE_URL)(
    'issue 39 on PostgreSQL, nothing half-saved: a fee saved on a section while its course is being made regular waits for the change, then is refused beside the field',
    async () => {
      const { orgId, courseId, sectionId } = await campusWithSection();
      const colleague = await person({ orgId, roles: ['bookstore_manager'] });
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let written = () => {};
      const changed = new Promise<void>((resolve) => {
        written = resolve;
      });
      // The type change as updateCourse writes it (the course, then its sections), not yet
      // committed.
      const change = database.db.transaction(async (tx) => {
        await tx
          .update(courses)
          .set({ courseType: 'lms_ecommerce' })
          .where(eq(courses.id, courseId));
        await tx
          .update(courseSections)
          .set({ courseFeeCents: null, disableAutoProvisioning: true })
          .where(eq(courseSections.id, sectionId));
        written();
        await held;
      });
      await changed;
      const mine = updateSection(colleague, sectionId, sectionInput({ fee: '89.00' }));
      // Wait until the section edit waits on the change's locks, then let the change commit.
      for (let i = 0; i < 500; i += 1) {
        const [waiting] = await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from pg_stat_activity
               where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (waiting!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      release();
      await change;
      expect(await mine).toEqual({
        ok: false,
        errors: { fee: 'ops.courses.error.feeNotForType' },
      });
      expect(await sectionRow(sectionId)).toMatchObject({ courseFeeCents: null });
    },
  );
});

describe('issue 39: a term or section shows Ended once it is over', () => {
  it('issue 39: a term past its last day shows Ended in the list and on its page, and so do its sections', async () => {
    const { orgId, staff, courseId } = await campusWithSection();
    const spring = await createTerm(staff, {
      orgId,
      title: 'Spring 2026',
      termType: 'term',
      startDate: '2026-01-05',
      endDate: '2026-04-30',
    });
    if (!spring.ok) throw new Error('term');
    // The section's own dates run on; its term is over.
    const section = await createSection(
      staff,
      courseId,
      sectionInput({ number: '003', termId: String(spring.id) }),
    );
    if (!section.ok) throw new Error('section');
    const list = await termList(staff, { orgId });
    expect(list.map((t) => [t.title, t.status])).toEqual([
      ['Fall 2026', 'running'],
      ['Spring 2026', 'ended'],
    ]);
    const view = await termView(staff, spring.id);
    expect(view.status).toBe('ended');
    expect(view.sections.map((s) => s.status)).toEqual(['ended']);
    const page = await sectionView(staff, section.id);
    expect(page.status).toBe('ended');
    // Over by the calendar, not ended by anyone: it can still be put right.
    expect(page.closed).toBe(false);
  });

  it('issue 39: a section past its last day shows Ended among its course’s sections', async () => {
    const { staff, courseId, sectionId } = await campusWithSection();
    const past = await pastSection(staff, courseId, '79.00');
    const statuses = new Map(
      (await courseView(staff, courseId)).sections.map((s) => [s.id, s.status]),
    );
    expect(statuses.get(past)).toBe('ended');
    expect(statuses.get(sectionId)).toBe('running');
  });

  it('issue 39: ending a term ends its sections still open, each audited on its own page; they show Ended and change no more', async () => {
    const { orgId, staff, termId, courseId, sectionId } = await campusWithSection();
    const other = await createSection(
      staff,
      courseId,
      sectionInput({ number: '004', termId: String(termId) }),
    );
    if (!other.ok) throw new Error('section');
    await endSection(staff, other.id);
    const later = { ...staff, now: new Date('2026-09-01T12:00:00Z') };
    await endTerm(later, termId);
    await endTerm(later, termId);

    expect((await termList(staff, { orgId })).map((t) => t.status)).toEqual(['ended']);
    const view = await termView(staff, termId);
    expect(view.status).toBe('ended');
    expect(view.sections.map((s) => s.status)).toEqual(['ended', 'ended']);
    expect(view.audit.filter((a) => a.action === 'term.end')).toHaveLength(1);
    expect((await sectionRow(sectionId)).endedAt).toEqual(later.now);
    // The section ended before keeps its own end.
    expect((await sectionRow(other.id)).endedAt).toEqual(now);
    const page = await sectionView(staff, sectionId);
    expect(page).toMatchObject({ status: 'ended', closed: true });
    expect(page.audit.filter((a) => a.action === 'section.end')).toHaveLength(1);
    expect(
      (await sectionView(staff, other.id)).audit.filter((a) => a.action === 'section.end'),
    ).toHaveLength(1);
  });
});

describe('issue 39: a section of an ended term changes no more, however the term was ended', () => {
  it('issue 39: its term stamped ended without its sections (a roster’s end, an older end), the section refuses edits and new members', async () => {
    const { orgId, staff, termId, sectionId } = await campusWithSection();
    await database.db
      .update(academicTerms)
      .set({ endedAt: now })
      .where(eq(academicTerms.id, termId));
    const before = await sectionRow(sectionId);
    await expect(
      updateSection(staff, sectionId, sectionInput({ termId: String(termId), fee: '99.00' })),
    ).rejects.toMatchObject({ message: 'ops.courses.error.ended' });
    const student = await person({ orgId });
    await expect(
      addMember(staff, sectionId, { email: student.user.email, role: 'student' }),
    ).rejects.toMatchObject({ message: 'ops.courses.error.ended' });
    expect(await sectionRow(sectionId)).toEqual(before);
    const members = await database.db
      .select()
      .from(sectionMembers)
      .where(eq(sectionMembers.sectionId, sectionId));
    expect(members).toEqual([]);
  });
});

describe('issue 39: End term, End section and Remove member ask first', () => {
  it('issue 39: the first End term post asks, naming the term, and changes nothing; the confirmed one ends it; another campus gets not found at either step', async () => {
    const { staff, termId } = await campusWithSection();
    const path = `/manage/course-manager/terms/${termId}`;
    const params = { termId: String(termId) };
    const asked = await answer(termAction, staff, path, params, { intent: 'end' });
    expect(asked).toEqual({ status: 200, data: { confirmEnd: { title: 'Fall 2026' } } });
    const term = async () =>
      (await database.db.select().from(academicTerms).where(eq(academicTerms.id, termId)))[0]!;
    expect((await term()).endedAt).toBeNull();
    expect((await termView(staff, termId)).audit.map((a) => a.action)).toEqual(['term.create']);

    const stranger = await person({ orgId: await org(), roles: ['bookstore_manager'] });
    expect((await answer(termAction, stranger, path, params, { intent: 'end' })).status).toBe(404);
    expect(
      (await answer(termAction, staff, path, params, { intent: 'end', confirm: 'maybe' })).status,
    ).toBe(400);
    expect((await term()).endedAt).toBeNull();

    const done = await answer(termAction, staff, path, params, { intent: 'end', confirm: 'yes' });
    expect(done.status).toBe(302);
    expect((await term()).endedAt).toEqual(now);
    expect((await termView(staff, termId)).audit.map((a) => a.action)).toContain('term.end');
  });

  it('issue 39: End section and Remove member ask first, naming the member; confirmed, they happen and are audited', async () => {
    const { orgId, staff, sectionId } = await campusWithSection();
    const student = await person({ orgId });
    await addMember(staff, sectionId, { email: student.user.email, role: 'student' });
    const [member] = await database.db
      .select({ id: sectionMembers.id })
      .from(sectionMembers)
      .where(eq(sectionMembers.sectionId, sectionId));
    const path = `/manage/course-manager/sections/${sectionId}`;
    const params = { sectionId: String(sectionId) };
    const post = (fields: Record<string, string>) =>
      answer(sectionAction, staff, path, params, fields);
    const remove = { intent: 'member-remove', memberId: String(member!.id) };

    expect(await post(remove)).toEqual({
      status: 200,
      data: {
        question: {
          intent: 'member-remove',
          memberId: member!.id,
          name: `Rosa Diaz <${student.user.email}>`,
        },
      },
    });
    const members = () =>
      database.db.select().from(sectionMembers).where(eq(sectionMembers.sectionId, sectionId));
    expect(await members()).toHaveLength(1);
    // A member of no section of this page is not found, asked or confirmed.
    expect((await post({ intent: 'member-remove', memberId: '2147483000' })).status).toBe(404);
    expect((await post({ ...remove, confirm: 'yes' })).status).toBe(302);
    expect(await members()).toEqual([]);

    expect(await post({ intent: 'end' })).toEqual({
      status: 200,
      data: { question: { intent: 'end' } },
    });
    expect((await sectionRow(sectionId)).endedAt).toBeNull();
    expect((await post({ intent: 'end', confirm: 'yes' })).status).toBe(302);
    expect((await sectionRow(sectionId)).endedAt).toEqual(now);
    const actions = (await sectionView(staff, sectionId)).audit.map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['member.end', 'section.end']));
  });
});
