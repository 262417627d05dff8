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
  const items: { label: string; to: string }[] = [
    { label: t('footer.shop'), to: '/' },
    { label: t('footer.support'), to: links.support },
    { label: t('footer.privacy'), to: links.privacy },
    { label: t('footer.terms'), to: links.terms },
    { label: t('footer.refund'), to: links.refund },
    { label: t('footer.accessibility'), to: links.accessibility },
    { label: t('footer.siteMap'), to: '/site-map' },
  ];
  if (root.showApiDocs) items.push({ label: t('footer.apiDocs'), to: '/docs/index.html' });
  return (
    <footer className="footer">
      <nav aria-label={t('footer.label')}>
        <ul className="footer__links">
          {items.map((item) => (
            <li key={item.label}>
              {item.to.startsWith('/') ? (
                <Link to={item.to}>{item.label}</Link>
              ) : (
                <a href={item.to}>{item.label}</a>
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
