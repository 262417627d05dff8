import { eq } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { courseSections, courses } from '#db/schema/courses.ts';
import { sectionInvitations } from '#db/schema/section-invitations.ts';
import { organizations } from '#db/schema/sites.ts';
import { isLocale, type Locale } from '#domain/accounts/language.ts';
import { sectionTitle } from '#domain/shelf/sections.ts';
import { translate } from '#i18n/translate.ts';
import type { Email } from './order-email.ts';

/** Issue 20: the outbox kind of the mail to an address a bookstore kept a place for. */
export const SECTION_PLACE_KIND = 'section-place';

/**
 * Issue 20: "A place is kept for you in <course>; create your account with this address to
 * find it on your shelf." Said in the language of the page the bookstore kept the place from
 * (the address has no account to tell its own). Null when the place is gone or already taken.
 */
export async function sectionPlaceEmail(
  db: Queryable,
  payload: { placeId: unknown; locale: unknown },
  publicOrigin: string,
): Promise<Email | null> {
  const placeId = Number(payload.placeId);
  if (!Number.isSafeInteger(placeId)) return null;
  const [row] = await db
    .select({
      email: sectionInvitations.email,
      claimedAt: sectionInvitations.claimedAt,
      sectionNumber: courseSections.number,
      department: courses.department,
      courseNumber: courses.number,
      courseCode: courses.code,
      courseName: courses.name,
      orgTitle: organizations.title,
    })
    .from(sectionInvitations)
    .innerJoin(courseSections, eq(courseSections.id, sectionInvitations.sectionId))
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .innerJoin(organizations, eq(organizations.id, courses.orgId))
    .where(eq(sectionInvitations.id, placeId))
    .limit(1);
  if (!row || row.claimedAt !== null) return null;
  const locale: Locale =
    typeof payload.locale === 'string' && isLocale(payload.locale) ? payload.locale : 'en';
  const title = sectionTitle({
    department: row.department,
    courseNumber: row.courseNumber,
    courseCode: row.courseCode,
    sectionNumber: row.sectionNumber,
  });
  const course = title.section
    ? translate(locale, 'section.title', { course: title.course, number: title.section })
    : title.course;
  return {
    to: row.email,
    subject: translate(locale, 'email.place.subject', { course }),
    text: [
      translate(locale, 'email.place.hello'),
      '',
      translate(locale, 'email.place.kept', {
        course,
        name: row.courseName,
        org: row.orgTitle,
      }),
      '',
      `${translate(locale, 'email.place.signup')} ${publicOrigin}/accounts/signup/`,
      '',
      translate(locale, 'email.place.haveAccount'),
      '',
      translate(locale, 'email.place.notYou'),
    ].join('\n'),
  };
}
