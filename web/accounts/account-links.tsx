import { Link } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';

/** Under the login form (issue 20): create an account (keeping `next`), or recover one. */
export function AccountLinks({ next }: { next: string }) {
  const t = useT();
  const query = next && next !== '/' ? `?next=${encodeURIComponent(next)}` : '';
  return (
    <div className="stack-sm">
      <p>
        <Link to="/accounts/password/forgot/">{t('login.forgotPassword')}</Link>
      </p>
      <p>
        {t('login.noAccount')}{' '}
        <Link to={`/accounts/signup/${query}`}>{t('login.createAccount')}</Link>
      </p>
    </div>
  );
}
