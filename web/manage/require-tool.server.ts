import { data } from 'react-router';
import { canOpenMenuItem, type MenuItemId } from '#domain/accounts/navigation.ts';
import { navigationFlags } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { type OrgScope, orgScopeOf } from '#domain/operations/staff-scope.ts';
import type { WebContext } from '#server/load-context.ts';
import { requireUser } from '#web/utils/require-user.server.ts';

/**
 * Issue 39: a campus tool's page opens for exactly the people its menu item shows to
 * (`canOpenMenuItem`, one rule for the item and the page): anonymous visitors go to the login
 * page, everyone else to the forbidden page. Returns the user and the organisations they may see.
 */
export function requireTool(
  request: Request,
  context: WebContext,
  ...items: MenuItemId[]
): { user: SessionUser; scope: OrgScope } {
  const user = requireUser(request, context);
  const flags = navigationFlags(user, context.rc.site);
  if (!items.some((item) => canOpenMenuItem(flags, item))) throw data(null, { status: 403 });
  return { user, scope: orgScopeOf(user) };
}
