import { useState } from 'react';
import { dismissedBannerCookie } from '#domain/sites/maintenance-banner.ts';
import { useT } from '#web/i18n/use-t.ts';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

// spec 1 §1: shown once; Dismiss is remembered through a locally stored flag.
export function MaintenanceBanner({ banner }: { banner: { id: number; message: string } }) {
  const t = useT();
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;
  return (
    <section className="banner banner--maintenance" aria-label={t('banner.maintenance.label')}>
      <p>{banner.message}</p>
      <button
        type="button"
        className="button button--secondary banner__dismiss"
        // On a phone the button is a ×, the notice keeps the row (issue 38): its name stays.
        aria-label={t('banner.maintenance.dismiss')}
        onClick={() => {
          setDismissed(true);
          // A browser that keeps no cookies shows the banner again on the next page.
          const secure = window.location.protocol === 'https:' ? '; Secure' : '';
          // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser
          document.cookie = `${dismissedBannerCookie(banner.id)}=1; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax${secure}`;
        }}
      >
        <span className="banner__dismiss-text">{t('banner.maintenance.dismiss')}</span>
        <span className="banner__dismiss-icon" aria-hidden="true">
          ×
        </span>
      </button>
    </section>
  );
}
