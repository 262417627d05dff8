import { useEffect, useRef } from 'react';
import { Link, useLoaderData } from 'react-router';
import { courseFinderStep, type FinderStep } from '#domain/courses/course-finder.ts';
import { formatDay } from '#i18n/format-day.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { publicPage } from '#web/utils/public-page.server.ts';
import type { Route } from './+types/find-course.ts';
import { FindBreadcrumb } from './find-breadcrumb.tsx';
import { courseCode, departmentLabel, termLabel } from './find-labels.ts';
import { finderPath, finderSectionPath } from './find-path.ts';

// /courses/find (issue 19, "Find your course materials"): a public course lookup, one choice
// per step — school, term, department, course, section — each step a plain link with the
// choices so far in its query, so it works without JavaScript and can be bookmarked.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const url = new URL(request.url);
  const step = await courseFinderStep(context.rc, {
    school: url.searchParams.get('school'),
    term: url.searchParams.get('term'),
    department: url.searchParams.get('department'),
    course: url.searchParams.get('course'),
  });
  // Nothing about the visitor: every anonymous visitor sees the same page.
  publicPage(context);
  return step;
});

export default function FindCoursePage() {
  const step = useLoaderData<typeof loader>();
  const t = useT();
  // Each choice loads the next step in place: the link that was pressed is gone, so keyboard
  // and screen-reader users are taken to the new step's heading (not on the first visit).
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef<string | null>(null);
  const stepKey = `${step.step}:${JSON.stringify(step.chosen)}`;
  useEffect(() => {
    if (shown.current !== null && shown.current !== stepKey) heading.current?.focus();
    shown.current = stepKey;
  }, [stepKey]);
  return (
    <div className="stack-lg">
      <header className="stack-sm">
        <FindBreadcrumb chosen={step.chosen} />
        <h1>{t('courseFinder.heading')}</h1>
        <p>{t('courseFinder.lede')}</p>
      </header>
      <section className="stack" aria-labelledby="finder-step">
        <h2 id="finder-step" ref={heading} tabIndex={-1}>
          {t(`courseFinder.choose.${step.step}`)}
        </h2>
        {step.options.length === 0 ? <p>{t('courseFinder.none')}</p> : <Options step={step} />}
      </section>
    </div>
  );
}

function Options({ step }: { step: FinderStep }) {
  const t = useT();
  const locale = useLocale();
  const date = (day: string) => formatDay(locale, day, 'medium');
  const { chosen } = step;
  switch (step.step) {
    case 'school':
      return (
        <ul className="finder-options">
          {step.options.map((school) => (
            <li key={school.id}>
              <Link to={finderPath({ school })}>{school.title}</Link>
            </li>
          ))}
        </ul>
      );
    case 'term':
      return (
        <ul className="finder-options">
          {step.options.map((term) => (
            <li key={term.key}>
              <Link to={finderPath({ ...chosen, term })}>{termLabel(t, term)}</Link>
            </li>
          ))}
        </ul>
      );
    case 'department':
      return (
        <ul className="finder-options">
          {step.options.map((department) => (
            <li key={department.code}>
              <Link to={finderPath({ ...chosen, department })}>
                {departmentLabel(t, department)}
              </Link>
            </li>
          ))}
        </ul>
      );
    case 'course':
      return (
        <ul className="finder-options">
          {step.options.map((course) => (
            <li key={course.id}>
              <Link to={finderPath({ ...chosen, course })}>
                <span className="finder-options__code">{courseCode(course)}</span> {course.name}
              </Link>
            </li>
          ))}
        </ul>
      );
    case 'section':
      return (
        <ul className="finder-options">
          {step.options.map((section) => (
            <li key={section.id}>
              <Link to={finderSectionPath(section.id)}>
                <span className="finder-options__code">
                  {section.number
                    ? t('section.number', { number: section.number })
                    : courseCode(chosen.course!)}
                </span>{' '}
                {t('courseFinder.sectionDates', {
                  from: date(section.startDate),
                  to: date(section.endDate),
                })}
              </Link>
            </li>
          ))}
        </ul>
      );
  }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'courseFinder.title', undefined, 'courseFinder.description');
