import type { AppLoadContext } from 'react-router';
import { eulaRedirect } from '#domain/accounts/eula.ts';
import { userMenuGroups } from '#domain/accounts/navigation.ts';
import { navigationFlags } from '#domain/accounts/service.ts';
import { showNavbarCart } from '#domain/sites/site-rules.ts';
import type { RootPersonal } from '#web/utils/personal-part.ts';

/**
 * Where the visitor must go before any page (the licence agreement), or null. The root loader
 * throws it; a page composed from a stored one is not composed then (decision 043).
 */
export function rootRedirect(context: AppLoadContext, url: URL): string | null {
  const { rc } = context;
  return eulaRedirect({
    loggedIn: !!rc.user,
    mustAcceptEula: rc.user?.mustAcceptEula ?? false,
    siteExempt: rc.site.eulaExempt,
    pathAndQuery: url.pathname + url.search,
  });
}

/**
 * What the shell shows of the visitor (spec 1 §2 Navbar: the user dropdown, the cart for the
 * retailer org), and their form token: the root loader's personal facts, decided here once for
 * the loader and for a page composed from a stored one (decision 043).
 */
export function rootPersonal(context: AppLoadContext): RootPersonal {
  const { rc } = context;
  return {
    // Anonymous pages are shared (page cache): they get no token of their own, see csrf-token.ts.
    csrfToken: rc.user ? context.csrfToken : null,
    showCart: showNavbarCart(rc.site.org ?? rc.user?.org ?? null),
    user: rc.user
      ? {
          firstName: rc.user.firstName,
          timeZone: rc.user.timeZone,
          menu: userMenuGroups(navigationFlags(rc.user, rc.site)),
          actingAs: rc.user.isImpersonating
            ? `${rc.user.firstName} ${rc.user.lastName}`.trim() || rc.user.email
            : null,
        }
      : null,
  };
}
