import { useT } from '#web/i18n/use-t.ts';

// Issue 39, Switch Account: while a manager acts as someone, every page says so, with the way
// back (decision 039). A plain link: it works before the page's JavaScript arrives.
export function ImpersonationBanner({ name }: { name: string }) {
  const t = useT();
  return (
    <p className="banner banner--impersonating" role="note">
      {t('ops.helpdesk.banner.actingAs', { name })}{' '}
      <a href="/manage/switch-account">{t('ops.helpdesk.banner.switchBack')}</a>
    </p>
  );
}
