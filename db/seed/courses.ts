// Courses, sections, members and section materials of the demo: every course type, terms in
// the past, present and future of `now`, opting deadlines on both sides of `now`.
import type { Queryable } from '#db/client.ts';
import {
  academicTerms,
  courseSections,
  courses,
  departments,
  optChanges,
  sectionMembers,
  sectionProducts,
} from '#db/schema/courses.ts';
import { campusPeople } from '#db/schema/operations.ts';
import { sectionInvitations } from '#db/schema/section-invitations.ts';
import { academicTermOf } from '#domain/courses/academic-term.ts';
import type { DemoUsers } from './accounts.ts';
import {
  FIXTURE_COUNT,
  FIXTURE_INDEX,
  type FixtureName,
  isPlainlySellable,
  planOf,
} from './catalog.ts';
import { createRandom } from './content/random.ts';
import type { DemoOrgs } from './sites.ts';

type CourseType = 'inclusive_access' | 'lms_ecommerce' | 'cds' | 'student_choice';
type Term = 'past' | 'current' | 'future';

type CourseSpec = {
  org: keyof DemoOrgs;
  name: string;
  department: string;
  number: string;
  courseType: CourseType;
};

const COURSES = {
  bio: {
    org: 'campus',
    name: 'Principles of Biology',
    department: 'BIO',
    number: '101',
    courseType: 'inclusive_access',
  },
  chem: {
    org: 'campus',
    name: 'General Chemistry',
    department: 'CHEM',
    number: '110',
    courseType: 'inclusive_access',
  },
  hist: {
    org: 'campus',
    name: 'World History',
    department: 'HIST',
    number: '150',
    courseType: 'inclusive_access',
  },
  psy: {
    org: 'campus',
    name: 'Introduction to Psychology',
    department: 'PSY',
    number: '100',
    courseType: 'inclusive_access',
  },
  soc: {
    org: 'campus',
    name: 'Introduction to Sociology',
    department: 'SOC',
    number: '101',
    courseType: 'inclusive_access',
  },
  econ: {
    org: 'campus',
    name: 'Intermediate Microeconomics',
    department: 'ECON',
    number: '201',
    courseType: 'lms_ecommerce',
  },
  cs: {
    org: 'campus',
    name: 'Programming Studio',
    department: 'CS',
    number: '120',
    courseType: 'lms_ecommerce',
  },
  linalg: {
    org: 'campus',
    name: 'Linear Algebra',
    department: 'MATH',
    number: '221',
    courseType: 'lms_ecommerce',
  },
  nurs: {
    org: 'cds',
    name: 'Fundamentals of Nursing',
    department: 'NURS',
    number: '210',
    courseType: 'cds',
  },
  calc: { org: 'cds', name: 'Calculus I', department: 'MATH', number: '140', courseType: 'cds' },
  eng: {
    org: 'retailer',
    name: 'College Composition',
    department: 'ENG',
    number: '101',
    courseType: 'student_choice',
  },
  mkt: {
    org: 'retailer',
    name: 'Principles of Marketing',
    department: 'BUS',
    number: '220',
    courseType: 'student_choice',
  },
} satisfies Record<string, CourseSpec>;

type CourseKey = keyof typeof COURSES;

// Department names of each organisation's codes (issue 19: 'Biology 101' finds BIO 101).
const DEPARTMENTS: { org: keyof DemoOrgs; code: string; name: string; nameFrCa: string }[] = [
  { org: 'campus', code: 'BIO', name: 'Biology', nameFrCa: 'Biologie' },
  { org: 'campus', code: 'CHEM', name: 'Chemistry', nameFrCa: 'Chimie' },
  { org: 'campus', code: 'HIST', name: 'History', nameFrCa: 'Histoire' },
  { org: 'campus', code: 'PSY', name: 'Psychology', nameFrCa: 'Psychologie' },
  { org: 'campus', code: 'SOC', name: 'Sociology', nameFrCa: 'Sociologie' },
  { org: 'campus', code: 'ECON', name: 'Economics', nameFrCa: 'Économique' },
  { org: 'campus', code: 'CS', name: 'Computer Science', nameFrCa: 'Informatique' },
  { org: 'campus', code: 'MATH', name: 'Mathematics', nameFrCa: 'Mathématiques' },
  { org: 'cds', code: 'NURS', name: 'Nursing', nameFrCa: 'Sciences infirmières' },
  { org: 'cds', code: 'MATH', name: 'Mathematics', nameFrCa: 'Mathématiques' },
  { org: 'retailer', code: 'ENG', name: 'English', nameFrCa: 'Anglais' },
  { org: 'retailer', code: 'BUS', name: 'Business', nameFrCa: 'Administration des affaires' },
];

type SectionSpec = {
  course: CourseKey;
  number: string;
  term: Term;
  /** Days from now of the add/drop (opting) deadline; default: 14 days after the start. */
  addDropDays?: number;
  optingMethod?: 'opt-out' | 'no-opt';
  disableAutoProvisioning?: boolean;
  sectionCode?: string;
  /** Fixture materials, in order; a choice lists the print version as `additional`. */
  materials?: { product: FixtureName; additional?: FixtureName; lti?: 0 | 2; optional?: true }[];
};

// Sections named here are the ones the demo accounts sit in (see DEMO_SECTIONS below).
const SECTIONS = {
  bio001: {
    course: 'bio',
    number: '001',
    term: 'current',
    addDropDays: 10,
    materials: [
      { product: 'studentEpub' },
      { product: 'choiceDigital', additional: 'choicePrint' },
      { product: 'poolCourseware', lti: 0, optional: true },
    ],
  },
  bio002: { course: 'bio', number: '002', term: 'current', addDropDays: -5 },
  chem001: {
    course: 'chem',
    number: '001',
    term: 'current',
    addDropDays: 7,
    materials: [
      { product: 'ltiCourseware', lti: 2 },
      { product: 'stockOne' },
      { product: 'combo', optional: true },
    ],
  },
  hist001: { course: 'hist', number: '001', term: 'past', materials: [{ product: 'freeBook' }] },
  psy001: { course: 'psy', number: '001', term: 'future', materials: [{ product: 'redeemBook' }] },
  soc001: { course: 'soc', number: '001', term: 'past' },
  soc002: { course: 'soc', number: '002', term: 'current', addDropDays: -4 },
  econ001: {
    course: 'econ',
    number: '001',
    term: 'current',
    optingMethod: 'no-opt',
    disableAutoProvisioning: true,
    materials: [{ product: 'printOnDemand' }, { product: 'stockFive' }],
  },
  cs001: {
    course: 'cs',
    number: '001',
    term: 'current',
    optingMethod: 'no-opt',
    disableAutoProvisioning: true,
    sectionCode: 'CS120-ROSE',
    materials: [{ product: 'studentClassroom' }],
  },
  linalg001: { course: 'linalg', number: '001', term: 'future', disableAutoProvisioning: true },
  nurs001: { course: 'nurs', number: '001', term: 'current', addDropDays: 3 },
  nurs002: { course: 'nurs', number: '002', term: 'past' },
  calc001: { course: 'calc', number: '001', term: 'future' },
  eng001: { course: 'eng', number: '001', term: 'current', addDropDays: -2 },
  eng002: { course: 'eng', number: '002', term: 'future' },
  mkt001: { course: 'mkt', number: '001', term: 'current', addDropDays: 12 },
} satisfies Record<string, SectionSpec>;

export type SectionKey = keyof typeof SECTIONS;

// The course fee each inclusive-access (and student-choice) section bills, in USD cents
// (issue 19): the opting banner's Learn More and dialog show it beside the separate prices.
const COURSE_FEES: Partial<Record<SectionKey, number>> = {
  bio001: 7900,
  bio002: 7900,
  chem001: 9500,
  hist001: 4900,
  psy001: 5900,
  soc001: 6500,
  soc002: 6500,
  nurs001: 11000,
  nurs002: 11000,
  calc001: 8500,
  eng001: 3900,
  eng002: 3900,
  mkt001: 4500,
};

export type DemoSections = Record<
  SectionKey,
  { id: number; name: string; addDropAt: Date; endDate: string; startDate: string }
>;

const DAY_MS = 86_400_000;
const TERMS: Record<Term, { start: number; end: number }> = {
  past: { start: -220, end: -100 },
  current: { start: -35, end: 85 },
  future: { start: 70, end: 190 },
};

const day = (now: Date, days: number): Date => new Date(now.getTime() + days * DAY_MS);
const isoDate = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * 11:59 PM on that day where the course is (the demo's sections keep the default time zone,
 * America/New_York): an add/drop deadline is the end of a day in the course's time zone, as
 * the opting dialog shows it (issue 19), not the time of day the seed ran.
 */
function endOfDay(date: Date, timeZone = 'America/New_York'): Date {
  const at = new Date(`${isoDate(date)}T23:59:00Z`);
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')!.value;
  const [, sign, hours, minutes] = /GMT([+-])(\d{2}):(\d{2})/.exec(name) ?? ['', '+', '00', '00'];
  const offset = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
  return new Date(at.getTime() - offset * 60_000);
}

export async function seedCourses(
  db: Queryable,
  orgs: DemoOrgs,
  people: DemoUsers,
  ctx: { now: Date; baseId: number; productCount: number },
): Promise<DemoSections> {
  const { now, baseId } = ctx;
  await db
    .insert(departments)
    .values(DEPARTMENTS.map(({ org, ...d }) => ({ ...d, orgId: orgs[org] })));
  const courseKeys = Object.keys(COURSES) as CourseKey[];
  const courseRows = await db
    .insert(courses)
    .values(
      courseKeys.map((key) => {
        const c: CourseSpec = COURSES[key];
        return {
          orgId: orgs[c.org],
          name: c.name,
          department: c.department,
          number: c.number,
          courseType: c.courseType,
        };
      }),
    )
    .returning({ id: courses.id });
  const courseId = new Map(courseKeys.map((key, i) => [key, courseRows[i]!.id]));

  const sectionKeys = Object.keys(SECTIONS) as SectionKey[];
  const specs: SectionSpec[] = sectionKeys.map((key) => SECTIONS[key]);

  // Issue 39: each campus's past, current and next term, as its student-information system
  // names them ('Fall 2026'), so the term dashboard and billing have a term to show.
  const termKeys = Object.keys(TERMS) as Term[];
  const termOrgs = [...new Set(specs.map((spec) => COURSES[spec.course].org))];
  const termValues = termOrgs.flatMap((org) =>
    termKeys.map((key) => {
      const startDate = isoDate(day(now, TERMS[key].start));
      const named = academicTermOf(startDate);
      const season = { 'winter-spring': 'Spring', summer: 'Summer', fall: 'Fall' }[named.season];
      return {
        org,
        key,
        row: {
          orgId: orgs[org],
          sourcedId: `demo-term-${key}`,
          title: `${season} ${named.year}`,
          termType: 'semester',
          startDate,
          endDate: isoDate(day(now, TERMS[key].end)),
        },
      };
    }),
  );
  const termRows = await db
    .insert(academicTerms)
    .values(termValues.map((t) => t.row))
    .returning({ id: academicTerms.id });
  const termIdOf = new Map(termValues.map((t, i) => [`${t.org}:${t.key}`, termRows[i]!.id]));

  const sectionValues = specs.map((s, i) => {
    const courseFeeCents = COURSE_FEES[sectionKeys[i]!] ?? null;
    const term = TERMS[s.term];
    const start = day(now, term.start);
    const addDropAt = endOfDay(day(now, s.addDropDays ?? term.start + 14));
    return {
      courseId: courseId.get(s.course)!,
      name: COURSES[s.course].name,
      number: s.number,
      rsCourseId: `RSC-${100_001 + i}`,
      startDate: isoDate(start),
      endDate: isoDate(day(now, term.end)),
      addDropAt,
      optingMethod: s.optingMethod ?? 'opt-out',
      disableAutoProvisioning: s.disableAutoProvisioning ?? false,
      sectionCode: s.sectionCode ?? null,
      courseFeeCents,
      termId: termIdOf.get(`${COURSES[s.course].org}:${s.term}`) ?? null,
    };
  });
  const sectionRows = await db
    .insert(courseSections)
    .values(sectionValues)
    .returning({ id: courseSections.id });
  const sections = Object.fromEntries(
    sectionKeys.map((key, i) => {
      const v = sectionValues[i]!;
      return [
        key,
        {
          id: sectionRows[i]!.id,
          name: v.name,
          addDropAt: v.addDropAt,
          startDate: v.startDate,
          endDate: v.endDate,
        },
      ];
    }),
  ) as DemoSections;

  // Members ---------------------------------------------------------------------------------
  const r = createRandom(0x5eed_0002);
  type Member = typeof sectionMembers.$inferInsert;
  type Role = 'professor' | 'teaching_assistant' | 'student';
  const members: Omit<Member, 'rsCoursememberId'>[] = [];
  const member = (key: SectionKey, userId: number, role: Role, extra: Partial<Member> = {}) => {
    members.push({
      sectionId: sections[key].id,
      userId,
      role,
      optStatus: 'opted_in',
      addDropDate: sections[key].addDropAt,
      ...extra,
    });
  };

  // The demo accounts (README): the student is opted in where the deadline is still open and
  // opted out of chemistry, whose deadline is open too so opting back in can be tried.
  member('bio001', people.instructor, 'professor');
  member('bio001', people.ta, 'teaching_assistant');
  // A course-fee member: bio001's materials open 'Reading Option' instead of the cart.
  member('bio001', people.student, 'student', { optStatus: 'opted_in', isCourseFee: true });
  member('chem001', people.instructor, 'professor');
  member('chem001', people.ta, 'teaching_assistant');
  member('chem001', people.student, 'student', { optStatus: 'opted_out' });
  member('hist001', people.instructor, 'professor');
  member('hist001', people.student, 'student');
  member('psy001', people.student, 'student');
  member('cs001', people.instructor, 'professor', { isClassroomInstructor: true });
  member('cs001', people.student, 'student');
  member('econ001', people.instructor, 'professor');
  member('bio001', people.newEula, 'student');

  const taken = new Set(members.map((m) => `${m.sectionId}:${m.userId}`));
  for (const key of sectionKeys) {
    const spec: SectionSpec = SECTIONS[key];
    const course: CourseSpec = COURSES[spec.course];
    const orgId = orgs[course.org];
    const sectionId = sections[key].id;
    const add = (userId: number, role: Role, extra: Partial<Member> = {}) => {
      const id = `${sectionId}:${userId}`;
      if (taken.has(id)) return;
      taken.add(id);
      member(key, userId, role, extra);
    };
    const faculty = people.instructors.filter((p) => p.orgId === orgId);
    const pool = faculty.length > 0 ? faculty : people.instructors;
    if (!members.some((m) => m.sectionId === sectionId && m.role === 'professor')) {
      add(r.pick(pool).id, 'professor');
    }
    if (r.chance(0.5)) add(r.pick(people.instructors).id, 'teaching_assistant');
    const classmates = r.shuffle(people.students.filter((p) => p.orgId === orgId));
    const count = Math.min(classmates.length, r.int(6, 12));
    const courseFee =
      course.courseType === 'inclusive_access' || course.courseType === 'student_choice';
    // Only an opt-out section lets a student opt out (a no-opt section keeps everyone in); the
    // draw is made either way so the rest of the demo stays as it was.
    const canOpt = (spec.optingMethod ?? 'opt-out') === 'opt-out';
    for (const mate of classmates.slice(0, count)) {
      const optsOut = !r.chance(0.75);
      add(mate.id, 'student', {
        optStatus: optsOut && canOpt ? 'opted_out' : 'opted_in',
        canUpdateOptStatus: r.chance(0.9),
        isCourseFee: courseFee && r.chance(0.2),
      });
    }
  }
  const memberRows = await db
    .insert(sectionMembers)
    .values(members.map((m, i) => ({ ...m, rsCoursememberId: `RSM-${200_001 + i}` })))
    .returning({ id: sectionMembers.id });
  // Issue 39: every opt-out of the demo is the student's own change, made on a day before their
  // deadline (and before now), so the term dashboard's chart of opting events says what its
  // table of members says. Opted in is the default and needs no event.
  const days = createRandom(0x5eed_0003);
  const optOuts = members.flatMap((m, i): (typeof optChanges.$inferInsert)[] => {
    if (m.role !== 'student' || m.optStatus !== 'opted_out') return [];
    const latest = Math.min(m.addDropDate.getTime(), now.getTime()) - 60 * 60_000;
    return [
      {
        memberId: memberRows[i]!.id,
        actorUserId: m.userId,
        fromStatus: 'opted_in',
        toStatus: 'opted_out',
        changedAt: new Date(latest - days.int(0, 21 * 24 * 60) * 60_000),
      },
    ];
  });
  if (optOuts.length > 0) await db.insert(optChanges).values(optOuts);
  // Issue 20: a place kept for a student with no account yet; whoever signs up with this
  // address and confirms it finds the section on their shelf.
  await db.insert(sectionInvitations).values({
    sectionId: sections.chem001.id,
    email: 'new.student@demo.test',
    role: 'student',
    addDropDate: sections.chem001.addDropAt,
  });
  // Issue 20: and one in the retailer's ENG 101, which its bookstore manager sees (and can
  // remove, or add to) at /manage/sections/{id}/places.
  await db.insert(sectionInvitations).values({
    sectionId: sections.eng001.id,
    email: 'new.writer@demo.test',
    role: 'student',
    addDropDate: sections.eng001.addDropAt,
  });

  // Materials -------------------------------------------------------------------------------
  const id = (index: number): number => baseId + index;
  const materials: (typeof sectionProducts.$inferInsert)[] = [];
  const randomPool = candidateMaterials(ctx.productCount);
  for (const key of sectionKeys) {
    const spec: SectionSpec = SECTIONS[key];
    const sectionId = sections[key].id;
    const chosen = new Set<number>();
    const push = (index: number, extra: Partial<typeof sectionProducts.$inferInsert> = {}) => {
      if (chosen.has(index)) return;
      chosen.add(index);
      const courseware = planOf(index).type === 'courseware';
      materials.push({
        sectionId,
        productId: id(index),
        position: chosen.size - 1,
        ...(courseware
          ? {
              ltiPassthrough: r.chance(0.5) ? 0 : 2,
              isLinkEnabled: true,
              showRedeem: r.chance(0.5),
              shouldHideCode: r.chance(0.2),
              coursewarePricingId: `CWP-${id(index)}`,
            }
          : {}),
        ...extra,
      });
    };
    for (const m of spec.materials ?? []) {
      const extra: Partial<typeof sectionProducts.$inferInsert> = {};
      if (m.additional) {
        extra.additionalProductId = id(FIXTURE_INDEX[m.additional]);
        extra.isPhysicalDigitalChoice = true;
      }
      if (m.lti !== undefined) extra.ltiPassthrough = m.lti;
      if (m.optional) extra.isRequired = false;
      push(FIXTURE_INDEX[m.product], extra);
    }
    if (!spec.materials && randomPool.length > 0) {
      const count = r.int(1, 3);
      // The third material of a section, when there is one, is a recommended extra.
      for (let i = 0; i < count; i++) push(r.pick(randomPool), { isRequired: i < 2 });
    }
  }
  // Each adoption adds to the product's counter, on top of the seeded history (migration 0011).
  await db.insert(sectionProducts).values(materials);

  // Issue 39: the campus knows its students by a student number (the bursar's charge file).
  const enrolled = [...new Set(members.filter((m) => m.role === 'student').map((m) => m.userId))];
  const orgOfUser = new Map(
    [...people.students, ...people.instructors].map((p) => [p.id, p.orgId] as const),
  );
  orgOfUser.set(people.student, orgs.campus);
  const numbered = enrolled.filter((userId) => orgOfUser.has(userId));
  if (numbered.length > 0) {
    await db.insert(campusPeople).values(
      numbered.map((userId) => ({
        orgId: orgOfUser.get(userId)!,
        userId,
        campusId: `S${String(1_000_000 + userId).slice(1)}`,
      })),
    );
  }

  return sections;
}

/** Sellable books and courseware among the first products, for sections without fixtures. */
function candidateMaterials(productCount: number): number[] {
  const out: number[] = [];
  for (let index = FIXTURE_COUNT + 1; index <= Math.min(productCount, 600); index++) {
    const plan = planOf(index);
    const material =
      (plan.type === 'book' && plan.kind !== 'code_only') || plan.type === 'courseware';
    if (material && isPlainlySellable(plan)) out.push(index);
  }
  return out;
}
