import { eq } from 'drizzle-orm';
import type { Database } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import {
  academicTerms,
  courseSections,
  courses,
  optChanges,
  sectionMembers,
} from '#db/schema/courses.ts';
import { organizations } from '#db/schema/sites.ts';
import { dayIn } from '#domain/shared/calendar.ts';
import { type MadeUser, makeUser } from './fixture-server.ts';

// Issue 39, the term dashboard's journey: a campus of its own with a term running today, two
// sections and their students (undecided, opted out by themselves, decided), and a bookstore
// manager of that campus made like bookstore@demo.test.

const DAY_MS = 86_400_000;
let made = 0;

export type DashboardCampus = {
  orgId: number;
  title: string;
  term: string;
  manager: MadeUser;
  sections: { bio: number; chem: number };
};

export async function makeDashboardCampus(db: Database): Promise<DashboardCampus> {
  made += 1;
  const tag = `${process.pid}-${made}`;
  const now = Date.now();
  // Days counted from today on the course's clock (New York), as the dashboard counts them:
  // between midnight UTC and midnight in New York the UTC date is a day ahead.
  const day = (offset: number) => dayIn(new Date(now + offset * DAY_MS), 'America/New_York');
  const title = `Dashboard College ${tag}`;
  const [org] = await db
    .insert(organizations)
    .values({ title })
    .returning({ id: organizations.id });
  const orgId = org!.id;
  const term = `Term ${tag}`;
  const [t] = await db
    .insert(academicTerms)
    .values({ orgId, title: term, startDate: day(-30), endDate: day(60) })
    .returning({ id: academicTerms.id });
  const section = async (
    department: string,
    courseType: string,
    fee: number | null,
    deadlineDays: number,
  ) => {
    const [course] = await db
      .insert(courses)
      .values({ orgId, name: `${department} course`, department, number: '101', courseType })
      .returning({ id: courses.id });
    const [row] = await db
      .insert(courseSections)
      .values({
        courseId: course!.id,
        name: `${department} 101 - 001`,
        number: '001',
        rsCourseId: `DASH-${department}-${tag}`,
        startDate: day(-20),
        endDate: day(50),
        // 16:00 UTC is late morning in New York: the deadline falls on that day there.
        addDropAt: new Date(Date.parse(`${day(deadlineDays)}T16:00:00Z`)),
        timeZone: 'America/New_York',
        courseFeeCents: fee,
        termId: t!.id,
      })
      .returning({ id: courseSections.id, addDropAt: courseSections.addDropAt });
    return row!;
  };
  const bio = await section('BIO', 'inclusive_access', 7900, 5);
  const chem = await section('CHEM', 'cds', 5000, -3);
  let student = 0;
  const enrol = async (
    s: { id: number; addDropAt: Date },
    optStatus: 'opted_in' | 'opted_out',
    changes: ('opted_out' | 'opted_in')[] = [],
  ) => {
    student += 1;
    const [user] = await db
      .insert(users)
      .values({
        email: `dash-${tag}-${student}@students.e2e.test`,
        firstName: 'Student',
        lastName: `No ${student}`,
      })
      .returning({ id: users.id });
    const [member] = await db
      .insert(sectionMembers)
      .values({
        sectionId: s.id,
        userId: user!.id,
        role: 'student',
        optStatus,
        addDropDate: s.addDropAt,
        rsCoursememberId: `DASH-${tag}-${student}`,
      })
      .returning({ id: sectionMembers.id });
    for (const [i, to] of changes.entries()) {
      await db.insert(optChanges).values({
        memberId: member!.id,
        actorUserId: user!.id,
        fromStatus: to === 'opted_out' ? 'opted_in' : 'opted_out',
        toStatus: to,
        changedAt: new Date(Date.parse(`${day(-10 + i)}T16:00:00Z`)),
      });
    }
  };
  // BIO: three undecided, two opted out by themselves, one who opted out and came back.
  for (let i = 0; i < 3; i += 1) await enrol(bio, 'opted_in');
  for (let i = 0; i < 2; i += 1) await enrol(bio, 'opted_out', ['opted_out']);
  await enrol(bio, 'opted_in', ['opted_out', 'opted_in']);
  // CHEM, deadline passed: two opted in (billed), one opted out.
  for (let i = 0; i < 2; i += 1) await enrol(chem, 'opted_in');
  await enrol(chem, 'opted_out', ['opted_out']);
  const manager = await makeUser(db, { like: 'bookstore', label: 'dashboard' });
  await db.update(users).set({ orgId }).where(eq(users.id, manager.id));
  return { orgId, title, term, manager, sections: { bio: bio.id, chem: chem.id } };
}
