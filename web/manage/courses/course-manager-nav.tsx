import { Link } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';

/** Issue 39: the course manager's own pages, and the roster import and billing beside them. */
export function CourseManagerNav() {
  const t = useT();
  return (
    <nav aria-label={t('ops.courses.nav.label')}>
      <ul className="cluster" style={{ listStyle: 'none', padding: 0 }}>
        <li>
          <Link to="/manage/course-manager">{t('ops.courses.nav.terms')}</Link>
        </li>
        <li>
          <Link to="/manage/course-manager/courses">{t('ops.courses.nav.courses')}</Link>
        </li>
        <li>
          <Link to="/manage/roster-imports">{t('ops.courses.nav.rosterImport')}</Link>
        </li>
        <li>
          <Link to="/manage/billing">{t('ops.courses.nav.billing')}</Link>
        </li>
      </ul>
    </nav>
  );
}
