import { Link } from 'react-router';
import type { CategoryLink } from '#domain/catalog/categories.ts';
import { useT } from '#web/i18n/use-t.ts';

/** Home › Browse › ancestor categories › current (spec 1 §2 Product page elements). */
export function Breadcrumb({ trail, current }: { trail: CategoryLink[]; current?: string }) {
  const t = useT();
  const last = trail.length - 1;
  return (
    <nav aria-label={t('browse.breadcrumb')}>
      <ol className="breadcrumb">
        <li>
          <Link to="/">{t('browse.home')}</Link>
        </li>
        <li>
          <Link to="/browse/all">{t('browse.title')}</Link>
        </li>
        {trail.map((category, index) =>
          index === last && !current ? (
            <li key={category.id} aria-current="page">
              <Link to={`/browse/${category.urlSlug}`}>{category.title}</Link>
            </li>
          ) : (
            <li key={category.id}>
              <Link to={`/browse/${category.urlSlug}`}>{category.title}</Link>
            </li>
          ),
        )}
        {current ? <li aria-current="page">{current}</li> : null}
      </ol>
    </nav>
  );
}
