import { eq } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { courseSections, courses, optChanges, sectionMembers } from '#db/schema/courses.ts';
import { deadlineText } from '#domain/courses/opting.ts';
import { sectionTitle } from '#domain/shelf/sections.ts';
import { translate } from '#i18n/translate.ts';
import { mailLocale } from './mail-locale.ts';
import type { Email } from './order-email.ts';

/**
 * The confirmation of an opt-out or opt-in (issue 19), in the student's language: the course
 * and section, the new status, when it changed and, after an opt-out, until when they can
 * opt back in — times in the course's time zone. Null if the change is gone.
 */
export async function optingConfirmationEmail(
  db: Queryable,
  optChangeId: number,
  publicOrigin: string,
): Promise<Email | null> {
  const [row] = await db
    .select({
      toStatus: optChanges.toStatus,
      changedAt: optChanges.changedAt,
      addDropDate: sectionMembers.addDropDate,
      sectionId: courseSections.id,
      sectionNumber: courseSections.number,
      timeZone: courseSections.timeZone,
      courseName: courses.name,
      department: courses.department,
      courseNumber: courses.number,
      courseCode: courses.code,
      email: users.email,
      firstName: users.firstName,
      languageCode: users.languageCode,
    })
    .from(optChanges)
    .innerJoin(sectionMembers, eq(sectionMembers.id, optChanges.memberId))
    .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .innerJoin(users, eq(users.id, sectionMembers.userId))
    .where(eq(optChanges.id, optChangeId))
    .limit(1);
  if (!row) return null;
  const locale = mailLocale(row.languageCode);
  const title = sectionTitle({
    department: row.department,
    courseNumber: row.courseNumber,
    courseCode: row.courseCode,
    sectionNumber: row.sectionNumber,
  });
  const course = title.section
    ? translate(locale, 'section.title', { course: title.course, number: title.section })
    : title.course;
  const optedOut = row.toStatus === 'opted_out';
  const when = deadlineText(row.changedAt, row.timeZone, locale);
  const deadline = deadlineText(row.addDropDate, row.timeZone, locale);
  const open = row.changedAt.getTime() < row.addDropDate.getTime();
  return {
    to: row.email,
    subject: translate(locale, optedOut ? 'email.opting.subject.out' : 'email.opting.subject.in', {
      course,
    }),
    text: [
      translate(locale, 'email.order.greeting', { name: row.firstName }),
      '',
      translate(locale, optedOut ? 'email.opting.out' : 'email.opting.in', {
        course,
        name: row.courseName,
        date: when,
      }),
      '',
      ...(open
        ? [
            translate(locale, optedOut ? 'email.opting.optBackIn' : 'email.opting.optOutAgain', {
              date: deadline,
            }),
            '',
          ]
        : []),
      `${translate(locale, 'email.opting.link')} ${publicOrigin}/shelf/course-section/${row.sectionId}`,
    ].join('\n'),
  };
}
