import { eq } from 'drizzle-orm';
import type { Database } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { academicTerms, courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { campusPeople } from '#db/schema/operations.ts';

const DAY_MS = 86_400_000;
let made = 0;

/**
 * Issue 39, bursar billing: a term of the journey's own in the organisation of the staff member
 * `email` — BIL <n> section 001 past its opt-out deadline ($79.00 fee) with two opted-in
 * students with campus ids, one opted out and one without a campus id; section 002 still open.
 */
export async function makeBillingTerm(
  db: Database,
  email: string,
): Promise<{ termId: number; title: string; course: string }> {
  const [staff] = await db.select({ orgId: users.orgId }).from(users).where(eq(users.email, email));
  if (!staff?.orgId) throw new Error('no such staff member with an organisation');
  const orgId = staff.orgId;
  made += 1;
  const stamp = `${Date.now().toString(36)}${made}`;
  const title = `Billing term ${stamp}`;
  const course = `BIL ${stamp}`;
  const [term] = await db
    .insert(academicTerms)
    .values({ orgId, title, startDate: '2026-01-05', endDate: '2026-12-20' })
    .returning({ id: academicTerms.id });
  const [row] = await db
    .insert(courses)
    .values({ orgId, name: 'Billing journey', department: 'BIL', number: stamp })
    .returning({ id: courses.id });
  const section = async (number: string, addDropAt: Date) => {
    const [s] = await db
      .insert(courseSections)
      .values({
        courseId: row!.id,
        name: `${course} - ${number}`,
        number,
        rsCourseId: `e2e-billing-${stamp}-${number}`,
        startDate: '2026-01-05',
        endDate: '2026-12-20',
        addDropAt,
        courseFeeCents: 7900,
        termId: term!.id,
        timeZone: 'America/New_York',
      })
      .returning({ id: courseSections.id });
    return { id: s!.id, addDropAt };
  };
  const past = await section('001', new Date(Date.now() - 2 * DAY_MS));
  const open = await section('002', new Date(Date.now() + 20 * DAY_MS));
  const students: [typeof past, string, string | null, 'opted_in' | 'opted_out'][] = [
    [past, 'Zoë', `E2E-${stamp}-A`, 'opted_in'],
    [past, 'Ana', `=E2E-${stamp}-B`, 'opted_in'],
    [past, 'Omar', `E2E-${stamp}-C`, 'opted_out'],
    [past, 'Noid', null, 'opted_in'],
    [open, 'Later', `E2E-${stamp}-D`, 'opted_in'],
  ];
  for (const [i, [s, firstName, campusId, optStatus]] of students.entries()) {
    const [user] = await db
      .insert(users)
      .values({ email: `billing-${stamp}-${i}@e2e.test`, firstName, lastName: 'Student' })
      .returning({ id: users.id });
    if (campusId) await db.insert(campusPeople).values({ orgId, userId: user!.id, campusId });
    await db.insert(sectionMembers).values({
      sectionId: s.id,
      userId: user!.id,
      role: 'student',
      optStatus,
      isCourseFee: true,
      addDropDate: s.addDropAt,
      rsCoursememberId: `e2e-billing-${stamp}-${i}`,
    });
  }
  return { termId: term!.id, title, course };
}
