import { Link } from 'react-router';
import type { CategoryLink } from '#domain/catalog/categories.ts';
import { useContentLang } from '#web/i18n/content-lang.ts';
import { useT } from '#web/i18n/use-t.ts';

/**
 * Home › Browse › ancestor categories › current (spec 1 §2 Product page elements); a product's
 * title as `current` is in the product's language, `currentLanguage`.
 */
export function Breadcrumb({
  trail,
  current,
  currentLanguage,
}: {
  trail: CategoryLink[];
  current?: string;
  currentLanguage?: string;
}) {
  const t = useT();
  const langOf = useContentLang();
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
        {current ? (
          <li aria-current="page" {...langOf(currentLanguage)}>
            {current}
          </li>
        ) : null}
      </ol>
    </nav>
  );
}
