import { Link } from 'react-router';
import { useRootData, useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/site-map.ts';

export default function SiteMapPage() {
  const t = useT();
  const root = useRootData();
  const links = root?.site.links;
  const sections: { heading: string; items: { label: string; to: string }[] }[] = [
    {
      heading: t('siteMap.shop'),
      items: [
        { label: t('footer.shop'), to: '/' },
        ...(root?.site.isWhiteLabel ? [] : [{ label: t('siteMap.browse'), to: '/browse/all' }]),
        { label: t('siteMap.search'), to: '/search' },
        ...(root?.site.showCart ? [{ label: t('siteMap.cart'), to: '/cart/' }] : []),
      ],
    },
    {
      heading: t('siteMap.account'),
      items: [
        { label: t('menu.myShelf'), to: '/shelf' },
        { label: t('menu.myAccount'), to: '/account' },
        { label: t('library.title'), to: '/library/' },
        root?.user
          ? { label: t('nav.logout'), to: '/accounts/logout/' }
          : { label: t('nav.login'), to: '/accounts/login/' },
      ],
    },
    {
      heading: t('siteMap.help'),
      items: [
        { label: t('footer.support'), to: links?.support ?? '/support' },
        { label: t('nav.help'), to: links?.help ?? '/help' },
        { label: t('footer.privacy'), to: links?.privacy ?? '/privacy' },
        { label: t('footer.terms'), to: links?.terms ?? '/terms' },
        { label: t('footer.refund'), to: links?.refund ?? '/refund-policy' },
        { label: t('footer.accessibility'), to: links?.accessibility ?? '/accessibility' },
      ],
    },
  ];
  return (
    <section className="stack">
      <h1>{t('siteMap.title')}</h1>
      <div className="site-map">
        {sections.map((section, n) => (
          // Keys that do not depend on the texts: until the rest of the language's messages
          // arrive a label may be '', and equal keys left some links unnamed after they came.
          // biome-ignore lint/suspicious/noArrayIndexKey: the three sections never move
          <section key={n} className="stack">
            <h2>{section.heading}</h2>
            <ul>
              {section.items.map((item, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list (two links may share an address)
                <li key={i}>
                  <Link to={item.to}>{item.label}</Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'siteMap.title');
