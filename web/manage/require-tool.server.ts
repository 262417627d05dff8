import { data } from 'react-router';
import { canOpenMenuItem, type MenuItemId, menuItemForPath } from '#domain/accounts/navigation.ts';
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
  if (!toolItems(request, items).some((item) => canOpenMenuItem(flags, item))) {
    throw data(null, { status: 403 });
  }
  return { user, scope: orgScopeOf(user) };
}

/**
 * The items a page answers to. A page shared by two tools (a section page, reached from Course
 * Manager and from Course Admin) opens for either; but a tool's own entry page — the path its
 * menu item links to — opens only for that item's people: /manage/course-admin is not Course
 * Manager's page for those whose menu shows Course Manager only.
 */
function toolItems(request: Request, items: readonly MenuItemId[]): readonly MenuItemId[] {
  const path = new URL(request.url).pathname.replace(/\.data$/, '').replace(/\/$/, '');
  const own = menuItemForPath(path);
  return own !== null && items.includes(own) ? [own] : items;
}
