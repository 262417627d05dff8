import { billingRunFile } from '#domain/operations/billing/billing-service.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { attachment } from '#web/utils/attachment.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/billing-run-file.ts';
import { pathId } from './path-id.ts';

// GET /manage/billing/runs/{id}/file.csv (issue 39): a run's charge file, the bytes stored when
// it was made (never rebuilt). A page route answering a file, so that a refusal is a page.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { scope } = requireTool(request, context, 'courseManager', 'courseAdmin');
  const file = await billingRunFile(context.rc, scope, pathId(params.runId));
  return attachment(file.fileText, {
    filename: file.fileName,
    contentType: 'text/csv; charset=utf-8',
  });
});

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
