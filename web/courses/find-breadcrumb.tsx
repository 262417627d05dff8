import { Link } from 'react-router';
import type { FinderChoices } from '#domain/courses/course-finder.ts';
import { useT } from '#web/i18n/use-t.ts';
import { courseCode, departmentLabel, termLabel } from './find-labels.ts';
import { finderPath } from './find-path.ts';

/**
 * The choices made so far (issue 19): each a link back to the step it was chosen at, the
 * last one the current page, unless `current` names the page (a section).
 */
export function FindBreadcrumb({ chosen, current }: { chosen: FinderChoices; current?: string }) {
  const t = useT();
  const crumbs: { label: string; to: string }[] = [
    { label: t('courseFinder.heading'), to: finderPath({}) },
  ];
  const { school, term, department, course } = chosen;
  if (school) crumbs.push({ label: school.title, to: finderPath({ school }) });
  if (school && term) crumbs.push({ label: termLabel(t, term), to: finderPath({ school, term }) });
  if (school && term && department) {
    crumbs.push({
      label: departmentLabel(t, department),
      to: finderPath({ school, term, department }),
    });
  }
  if (school && term && department && course) {
    crumbs.push({ label: courseCode(course), to: finderPath(chosen) });
  }
  const last = crumbs.length - 1;
  return (
    <nav aria-label={t('courseFinder.breadcrumb')}>
      <ol className="breadcrumb">
        {crumbs.map((crumb, index) =>
          index === last && !current ? (
            <li key={crumb.to} aria-current="page">
              {crumb.label}
            </li>
          ) : (
            <li key={crumb.to}>
              <Link to={crumb.to}>{crumb.label}</Link>
            </li>
          ),
        )}
        {current ? <li aria-current="page">{current}</li> : null}
      </ol>
    </nav>
  );
}
