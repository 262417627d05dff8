// Demo accounts (README, "Demo accounts") and the generated students and instructors who fill
// the demo courses.
import type { Queryable } from '#db/client.ts';
import { accountFlags, userRoles, users } from '#db/schema/accounts.ts';
import { createRandom } from './content/random.ts';
import { firstNames, lastNames } from './content/words.ts';
import type { DemoOrgs } from './sites.ts';

export const DEMO_PASSWORD = 'shelfmark-demo';
export const DEMO_REDEEM_CODE = 'SHELF-DEMO-2026';

export const DEMO_ACCOUNTS: readonly { email: string; role: string; description: string }[] = [
  {
    email: 'student@demo.test',
    role: 'student',
    description: `Student: opted in to a current inclusive-access section (opt-out deadline still open), opted out of another, one past and one future section; owns a book, a PDF, courseware and a classroom; has the access code \`${DEMO_REDEEM_CODE}\` to redeem`,
  },
  {
    email: 'instructor@demo.test',
    role: 'professor',
    description: "Professor of the student's section, classroom instructor",
  },
  { email: 'ta@demo.test', role: 'teaching_assistant', description: 'Teaching assistant' },
  {
    email: 'bookstore@demo.test',
    role: 'bookstore_manager',
    description:
      'Bookstore manager of the retailer organisation: downloads who is opted in or out of its sections at `/manage/sections/{id}/opt-status.csv`; puts students in them by e-mail at `/manage/sections/{id}/places` (Manage section places, on the section of Find your course materials)',
  },
  {
    email: 'manager@demo.test',
    role: 'manager',
    description: "Manager: every manage tool, may impersonate, downloads any section's opt status",
  },
  {
    email: 'neweula@demo.test',
    role: 'student',
    description: 'A student who has not accepted the EULA yet',
  },
  {
    email: 'coursemanager@demo.test',
    role: 'course_manager',
    description:
      "Course manager of the bookstore's organisation (Riverbend): Course Manager and My Users for its own campus only",
  },
  {
    email: 'lakeshore@demo.test',
    role: 'bookstore_manager',
    description:
      'Bookstore manager of a second campus (Lakeshore Community College): the same tools as `bookstore@demo.test`, for Lakeshore only; never sees Riverbend',
  },
  {
    email: 'support@demo.test',
    role: 'support',
    description:
      'Store support (help desk): My Users for every organisation, refunds an order line; cannot grant roles or switch accounts',
  },
];

export type DemoUsers = {
  student: number;
  instructor: number;
  ta: number;
  bookstore: number;
  manager: number;
  newEula: number;
  /** Issue 39: campus staff. */
  courseManager: number;
  lakeshore: number;
  support: number;
  /** Generated students, each with their organisation. */
  students: { id: number; orgId: number }[];
  /** Generated instructors, each with their organisation. */
  instructors: { id: number; orgId: number }[];
};

const GENERATED_STUDENTS = 40;
const GENERATED_INSTRUCTORS = 6;
const DAY_MS = 86_400_000;

const asciiLower = (s: string): string =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

export async function seedAccounts(
  db: Queryable,
  orgs: DemoOrgs,
  passwordHash: string,
  now: Date,
): Promise<DemoUsers> {
  const accepted = { mustAcceptEula: false, eulaAcceptedAt: new Date(now.getTime() - 30 * DAY_MS) };
  const createdAt = new Date(now.getTime() - 60 * DAY_MS);
  const demo = await db
    .insert(users)
    .values(
      [
        { email: 'student@demo.test', firstName: 'Maya', lastName: 'Okafor', orgId: orgs.campus },
        {
          email: 'instructor@demo.test',
          firstName: 'Daniel',
          lastName: 'Reyes',
          orgId: orgs.campus,
        },
        { email: 'ta@demo.test', firstName: 'Priya', lastName: 'Natarajan', orgId: orgs.campus },
        {
          email: 'bookstore@demo.test',
          firstName: 'Jordan',
          lastName: 'Miller',
          orgId: orgs.retailer,
        },
        { email: 'manager@demo.test', firstName: 'Alex', lastName: 'Morgan', orgId: orgs.campus },
      ].map((u) => ({ ...u, passwordHash, createdAt, emailVerifiedAt: createdAt, ...accepted })),
    )
    .returning({ id: users.id });
  const [student, instructor, ta, bookstore, manager] = demo.map((u) => u.id) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const [eula] = await db
    .insert(users)
    .values({
      email: 'neweula@demo.test',
      firstName: 'Sam',
      lastName: 'Taylor',
      orgId: orgs.campus,
      passwordHash,
      createdAt,
      mustAcceptEula: true,
    })
    .returning({ id: users.id });
  // Issue 39: the people who run an inclusive-access programme, at two campuses, and support.
  const staff = await db
    .insert(users)
    .values(
      [
        {
          email: 'coursemanager@demo.test',
          firstName: 'Riley',
          lastName: 'Chen',
          orgId: orgs.retailer,
        },
        {
          email: 'lakeshore@demo.test',
          firstName: 'Émilie',
          lastName: 'Gagnon',
          orgId: orgs.cds,
        },
        { email: 'support@demo.test', firstName: 'Sam', lastName: 'Rivera', orgId: null },
      ].map((u) => ({ ...u, passwordHash, createdAt, emailVerifiedAt: createdAt, ...accepted })),
    )
    .returning({ id: users.id });
  const [courseManager, lakeshore, support] = staff.map((u) => u.id) as [number, number, number];

  // Generated people share the demo password hash, so any of them can be logged in as too.
  const r = createRandom(0x5eed_0001);
  const orgCycle = [orgs.campus, orgs.campus, orgs.cds, orgs.retailer];
  const generated = Array.from({ length: GENERATED_STUDENTS + GENERATED_INSTRUCTORS }, (_, i) => {
    const firstName = r.pick(firstNames);
    const lastName = r.pick(lastNames);
    const instructorRow = i >= GENERATED_STUDENTS;
    const domain = instructorRow ? 'faculty.demo.test' : 'students.demo.test';
    return {
      email: `${asciiLower(firstName)}.${asciiLower(lastName)}${i + 1}@${domain}`,
      firstName,
      lastName,
      orgId: orgCycle[i % orgCycle.length]!,
      passwordHash,
      createdAt,
      ...accepted,
    };
  });
  const generatedRows = await db
    .insert(users)
    .values(generated)
    .returning({ id: users.id, orgId: users.orgId });
  const people = generatedRows.map((u) => ({ id: u.id, orgId: u.orgId! }));

  const all = [
    ...demo.map((u) => u.id),
    eula!.id,
    ...staff.map((u) => u.id),
    ...people.map((p) => p.id),
  ];
  // Every user has a flags row; My Shelf is on by default.
  await db.insert(accountFlags).values(
    all.map((userId) => {
      // A campus bookstore manager runs the campus's programme: courses, rosters, its people.
      if (userId === bookstore || userId === lakeshore) {
        return {
          userId,
          hasAccessToBsmProductRequests: true,
          isCourseManagerEnabled: true,
          hasAccessToMyUsers: true,
        };
      }
      if (userId === courseManager) {
        return { userId, isCourseManagerEnabled: true, hasAccessToMyUsers: true };
      }
      if (userId === support) return { userId, hasAccessToMyUsers: true };
      if (userId === manager) {
        return {
          userId,
          canImpersonate: true,
          isPostingEnabled: true,
          hasAccessToCampusTools: true,
          isCourseManagerEnabled: true,
          isAnalyticsEnabled: true,
          hasAccessToClaimCodeChecker: true,
          hasAccessToMyUsers: true,
          isSamplesEnabled: true,
        };
      }
      return { userId };
    }),
  );
  await db.insert(userRoles).values([
    { userId: bookstore, role: 'bookstore_manager' },
    { userId: manager, role: 'manager' },
    { userId: lakeshore, role: 'bookstore_manager' },
    { userId: support, role: 'support' },
  ]);

  return {
    student,
    instructor,
    ta,
    bookstore,
    manager,
    newEula: eula!.id,
    courseManager,
    lakeshore,
    support,
    students: people.slice(0, GENERATED_STUDENTS),
    instructors: people.slice(GENERATED_STUDENTS),
  };
}
