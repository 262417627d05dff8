import { lazy } from 'react';
import { Link, useLocation } from 'react-router';
import { useCartCount } from '#web/commerce/cart-count.ts';
import { useT } from '#web/i18n/use-t.ts';
import { useShellData } from '#web/shell/shell-data.ts';
import { hydratedOnDemand } from '#web/utils/hydrated-on-demand.tsx';
import { Logo } from './logo.tsx';
import { SearchBox } from './search-box.tsx';
import { UserMenu } from './user-menu.tsx';

// White labels' only: the main site's pages do not carry its code (hydrated-on-demand.tsx).
const LabelCategoryNav = hydratedOnDemand(
  import.meta.env.SSR
    ? (await import('./label-category-nav.tsx')).LabelCategoryNav
    : lazy(() =>
        import('./label-category-nav.tsx').then((module) => ({ default: module.LabelCategoryNav })),
      ),
);

// spec 1 §2 Navbar: logo to /, search when ecommerce is shown, cart for the retailer org,
// Help in a new tab, Log In or the user dropdown.
export function Navbar() {
  // The root's data, or on an error page without it the main site's (shell-data.ts).
  const root = useShellData();
  // The item count is asked after hydration (issue 19), so its words come with the page.
  const t = useT(['nav.cart.count']);
  const location = useLocation();
  const cartCount = useCartCount(root?.site.showCart ?? false);
  if (!root) return null;
  const { site, user } = root;
  const next = location.pathname + location.search;
  return (
    <header className="navbar">
      <nav aria-label={t('nav.primary')} className="navbar__inner">
        <Link
          to="/"
          className="navbar__logo"
          aria-label={t('site.homeLink', { title: site.title })}
        >
          <Logo title={site.title} src={site.logo} />
        </Link>
        {site.showSearch ? <SearchBox /> : null}
        <ul className="navbar__actions">
          {site.showCart ? (
            <li>
              <Link
                to="/cart/"
                className="button button--ghost"
                aria-label={
                  cartCount === null ? undefined : t('nav.cart.count', { count: cartCount })
                }
              >
                {t('nav.cart')}
                {cartCount ? (
                  <span className="navbar__count" aria-hidden="true">
                    {cartCount}
                  </span>
                ) : null}
              </Link>
            </li>
          ) : null}
          <li>
            <a
              href={site.links.help}
              target="_blank"
              rel="noopener noreferrer"
              className="button button--ghost"
              aria-label={t('nav.help.newTab')}
            >
              {t('nav.help')}
            </a>
          </li>
          <li>
            {user ? (
              <UserMenu firstName={user.firstName} groups={user.menu} />
            ) : (
              <Link
                to={`/accounts/login/?next=${encodeURIComponent(next)}`}
                className="button button--primary"
              >
                {t('nav.login')}
              </Link>
            )}
          </li>
        </ul>
      </nav>
      {site.isWhiteLabel && site.showSearch ? <LabelCategoryNav /> : null}
    </header>
  );
}
