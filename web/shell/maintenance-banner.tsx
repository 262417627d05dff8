import { useEffect, useState } from 'react';
import { useT } from '#web/i18n/use-t.ts';

/**
 * The locally stored flag (spec 1 §1) is a cookie of this browser, not localStorage: a first
 * visit's first localStorage read opens the origin's storage through the browser process,
 * 2–20 ms of the main thread in <head> (issue 13, Lighthouse), where reading document.cookie
 * takes about 1 ms. The server never reads it: anonymous pages are the same for everyone
 * (web/utils/public-page.server.ts), and the page hides the banner itself.
 */
export const dismissedCookie = (id: number) => `shelfmark_maintenance_dismissed_${id}`;

/** Whether this browser dismissed banner `id` (`cookies` is document.cookie). */
export function dismissedIn(cookies: string, id: number): boolean {
  return `;${cookies.replace(/ /g, '')};`.includes(`;${dismissedCookie(id)}=1;`);
}

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** Set on <html> before the body paints when this banner was dismissed (app.css hides it). */
export const DISMISSED_ATTRIBUTE = 'data-maintenance-dismissed';

// spec 1 §1: shown once; Dismiss is remembered through a locally stored flag.
export function MaintenanceBanner({ banner }: { banner: { id: number; message: string } }) {
  const t = useT();
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    if (dismissedIn(document.cookie, banner.id)) setDismissed(true);
  }, [banner.id]);
  useEffect(() => {
    // Gone from the page: the mark has done its work, and must not hide a later banner.
    if (dismissed) document.documentElement.removeAttribute(DISMISSED_ATTRIBUTE);
  }, [dismissed]);
  if (dismissed) return null;
  return (
    <section className="banner banner--maintenance" aria-label={t('banner.maintenance.label')}>
      <p>{banner.message}</p>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => {
          setDismissed(true);
          // A browser that keeps no cookies shows the banner again on the next page.
          const secure = window.location.protocol === 'https:' ? '; Secure' : '';
          // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser, and the head script reads document.cookie
          document.cookie = `${dismissedCookie(banner.id)}=1; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax${secure}`;
        }}
      >
        {t('banner.maintenance.dismiss')}
      </button>
    </section>
  );
}
