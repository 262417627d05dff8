import { data } from 'react-router';
import { OPT_STATUS_COLUMNS, optStatusCsv } from '#domain/courses/opt-status-csv.ts';
import { sectionOptStatus } from '#domain/courses/service.ts';
import { parseId } from '#domain/shared/id.ts';
import { translate } from '#i18n/translate.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { attachment } from '#web/utils/attachment.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/opt-status-csv.ts';

// GET /manage/sections/{id}/opt-status.csv (issue 6): who in a section is opted in or out,
// with the reason of their latest change, for bookstore managers and managers. A page route
// that answers a file (web/utils/attachment.server.ts), so that its failures are pages.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  requireUser(request, context);
  const sectionId = parseId(params.sectionId);
  if (sectionId === null) throw data(null, { status: 404 });
  const { rc } = context;
  const { rsCourseId, entries } = await sectionOptStatus(rc, sectionId);
  const t = (id: string) => translate(rc.locale, id);
  const csv = optStatusCsv(
    OPT_STATUS_COLUMNS.map((column) => t(`optStatus.csv.${column}`)),
    entries.map((entry) => ({
      memberId: entry.rsCoursememberId,
      lastName: entry.lastName,
      firstName: entry.firstName,
      email: entry.email,
      optStatus: t(`optStatus.${entry.optStatus}`),
      reason: entry.reason === null ? '' : t(`opting.reason.${entry.reason}`),
      message: entry.message ?? '',
      changedAt: entry.changedAt?.toISOString() ?? '',
      changedBy: entry.changedBy ?? '',
    })),
  );
  // The byte order mark lets spreadsheets read the names as UTF-8.
  return attachment(`\uFEFF${csv}`, {
    filename: `opt-status-${rsCourseId}.csv`,
    contentType: 'text/csv; charset=utf-8',
  });
});

// A forbidden or unknown section is the site's error page, in the visitor's language.
export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
