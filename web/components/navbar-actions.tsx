import { Link } from 'react-router';
import type { MessageParams } from '#i18n/format-message.ts';
import type { RootData } from '#web/root-data.ts';
import { UserMenu } from './user-menu.tsx';

type Translate = (id: string, params?: MessageParams) => string;

/**
 * The navbar's cart, Help and account items (spec 1 §2 Navbar: the cart for the retailer org,
 * Help in a new tab, Log In or the user dropdown). Plain props and no router data, so that the
 * server can also render it alone for a logged-in page composed from a stored anonymous one
 * (web/shell/navbar-fragment.server.tsx, decision 043).
 */
export function NavbarActions({
  site,
  user,
  cartCount,
  next,
  t,
}: {
  site: Pick<RootData['site'], 'showCart' | 'links'>;
  user: RootData['user'];
  cartCount: number | null;
  /** Where Log In comes back to. */
  next: string;
  t: Translate;
}) {
  return (
    <>
      {site.showCart ? (
        <li>
          <Link
            to="/cart/"
            className="button button--ghost"
            aria-label={cartCount === null ? undefined : t('nav.cart.count', { count: cartCount })}
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
          <UserMenu name={user.firstName.trim() || t('nav.username')} groups={user.menu} />
        ) : (
          <Link
            to={`/accounts/login/?next=${encodeURIComponent(next)}`}
            className="button button--primary"
          >
            {t('nav.login')}
          </Link>
        )}
      </li>
    </>
  );
}
