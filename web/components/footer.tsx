import { Link } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';
import { useShellData } from '#web/shell/shell-data.ts';
import { LanguagePicker } from './language-picker.tsx';

// spec 1 §2 Footer: Shop for eBooks, Support, Privacy Notice, Terms of Use, Refund Policy,
// Accessibility, Site map, and the language picker when more than one language is allowed.
export function Footer() {
  // The root's data, or on an error page without it the main site's (shell-data.ts).
  const root = useShellData();
  const t = useT();
  if (!root) return null;
  const { links } = root.site;
  // Keyed by message id, not by text: until the rest of the language's messages arrive a
  // label may be '', and equal keys left links unnamed after they came.
  const items: { id: string; to: string }[] = [
    { id: 'footer.shop', to: '/' },
    { id: 'footer.support', to: links.support },
    { id: 'footer.privacy', to: links.privacy },
    { id: 'footer.terms', to: links.terms },
    { id: 'footer.refund', to: links.refund },
    { id: 'footer.accessibility', to: links.accessibility },
    { id: 'footer.siteMap', to: '/site-map' },
  ];
  if (root.showApiDocs) items.push({ id: 'footer.apiDocs', to: '/docs/index.html' });
  return (
    <footer className="footer">
      <nav aria-label={t('footer.label')}>
        <ul className="footer__links">
          {items.map((item) => (
            <li key={item.id}>
              {item.to.startsWith('/') ? (
                <Link to={item.to}>{t(item.id)}</Link>
              ) : (
                <a href={item.to}>{t(item.id)}</a>
              )}
            </li>
          ))}
        </ul>
      </nav>
      <div className="footer__bottom">
        {root.site.showLanguagePicker ? <LanguagePicker /> : null}
        <p>
          {t('footer.copyright', { year: new Date().getUTCFullYear(), title: root.site.title })}
        </p>
      </div>
    </footer>
  );
}
