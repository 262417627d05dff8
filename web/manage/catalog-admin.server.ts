import { data } from 'react-router';
import { canOpenMenuItem } from '#domain/accounts/navigation.ts';
import { navigationFlags } from '#domain/accounts/service.ts';
import type { ImportSummary } from '#domain/catalog/catalog-import.ts';
import type { WebContext } from '#server/load-context.ts';
import { requireUser } from '#web/utils/require-user.server.ts';

/**
 * The Admin page's door (issue 15): whoever the user menu shows 'Admin' to, by the same rule
 * (spec 1 §2 user menu groups), and nobody else.
 */
export function requireCatalogAdmin(request: Request, context: WebContext) {
  const user = requireUser(request, context);
  if (!canOpenMenuItem(navigationFlags(user, context.rc.site), 'admin')) {
    throw data(null, { status: 403 });
  }
  return user;
}

/** An import as a page shows it: dates as ISO strings. */
export function serializable(summary: ImportSummary) {
  return {
    ...summary,
    startedAt: summary.startedAt.toISOString(),
    finishedAt: summary.finishedAt?.toISOString() ?? null,
  };
}
