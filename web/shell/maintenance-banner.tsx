import { useEffect, useState } from 'react';
import { useT } from '#web/i18n/use-t.ts';

const storageKey = (id: number) => `shelfmark.maintenanceBanner.dismissed.${id}`;

// spec 1 §1: shown once; Dismiss is remembered through a locally stored flag.
export function MaintenanceBanner({ banner }: { banner: { id: number; message: string } }) {
  const t = useT();
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    try {
      if (window.localStorage.getItem(storageKey(banner.id)) === '1') setDismissed(true);
    } catch {
      // Storage may be blocked; the banner then shows until dismissed on this page.
    }
  }, [banner.id]);
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
            window.localStorage.setItem(storageKey(banner.id), '1');
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
