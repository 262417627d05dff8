import { Link } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/library.ts';

export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(request, context);
  return null;
}

export default function LibraryPage() {
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('library.title')}</h1>
      <p>{t('library.intro')}</p>
      <p>
        <Link to="/shelf" className="button button--primary">
          {t('library.toShelf')}
        </Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'library.title');
