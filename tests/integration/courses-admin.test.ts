import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from '#db/client.ts';
import { billingCharges, billingRuns } from '#db/schema/billing.ts';
import { productIdentifiers, products } from '#db/schema/catalog.ts';
import {
  academicTerms,
  courseSections,
  courses,
  sectionMemberDrops,
  sectionMembers,
  sectionProducts,
} from '#db/schema/courses.ts';
import { auditEvents } from '#db/schema/operations.ts';
import { ownerships } from '#db/schema/shelf.ts';
import {
  createCourse,
  createSection,
  createTerm,
  endSection,
  termList,
  updateCourse,
  updateSection,
} from '#domain/courses/course-admin-service.ts';
import { courseView, sectionView, termView } from '#domain/courses/course-admin-views.ts';
import { courseCodeLabel } from '#domain/courses/course-code.ts';
import {
  addMember,
  adoptMaterial,
  changeMemberRole,
  removeMember,
  setMaterialRequired,
} from '#domain/courses/section-people-service.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { isUniqueViolation } from '#domain/shared/unique-violation.ts';
import { openTestDatabase, unique } from '#tests/database.ts';
import { action as newSectionAction } from '#web/manage/courses/new-section.tsx';
import { action as sectionAction, loader as sectionLoader } from '#web/manage/courses/section.tsx';
import { action as termsAction } from '#web/manage/courses/terms.tsx';
import { courseAdminFixtures, type Staff, sectionInput } from './course-admin-fixtures.ts';

// Issue 39, Course Manager / Course Admin: "Create, edit, end — with the spec's rules enforced
// where they apply, clear errors beside the field, nothing half-saved", scoped to the person's
// organisation, every change audited before → after. The services on the test database.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const now = new Date('2026-08-01T15:00:00Z');

const { org, person, campusWithSection, answer } = courseAdminFixtures(() => database, now);

describe('issue 39: a campus makes a term, a course and a section', () => {
  it('issue 39: the section is stored with its deadline in UTC, its fee in cents, its term, and audited', async () => {
    const { staff, termId, courseId, sectionId } = await campusWithSection();
    const [row] = await database.db
      .select()
      .from(courseSections)
      .where(eq(courseSections.id, sectionId));
    expect(row).toMatchObject({
      courseId,
      termId,
      number: '001',
      addDropAt: new Date('2026-09-09T03:59:00Z'),
      courseFeeCents: 7900,
      timeZone: 'America/Toronto',
      disableAutoProvisioning: false,
      endedAt: null,
    });
    const [course] = await database.db.select().from(courses).where(eq(courses.id, courseId));
    expect(course!.department).toBe('BIO');
    const audit = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.objectId, String(sectionId)));
    const created = audit.find((a) => a.objectType === 'section' && a.action === 'section.create');
    expect(created?.actorUserId).toBe(staff.user.id);
    expect(created?.after).toMatchObject({
      addDropAt: '2026-09-09T03:59:00.000Z',
      courseFeeCents: 7900,
    });
    const view = await termView(staff, termId);
    expect(view.sections.map((s) => s.id)).toEqual([sectionId]);
    expect(view.audit.map((a) => a.action)).toEqual(['term.create']);
  });

  it('issue 39: an edit records only what changed, before → after; the members who had the deadline move with it', async () => {
    const { staff, termId, sectionId } = await campusWithSection();
    const student = await person();
    expect(
      await addMember(staff, sectionId, {
        email: student.user.email.toUpperCase(),
        role: 'student',
      }),
    ).toEqual({
      ok: true,
      subject: student.user.email,
    });
    const saved = await updateSection(
      staff,
      sectionId,
      sectionInput({ termId: String(termId), fee: '89.50', optOutDate: '2026-09-10' }),
    );
    expect(saved).toEqual({ ok: true, id: sectionId });
    const view = await sectionView(staff, sectionId);
    const edit = view.audit.find((a) => a.action === 'section.edit');
    expect(edit?.before).toEqual({ addDropAt: '2026-09-09T03:59:00.000Z', courseFeeCents: 7900 });
    expect(edit?.after).toEqual({ addDropAt: '2026-09-11T03:59:00.000Z', courseFeeCents: 8950 });
    const [member] = await database.db
      .select({ addDropDate: sectionMembers.addDropDate })
      .from(sectionMembers)
      .where(eq(sectionMembers.sectionId, sectionId));
    expect(member!.addDropDate).toEqual(new Date('2026-09-11T03:59:00Z'));
    // Saving the same form again changes nothing and records nothing.
    await updateSection(
      staff,
      sectionId,
      sectionInput({ termId: String(termId), fee: '89.50', optOutDate: '2026-09-10' }),
    );
    const again = await sectionView(staff, sectionId);
    expect(again.audit.filter((a) => a.action === 'section.edit')).toHaveLength(1);
    expect(again.form).toMatchObject({
      optOutDate: '2026-09-10',
      optOutTime: '23:59',
      fee: '89.50',
    });
  });

  it('issue 39: a refused save writes nothing: field errors come back, the section and the audit are unchanged', async () => {
    const { staff, sectionId } = await campusWithSection();
    const before = await database.db
      .select()
      .from(courseSections)
      .where(eq(courseSections.id, sectionId));
    const auditBefore = (await sectionView(staff, sectionId)).audit.length;
    const refused = await updateSection(
      staff,
      sectionId,
      sectionInput({ name: 'Renamed', endDate: '2026-08-01', fee: 'lots' }),
    );
    expect(refused).toEqual({
      ok: false,
      errors: { endDate: 'ops.courses.error.endBeforeStart', fee: 'ops.courses.error.feeFormat' },
    });
    expect(
      await database.db.select().from(courseSections).where(eq(courseSections.id, sectionId)),
    ).toEqual(before);
    expect((await sectionView(staff, sectionId)).audit).toHaveLength(auditBefore);
  });

  it("issue 39: once billing has charged the section the fee is locked; a section code is unique among the campus's running sections", async () => {
    const { orgId, staff, termId, courseId, sectionId } = await campusWithSection();
    const later = { ...staff, now: new Date('2026-09-20T12:00:00Z') };
    // Past the deadline, nobody billed yet: staff may still put the fee right.
    expect(await updateSection(later, sectionId, sectionInput({ fee: '89.00' }))).toEqual({
      ok: true,
      id: sectionId,
    });
    // A billing run charged a student of the section: its fee is what they were billed.
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
        totalCents: 8900,
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
      userId: student.user!.id,
      runId: run!.id,
      kind: 'charge',
      amountCents: 8900,
      currency: 'USD',
      campusId: 'S1',
    });
    expect(await updateSection(later, sectionId, sectionInput({ fee: '99.00' }))).toEqual({
      ok: false,
      errors: { fee: 'ops.courses.error.feeLocked' },
    });
    await database.db.delete(billingCharges).where(eq(billingCharges.runId, run!.id));
    await database.db.delete(billingRuns).where(eq(billingRuns.id, run!.id));
    expect(
      await updateSection(staff, sectionId, sectionInput({ sectionCode: 'BIO-ROSE' })),
    ).toEqual({
      ok: true,
      id: sectionId,
    });
    expect(
      await createSection(
        staff,
        courseId,
        sectionInput({ number: '002', sectionCode: 'bio rose' }),
      ),
    ).toEqual({
      ok: false,
      errors: { sectionCode: 'ops.courses.error.sectionCodeTaken' },
    });
  });

  it("issue 39: a regular course's section has no fee and provisions nothing; its type becomes a fee type only with a section fee for it", async () => {
    const { orgId, staff } = await campusWithSection();
    const course = await createCourse(staff, {
      orgId,
      name: 'Studio',
      department: 'CS',
      number: '120',
      courseType: 'lms_ecommerce',
    });
    if (!course.ok) throw new Error('course');
    expect(await createSection(staff, course.id, sectionInput())).toEqual({
      ok: false,
      errors: { fee: 'ops.courses.error.feeNotForType' },
    });
    const made = await createSection(staff, course.id, sectionInput({ fee: '' }));
    if (!made.ok) throw new Error('section');
    const [row] = await database.db
      .select()
      .from(courseSections)
      .where(eq(courseSections.id, made.id));
    expect(row).toMatchObject({ courseFeeCents: null, disableAutoProvisioning: true });
    expect(
      await updateCourse(staff, course.id, {
        name: 'Studio',
        department: 'CS',
        number: '120',
        courseType: 'course_fee',
      }),
    ).toEqual({ ok: false, errors: { sectionFee: 'ops.courses.error.sectionFeeRequired' } });
  });

  it("issue 39: a roster course shows the campus's code until staff change its department or number", async () => {
    const { orgId, staff } = await campusWithSection();
    const made = await createCourse(staff, {
      orgId,
      name: 'Chimie organique',
      department: 'CHM',
      number: '210',
      courseType: 'inclusive_access',
    });
    if (!made.ok) throw new Error('course');
    await database.db.update(courses).set({ code: 'CHM-210' }).where(eq(courses.id, made.id));
    const input = {
      name: 'Chimie',
      department: 'CHM',
      number: '210',
      courseType: 'inclusive_access',
    };
    await updateCourse(staff, made.id, input);
    const codeOf = async () =>
      (await database.db.select().from(courses).where(eq(courses.id, made.id)))[0]!;
    expect(courseCodeLabel(await codeOf())).toBe('CHM-210');
    await updateCourse(staff, made.id, { ...input, number: '211' });
    expect(await codeOf()).toMatchObject({ code: null });
    expect(courseCodeLabel(await codeOf())).toBe('CHM 211');
  });

  it('issue 39: ending a section keeps it, marks it ended, audits it, and it changes no more', async () => {
    const { staff, sectionId } = await campusWithSection();
    await endSection(staff, sectionId);
    await endSection(staff, sectionId);
    const view = await sectionView(staff, sectionId);
    expect(view.section.endedAt).toEqual(now);
    expect(view.audit.filter((a) => a.action === 'section.end')).toHaveLength(1);
    await expect(updateSection(staff, sectionId, sectionInput())).rejects.toMatchObject({
      messageKey: 'ops.courses.error.ended',
    });
  });
});

describe('issue 39: a classroom section code two staff save at once', () => {
  const codeOf = async (courseId: number) =>
    (
      await database.db
        .select({ code: courseSections.sectionCode })
        .from(courseSections)
        .where(eq(courseSections.courseId, courseId))
    ).map((r) => r.code);

  /** A second course of the campus: sections of two courses race at the index alone. */
  async function secondCourse(staff: Staff, orgId: number) {
    const made = await createCourse(staff, {
      orgId,
      name: 'Genetics',
      department: 'BIO',
      number: '201',
      courseType: 'inclusive_access',
    });
    if (!made.ok) throw new Error('course');
    return made.id;
  }

  it('decision 036: of two sections created at once in two courses of one campus with one code (as codes compare), one is made and the other is refused beside the field', async () => {
    const { orgId, staff, courseId } = await campusWithSection();
    const colleague = await person({ orgId, roles: ['bookstore_manager'] });
    const otherCourseId = await secondCourse(staff, orgId);
    const code = unique('RACE').replace(/-/g, ' ');
    const [a, b] = await Promise.all([
      createSection(staff, courseId, sectionInput({ number: '010', sectionCode: code })),
      createSection(
        colleague,
        otherCourseId,
        sectionInput({ number: '011', sectionCode: code.toLowerCase().replace(/ /g, '-') }),
      ),
    ]);
    const outcomes = [a, b].map((o) => (o.ok ? 'made' : o.errors));
    expect(outcomes).toEqual(
      expect.arrayContaining(['made', { sectionCode: 'ops.courses.error.sectionCodeTaken' }]),
    );
    const codes = [...(await codeOf(courseId)), ...(await codeOf(otherCourseId))];
    expect(codes.filter((c) => c !== null)).toHaveLength(1);
    // Two edits at once giving two running sections one code: one is saved.
    const one = await createSection(staff, courseId, sectionInput({ number: '012' }));
    const two = await createSection(staff, otherCourseId, sectionInput({ number: '013' }));
    if (!one.ok || !two.ok) throw new Error('sections');
    const other = `${code} B`;
    const edits = await Promise.all([
      updateSection(staff, one.id, sectionInput({ number: '012', sectionCode: other })),
      updateSection(colleague, two.id, sectionInput({ number: '013', sectionCode: other })),
    ]);
    expect(edits.filter((e) => e.ok)).toHaveLength(1);
    expect(edits.filter((e) => !e.ok)).toEqual([
      { ok: false, errors: { sectionCode: 'ops.courses.error.sectionCodeTaken' } },
    ]);
  });

  it('decision 036: the database holds a code unique per campus among running sections, whoever writes it; an ended section frees its code, another campus has its own', async () => {
    const { orgId, staff, courseId, sectionId } = await campusWithSection();
    const code = unique('IDX');
    expect(await updateSection(staff, sectionId, sectionInput({ sectionCode: code }))).toEqual({
      ok: true,
      id: sectionId,
    });
    const [row] = await database.db
      .select({ orgId: courseSections.orgId })
      .from(courseSections)
      .where(eq(courseSections.id, sectionId));
    expect(row!.orgId).toBe(orgId);
    const raw = (course: number, sectionCode: string) =>
      database.db.insert(courseSections).values({
        courseId: course,
        name: 'Written past the service',
        rsCourseId: unique('RSC'),
        startDate: '2026-08-24',
        endDate: '2026-12-15',
        addDropAt: now,
        sectionCode,
      });
    const refused = await raw(courseId, ` ${code.toLowerCase().replace(/-/g, ' ')} `).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isUniqueViolation(refused, 'course_sections_org_code')).toBe(true);
    // Another campus's course takes the same code.
    const elsewhere = await createCourse(staff, {
      orgId,
      name: 'Same campus',
      department: 'BIO',
      number: '102',
      courseType: 'inclusive_access',
    });
    if (!elsewhere.ok) throw new Error('course');
    const otherOrg = await org();
    const [otherCourse] = await database.db
      .insert(courses)
      .values({ orgId: otherOrg, name: 'Elsewhere', department: 'BIO', number: '101' })
      .returning({ id: courses.id });
    await raw(otherCourse!.id, code);
    // The same campus's other course does not; once the section ends, it does.
    await expect(raw(elsewhere.id, code)).rejects.toBeTruthy();
    await endSection(staff, sectionId);
    await raw(elsewhere.id, code);
    expect(await codeOf(elsewhere.id)).toEqual([code]);
  });

  it.runIf(process.env.DATABASE_URL)(
    'decision 036 on PostgreSQL: a save whose check ran before a colleague committed the same code waits on the index, then is refused beside the field; nothing is half-saved',
    async () => {
      const { orgId, staff, courseId } = await campusWithSection();
      const otherCourseId = await secondCourse(staff, orgId);
      const code = unique('HELD');
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted = () => {};
      const colleagueInserted = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      // A colleague's save, not yet committed: the code is in the index, invisible to others.
      const colleague = database.db.transaction(async (tx) => {
        await tx.insert(courseSections).values({
          courseId: otherCourseId,
          name: 'Colleague',
          rsCourseId: unique('RSC'),
          startDate: '2026-08-24',
          endDate: '2026-12-15',
          addDropAt: now,
          sectionCode: code,
        });
        inserted();
        await held;
      });
      // My save starts only once the colleague's row is in the index (else mine could win the
      // race, and the colleague's insert would be the one refused).
      await Promise.race([colleagueInserted, colleague]);
      const mine = createSection(
        staff,
        courseId,
        sectionInput({ number: '020', sectionCode: code }),
      );
      // Wait until my insert waits on the colleague's row, then let the colleague commit.
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
      await colleague;
      expect(await mine).toEqual({
        ok: false,
        errors: { sectionCode: 'ops.courses.error.sectionCodeTaken' },
      });
      const numbers = (
        await database.db
          .select({ number: courseSections.number })
          .from(courseSections)
          .where(eq(courseSections.courseId, courseId))
      ).map((r) => r.number);
      expect(numbers).not.toContain('020');
      const audit = await database.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.action, 'section.create'));
      expect(
        audit.filter((a) => (a.after as { number?: string } | null)?.number === '020'),
      ).toEqual([]);
    },
  );
});

describe('issue 39: members and materials of a section', () => {
  it("issue 39: a course-fee course's student joins on the course fee; a role changes; removal ends the enrolment for billing", async () => {
    const { orgId, staff } = await campusWithSection();
    const course = await createCourse(staff, {
      orgId,
      name: 'Nursing',
      department: 'NURS',
      number: '210',
      courseType: 'course_fee',
    });
    if (!course.ok) throw new Error('course');
    const section = await createSection(staff, course.id, sectionInput());
    if (!section.ok) throw new Error('section');
    const student = await person({ orgId });
    await addMember(staff, section.id, { email: student.user.email, role: 'student' });
    expect(
      await addMember(staff, section.id, { email: student.user.email, role: 'professor' }),
    ).toEqual({
      ok: false,
      field: 'email',
      error: 'ops.courses.error.alreadyMember',
    });
    const [member] = await database.db
      .select()
      .from(sectionMembers)
      .where(eq(sectionMembers.sectionId, section.id));
    expect(member).toMatchObject({ role: 'student', optStatus: 'opted_in', isCourseFee: true });
    await changeMemberRole(staff, section.id, { memberId: member!.id, role: 'teaching_assistant' });
    await removeMember(staff, section.id, member!.id);
    expect(
      await database.db
        .select()
        .from(sectionMembers)
        .where(eq(sectionMembers.sectionId, section.id)),
    ).toEqual([]);
    const [drop] = await database.db
      .select()
      .from(sectionMemberDrops)
      .where(eq(sectionMemberDrops.sectionId, section.id));
    expect(drop).toMatchObject({
      userId: student.user.id,
      role: 'teaching_assistant',
      source: 'staff',
    });
    const actions = (await sectionView(staff, section.id)).audit.map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['member.add', 'member.role', 'member.end']));
  });

  it('issue 39: a role change goes by the rule of joining in that role: a student made professor leaves the course fee and what the section gave them; back to student rejoins it; bought stays', async () => {
    const { orgId, staff } = await campusWithSection();
    const course = await createCourse(staff, {
      orgId,
      name: 'Pharmacology',
      department: 'PHAR',
      number: '310',
      courseType: 'course_fee',
    });
    if (!course.ok) throw new Error('course');
    const section = await createSection(staff, course.id, sectionInput());
    if (!section.ok) throw new Error('section');
    const member_ = await person({ orgId });
    await addMember(staff, section.id, { email: member_.user.email, role: 'student' });
    const memberRow = async () =>
      (
        await database.db
          .select()
          .from(sectionMembers)
          .where(eq(sectionMembers.sectionId, section.id))
      )[0]!;
    const member = await memberRow();
    expect(member).toMatchObject({ role: 'student', isCourseFee: true });
    // What the section gave (Start Reading through the course fee) and what the person bought.
    const book = async (title: string) =>
      (
        await database.db
          .insert(products)
          .values({ productType: 'book', title, slug: unique('book') })
          .returning({ id: products.id })
      )[0]!.id;
    const given = await book('Given by the fee');
    const bought = await book('Bought');
    await database.db.insert(ownerships).values([
      {
        userId: member_.user.id,
        productId: given,
        source: 'course_fee',
        courseSectionId: section.id,
        startsAt: now,
      },
      { userId: member_.user.id, productId: bought, source: 'purchase', startsAt: now },
    ]);
    const revokedOf = async (productId: number) =>
      (
        await database.db
          .select({ revokedAt: ownerships.revokedAt })
          .from(ownerships)
          .where(eq(ownerships.productId, productId))
      )[0]!.revokedAt;

    await changeMemberRole(staff, section.id, { memberId: member.id, role: 'professor' });
    expect(await memberRow()).toMatchObject({ role: 'professor', isCourseFee: false });
    expect(await revokedOf(given)).toEqual(now);
    expect(await revokedOf(bought)).toBeNull();
    const [why] = await database.db
      .select({ revokedReason: ownerships.revokedReason })
      .from(ownerships)
      .where(eq(ownerships.productId, given));
    expect(why!.revokedReason).toBe('roleChanged');

    // Professor ↔ teaching assistant: the section gives the same; nothing else moves.
    await changeMemberRole(staff, section.id, { memberId: member.id, role: 'teaching_assistant' });
    expect(await memberRow()).toMatchObject({ role: 'teaching_assistant', isCourseFee: false });

    // Back to student: on the course fee again, as a student added now would be.
    await changeMemberRole(staff, section.id, { memberId: member.id, role: 'student' });
    expect(await memberRow()).toMatchObject({ role: 'student', isCourseFee: true });
    expect(await revokedOf(bought)).toBeNull();

    const roles = (await sectionView(staff, section.id)).audit.filter(
      (a) => a.action === 'member.role',
    );
    const who = { userId: member_.user.id, email: member_.user.email };
    expect(roles.map((a) => [a.before, a.after])).toEqual(
      expect.arrayContaining([
        [
          { ...who, role: 'student', isCourseFee: true, sectionGrants: 1 },
          { ...who, role: 'professor', isCourseFee: false, sectionGrants: 0 },
        ],
        [
          { ...who, role: 'professor', isCourseFee: false },
          { ...who, role: 'teaching_assistant', isCourseFee: false },
        ],
        [
          { ...who, role: 'teaching_assistant', isCourseFee: false },
          { ...who, role: 'student', isCourseFee: true },
        ],
      ]),
    );
    expect(roles).toHaveLength(3);
  });

  it("issue 39: an unknown address and another campus's account get the same answer; nothing is added", async () => {
    const { staff, sectionId } = await campusWithSection();
    const elsewhere = await person({ orgId: await org() });
    for (const email of [elsewhere.user.email, 'nobody-here@example.test']) {
      expect(await addMember(staff, sectionId, { email, role: 'student' })).toEqual({
        ok: false,
        field: 'email',
        error: 'ops.courses.error.noAccount',
      });
    }
    expect((await sectionView(staff, sectionId)).members).toEqual([]);
  });

  it('issue 39: a material is adopted by ISBN or id, required or optional, once; an unknown one is refused', async () => {
    const { staff, sectionId } = await campusWithSection();
    const [product] = await database.db
      .insert(products)
      .values({ productType: 'book', title: 'Biology Today', slug: unique('biology-today') })
      .returning({ id: products.id });
    const isbn = `979${String(Date.now()).slice(-9)}${Math.floor(Math.random() * 10)}`;
    await database.db
      .insert(productIdentifiers)
      .values({ productId: product!.id, type: 'ISBN13', value: isbn });
    expect(await adoptMaterial(staff, sectionId, { reference: isbn, required: false })).toEqual({
      ok: true,
      subject: 'Biology Today',
    });
    expect(
      await adoptMaterial(staff, sectionId, { reference: String(product!.id), required: true }),
    ).toEqual({
      ok: false,
      field: 'reference',
      error: 'ops.courses.error.alreadyAdopted',
    });
    expect(
      await adoptMaterial(staff, sectionId, { reference: '2147483000', required: true }),
    ).toEqual({
      ok: false,
      field: 'reference',
      error: 'ops.courses.error.noProduct',
    });
    const rows = await database.db
      .select()
      .from(sectionProducts)
      .where(eq(sectionProducts.sectionId, sectionId));
    expect(rows).toMatchObject([{ productId: product!.id, isRequired: false }]);
    const [counted] = await database.db
      .select({ n: products.adoptionCount })
      .from(products)
      .where(eq(products.id, product!.id));
    expect(counted!.n).toBe(1);
  });
});

describe('issue 39: an adopted material switches between required and optional', () => {
  it('issue 39: staff mark an adopted material optional, then required again, from the section page; each switch is audited before → after; the same choice records nothing', async () => {
    const { staff, sectionId } = await campusWithSection();
    const [product] = await database.db
      .insert(products)
      .values({ productType: 'book', title: 'Cell Biology', slug: unique('cell-biology') })
      .returning({ id: products.id });
    await adoptMaterial(staff, sectionId, { reference: String(product!.id), required: true });
    const [adoption] = await database.db
      .select()
      .from(sectionProducts)
      .where(eq(sectionProducts.sectionId, sectionId));
    const path = `/manage/course-manager/sections/${sectionId}`;
    const params = { sectionId: String(sectionId) };
    const post = (required: string) =>
      answer(sectionAction, staff, path, params, {
        intent: 'material-required',
        adoptionId: String(adoption!.id),
        required,
      });
    expect((await post('optional')).status).toBe(302);
    const isRequired = async () =>
      (
        await database.db
          .select({ isRequired: sectionProducts.isRequired })
          .from(sectionProducts)
          .where(eq(sectionProducts.id, adoption!.id))
      )[0]!.isRequired;
    expect(await isRequired()).toBe(false);
    expect(
      await setMaterialRequired(staff, sectionId, { adoptionId: adoption!.id, required: false }),
    ).toEqual({
      ok: true,
      subject: 'Cell Biology',
    });
    expect((await post('required')).status).toBe(302);
    expect(await isRequired()).toBe(true);
    const switches = (await sectionView(staff, sectionId)).audit.filter(
      (a) => a.action === 'material.required',
    );
    expect(switches.map((a) => [a.before, a.after])).toEqual(
      expect.arrayContaining([
        [
          { productId: product!.id, title: 'Cell Biology', required: true },
          { productId: product!.id, title: 'Cell Biology', required: false },
        ],
        [
          { productId: product!.id, title: 'Cell Biology', required: false },
          { productId: product!.id, title: 'Cell Biology', required: true },
        ],
      ]),
    );
    expect(switches).toHaveLength(2);
    // A bad choice is a 400 with nothing changed; another section's adoption is not found.
    expect((await post('maybe')).status).toBe(400);
    expect(await isRequired()).toBe(true);
    const other = await campusWithSection();
    await expect(
      setMaterialRequired(other.staff, other.sectionId, {
        adoptionId: adoption!.id,
        required: false,
      }),
    ).rejects.toEqual(expect.any(NotFound));
    expect(await isRequired()).toBe(true);
  });
});

describe('issue 39: another campus sees nothing of it', () => {
  it('issue 39: a bookstore manager of another campus gets not found for its term, course and section, reading or writing', async () => {
    const { orgId, termId, courseId, sectionId } = await campusWithSection();
    const other = await person({ orgId: await org(), roles: ['bookstore_manager'] });
    const notFound = expect.any(NotFound);
    await expect(termView(other, termId)).rejects.toEqual(notFound);
    await expect(courseView(other, courseId)).rejects.toEqual(notFound);
    await expect(sectionView(other, sectionId)).rejects.toEqual(notFound);
    await expect(updateSection(other, sectionId, sectionInput())).rejects.toEqual(notFound);
    await expect(createSection(other, courseId, sectionInput())).rejects.toEqual(notFound);
    await expect(endSection(other, sectionId)).rejects.toEqual(notFound);
    await expect(
      addMember(other, sectionId, { email: other.user.email, role: 'student' }),
    ).rejects.toEqual(notFound);
    await expect(
      createCourse(other, {
        orgId,
        name: 'X',
        department: 'X',
        number: '1',
        courseType: 'inclusive_access',
      }),
    ).rejects.toEqual(notFound);
    expect((await termList(other, { orgId: null })).map((t) => t.id)).not.toContain(termId);
    expect(await termList(other, { orgId })).toEqual([]);
    const [row] = await database.db
      .select()
      .from(academicTerms)
      .where(eq(academicTerms.id, termId));
    expect(row!.endedAt).toBeNull();
  });

  it('issue 39: a manager sees every campus and makes a term in the one they pick', async () => {
    const { orgId, sectionId } = await campusWithSection();
    const manager = await person({ roles: ['manager'] });
    expect((await sectionView(manager, sectionId)).section.id).toBe(sectionId);
    const made = await createTerm(manager, {
      orgId,
      title: 'Winter 2027',
      termType: 'term',
      startDate: '2027-01-05',
      endDate: '2027-04-30',
    });
    expect(made.ok).toBe(true);
    expect((await termList(manager, { orgId })).map((t) => t.title)).toEqual([
      'Winter 2027',
      'Fall 2026',
    ]);
  });
});

describe('issue 39: the pages answer another campus and bad input', () => {
  it("issue 39: another campus's manager gets 404 for the section by URL, and by form for its course and its organisation", async () => {
    const { orgId, courseId, sectionId } = await campusWithSection();
    const other = await person({ orgId: await org(), roles: ['bookstore_manager'] });
    const path = `/manage/course-manager/sections/${sectionId}`;
    expect(
      (await answer(sectionLoader, other, path, { sectionId: String(sectionId) })).status,
    ).toBe(404);
    expect((await answer(sectionLoader, other, path, { sectionId: '1e3' })).status).toBe(404);
    const fields = Object.fromEntries(Object.entries(sectionInput()));
    const posted = await answer(
      newSectionAction,
      other,
      `/manage/course-manager/courses/${courseId}/new-section`,
      { courseId: String(courseId) },
      fields,
    );
    expect(posted.status).toBe(404);
    const term = await answer(
      termsAction,
      other,
      '/manage/course-manager',
      {},
      {
        orgId: String(orgId),
        title: 'Stolen term',
        termType: 'term',
        startDate: '2026-08-24',
        endDate: '2026-12-15',
      },
    );
    expect(term.status).toBe(404);
    expect(
      await database.db.select().from(academicTerms).where(eq(academicTerms.title, 'Stolen term')),
    ).toEqual([]);
  });

  it('issue 39: a refused section comes back with the error beside its field and the values as typed; nothing is made', async () => {
    const { staff, courseId } = await campusWithSection();
    const fields = { ...sectionInput({ number: '777', fee: '79,000,0' }), name: 'Biology\u0000' };
    const posted = await answer(
      newSectionAction,
      staff,
      `/manage/course-manager/courses/${courseId}/new-section`,
      { courseId: String(courseId) },
      fields,
    );
    expect(posted.status).toBe(400);
    expect(posted.data?.errors).toEqual({
      name: 'ops.courses.error.characters',
      fee: 'ops.courses.error.feeFormat',
    });
    expect(posted.data?.values).toMatchObject({
      number: '777',
      fee: '79,000,0',
      optOutDate: '2026-09-08',
    });
    const sections = await database.db
      .select()
      .from(courseSections)
      .where(eq(courseSections.courseId, courseId));
    expect(sections.map((s) => s.number)).toEqual(['001']);
  });

  it('issue 39: a person the Course Manager item does not show to gets the forbidden page', async () => {
    const { sectionId } = await campusWithSection();
    const student = await person();
    const path = `/manage/course-manager/sections/${sectionId}`;
    const params = { sectionId: String(sectionId) };
    expect((await answer(sectionLoader, student, path, params, undefined, false)).status).toBe(403);
  });
});
