import { useT } from '#web/i18n/use-t.ts';

// Decision 011: when the built-in test gateway takes payments (development, tests, a
// deployment with PAYMENTS=test), every page says so, so nobody takes it for a real store.
export function TestModeBanner() {
  const t = useT();
  return (
    <p className="banner banner--test-mode" role="note">
      <strong>{t('banner.testMode.title')}</strong> {t('banner.testMode.text')}{' '}
      {/* On a phone the banner keeps to one line (issue 38); checkout names the card too. */}
      <span className="banner__more">{t('banner.testMode.card')}</span>
    </p>
  );
}
