import { downloadMyData } from '#domain/accounts/privacy.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { attachment } from '#web/utils/attachment.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/privacy-export.ts';

// GET /account/privacy/export/{token} (issue 20, "Download my data"): the mailed link, opened
// while signed in as the account that asked for it, answers the JSON file once. Another
// account's, a used, an expired or a malformed link is the site's error page saying which.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  requireUser(request, context);
  const mine = await downloadMyData(context.rc, params.token);
  return attachment(`${JSON.stringify(mine, null, 2)}\n`, {
    filename: `shelfmark-data-${mine.exportedAt.slice(0, 10)}.json`,
    contentType: 'application/json; charset=utf-8',
  });
});

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
