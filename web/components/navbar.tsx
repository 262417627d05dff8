import { lazy } from 'react';
import { Link, useLocation } from 'react-router';
import { useCartCount } from '#web/commerce/cart-count.ts';
import { useT } from '#web/i18n/use-t.ts';
import { useShellData } from '#web/shell/shell-data.ts';
import { hydratedOnDemand } from '#web/utils/hydrated-on-demand.tsx';
import { Logo } from './logo.tsx';
import { NavbarActions } from './navbar-actions.tsx';
import { PersonalSlot } from './personal-slot.tsx';
import { SearchBox } from './search-box.tsx';

// White labels' only: the main site's pages do not carry its code (hydrated-on-demand.tsx).
const LabelCategoryNav = hydratedOnDemand(
  import.meta.env.SSR
    ? (await import('./label-category-nav.tsx')).LabelCategoryNav
    : lazy(() =>
        import('./label-category-nav.tsx').then((module) => ({ default: module.LabelCategoryNav })),
      ),
);

// spec 1 §2 Navbar: logo to /, search when ecommerce is shown, then the cart, Help and account
// items (navbar-actions.tsx), which a logged-in page composed from a stored one gets from the
// server's splice (decision 043).
export function Navbar() {
  // The root's data, or on an error page without it the main site's (shell-data.ts).
  const root = useShellData();
  // The item count is asked after hydration (issue 19), and a composed page's account shows
  // after it (decision 043), so their words come with the page.
  const t = useT(['nav.cart.count', 'nav.username']);
  const location = useLocation();
  const cartCount = useCartCount(root?.site.showCart ?? false);
  if (!root) return null;
  const { site, user } = root;
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
        <PersonalSlot as="ul" name="navbar" className="navbar__actions">
          <NavbarActions
            site={site}
            user={user}
            cartCount={cartCount}
            next={location.pathname + location.search}
            t={t}
          />
        </PersonalSlot>
      </nav>
      {site.isWhiteLabel && site.showSearch ? <LabelCategoryNav /> : null}
    </header>
  );
}
