import { Link } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';

// The category navbar of white-label sites (spec 1 §2 / spec 2 §2). White labels have no
// browse pages (browse goes to the site root), so each category opens a search for it.
const CATEGORIES: { key: string; terms: string }[] = [
  { key: 'studyAids', terms: 'study aids' },
  { key: 'scienceMath', terms: 'science mathematics' },
  { key: 'computers', terms: 'computers technology' },
  { key: 'business', terms: 'business economics' },
  { key: 'politics', terms: 'political social science' },
  { key: 'fiction', terms: 'fiction' },
  { key: 'nonfiction', terms: 'nonfiction' },
  { key: 'children', terms: 'juvenile' },
];

export function LabelCategoryNav() {
  const t = useT();
  return (
    <nav aria-label={t('labelNav.label')} className="label-nav">
      <ul>
        {CATEGORIES.map((category) => (
          <li key={category.key}>
            <Link to={`/search?terms=${encodeURIComponent(category.terms)}`}>
              {t(`labelNav.${category.key}`)}
            </Link>
          </li>
        ))}
        <li>
          <Link to="/">{t('labelNav.all')}</Link>
        </li>
      </ul>
    </nav>
  );
}
