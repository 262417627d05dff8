import { Link } from 'react-router';
import { VERIFY_EMAIL_PATH } from '#domain/accounts/email-verification.ts';
import { useT } from '#web/i18n/use-t.ts';

/** Before paying (issue 20): an account that has not proved its address is told so first. */
export function VerifyEmailNotice({ next }: { next: string }) {
  const t = useT();
  return (
    <div className="alert alert--info stack-sm">
      <p>{t('verify.error.required')}</p>
      <p>
        <Link to={`${VERIFY_EMAIL_PATH}?next=${encodeURIComponent(next)}`}>
          {t('verify.wayBack')}
        </Link>
      </p>
    </div>
  );
}
