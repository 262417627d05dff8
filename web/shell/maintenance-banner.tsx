import { useEffect, useState } from 'react';
import { useT } from '#web/i18n/use-t.ts';

export const storageKey = (id: number) => `shelfmark.maintenanceBanner.dismissed.${id}`;

/** Set on <html> before the body paints when this banner was dismissed (app.css hides it). */
export const DISMISSED_ATTRIBUTE = 'data-maintenance-dismissed';

// spec 1 §1: shown once; Dismiss is remembered through a locally stored flag.
export function MaintenanceBanner({ banner }: { banner: { id: number; message: string } }) {
  const t = useT();
  const key = storageKey(banner.id);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    try {
      if (localStorage.getItem(key)) setDismissed(true);
    } catch {
      // Storage may be blocked; the banner then shows until dismissed on this page.
    }
  }, [key]);
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
          try {
            localStorage.setItem(key, '1');
          } catch {
            // Nothing to remember it in.
          }
        }}
      >
        {t('banner.maintenance.dismiss')}
      </button>
    </section>
  );
}
