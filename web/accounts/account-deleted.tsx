import { Link } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/account-deleted.ts';

// /account/privacy/deleted (issue 20): where a deleted account lands, signed out.
export default function AccountDeletedPage() {
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('privacy.deleted.title')}</h1>
      <p>{t('privacy.deleted.body')}</p>
      <p>
        <Link to="/">{t('logout.homepage')}</Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'privacy.deleted.title');
