import { data } from 'react-router';
import {
  ANALYTICS_CSV_COLUMNS,
  analyticsCsv,
  analyticsCsvFilename,
} from '#domain/analytics/analytics-csv.ts';
import { sectionAnalytics } from '#domain/reading/section-analytics.ts';
import { parseId } from '#domain/shared/id.ts';
import { sectionTitle } from '#domain/shelf/sections.ts';
import { translate } from '#i18n/translate.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { sectionTitleText } from '#web/shelf/section-title-text.ts';
import { attachment } from '#web/utils/attachment.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/course-analytics-csv.ts';

// GET /courses/analytics/{courseId}/analytics.csv (issue 19: instructors export CSV): each
// student of the section with each of its materials — access and through what (issue 38),
// times opened, last opened —
// for the section's professors and teaching assistants only, as the page is. A page route
// that answers a file (web/utils/attachment.server.ts), so a refusal is the forbidden page.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  requireUser(request, context);
  const sectionId = parseId(params.courseId);
  if (sectionId === null) throw data(null, { status: 404 });
  const { rc } = context;
  const analytics = await sectionAnalytics(rc, sectionId);
  const t = (id: string, values?: Record<string, string | number>) =>
    translate(rc.locale, id, values);
  const titles = new Map(analytics.materials.map((m) => [m.productId, m.title]));
  const csv = analyticsCsv(
    ANALYTICS_CSV_COLUMNS.map((column) => t(`analytics.csv.${column}`)),
    analytics.students.flatMap((student) =>
      student.materials.map((m) => ({
        lastName: student.lastName,
        firstName: student.firstName,
        email: student.email,
        material: titles.get(m.productId) ?? '',
        access: t(m.access ? `analytics.way.${m.access}` : 'analytics.csv.no'),
        opens: String(m.opens),
        lastOpened: m.lastOpenedAt?.toISOString() ?? '',
      })),
    ),
  );
  const { section } = analytics;
  const title = sectionTitleText(
    t,
    sectionTitle({
      department: section.department,
      courseNumber: section.courseNumber,
      courseCode: section.courseCode,
      sectionNumber: section.number,
    }),
  );
  // The byte order mark lets spreadsheets read the names as UTF-8.
  return attachment(`\uFEFF${csv}`, {
    filename: analyticsCsvFilename(title),
    contentType: 'text/csv; charset=utf-8',
  });
});

// A forbidden or unknown section is the site's error page, in the visitor's language.
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
