import { data } from 'react-router';
import { ROSTER_IMPORT_TOOLS } from '#domain/operations/roster/roster-limits.ts';
import { parseId } from '#domain/shared/id.ts';
import { translate } from '#i18n/translate.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { attachment } from '#web/utils/attachment.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/roster-report-csv.ts';
import { rosterImportReport, rosterReportCsv } from './roster.server.ts';

// GET /manage/roster-imports/:importId/report.csv (issue 39): every refused or ignored row of an
// import, with file, line, sourcedId and reason, in the reader's language; scoped as its page.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { scope } = requireTool(request, context, ...ROSTER_IMPORT_TOOLS);
  const id = parseId(params.importId);
  if (id === null) throw data(null, { status: 404 });
  if (!(await rosterImportReport(context.rc.db, scope, id))) throw data(null, { status: 404 });
  const t = (key: string, values?: Record<string, string | number>) =>
    translate(context.rc.locale, key, values);
  const csv = await rosterReportCsv(context.rc.db, id, {
    header: ['file', 'line', 'sourcedId', t('ops.roster.lines.kind'), t('ops.roster.lines.reason')],
    kind: (kind) => t(`ops.roster.lineKind.${kind}`),
    reason: t,
  });
  return attachment(`\uFEFF${csv}`, {
    filename: `roster-import-${id}-report.csv`,
    contentType: 'text/csv; charset=utf-8',
  });
});

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
