import { data, Link, useLoaderData } from 'react-router';
import { DEFAULT_LOCALE } from '#domain/accounts/language.ts';
import { ACCESS_WAYS } from '#domain/analytics/access-through.ts';
import { sectionLaunches } from '#domain/analytics/service.ts';
import { sectionAnalytics } from '#domain/reading/section-analytics.ts';
import { parseId } from '#domain/shared/id.ts';
import { sectionTitle } from '#domain/shelf/sections.ts';
import type { MessageParams } from '#i18n/format-message.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { loadedLocale, translatePage } from '#web/i18n/catalog.ts';
import { useLocale, useT, useTimeZone } from '#web/i18n/use-t.ts';
import { sectionTitleText } from '#web/shelf/section-title-text.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta, rootDataFrom } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/course-analytics.ts';

// /courses/analytics/{courseId}: 'View Section Analytics' (spec 1 §2 course section page; §6
// professors and teaching assistants of the section only, anybody else is forbidden): each
// material, how many students own it, how many opened it and when last (reading events);
// issue 19: each student of the section by name, and the same as a CSV download
// (course-analytics-csv.tsx), both for the section's teachers only (analytics-visibility.ts).
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const sectionId = parseId(params.courseId);
  if (sectionId === null) throw data(null, { status: 404 });
  requireUser(request, context);
  const analytics = await sectionAnalytics(context.rc, sectionId);
  // Asked only once the section's analytics are the user's to see (above).
  const launches = await sectionLaunches(context.rc, sectionId);
  return {
    ...analytics,
    launches,
    materials: analytics.materials.map((m) => ({
      ...m,
      lastOpenedAt: m.lastOpenedAt?.toISOString() ?? null,
    })),
    // Named here because the user teaches the section (sectionAnalytics refused otherwise).
    students: analytics.students.map((student) => {
      const opened = student.materials.filter((m) => m.opens > 0);
      const last = opened.reduce<Date | null>(
        (latest, m) =>
          m.lastOpenedAt && (!latest || m.lastOpenedAt > latest) ? m.lastOpenedAt : latest,
        null,
      );
      return {
        userId: student.userId,
        name: [student.firstName, student.lastName].filter(Boolean).join(' ') || student.email,
        email: student.email,
        opened: opened.length,
        opens: student.materials.reduce((sum, m) => sum + m.opens, 0),
        lastOpenedAt: last?.toISOString() ?? null,
      };
    }),
  };
});

/** spec 1 §2 page titles: department and number, plus ': Section {number}' when numbered. */
function titleOf(section: {
  department: string;
  courseNumber: string;
  courseCode: string | null;
  number: string | null;
}) {
  return sectionTitle({
    department: section.department,
    courseNumber: section.courseNumber,
    courseCode: section.courseCode,
    sectionNumber: section.number,
  });
}

export default function CourseAnalyticsPage() {
  const { section, studentCount, materials, students, launches } = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const when = new Intl.DateTimeFormat(locale, {
    // Issue 38: a time says its zone (dateStyle cannot say it, so the parts are named).
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  });
  return (
    <section className="stack">
      <p>
        <Link to={`/shelf/course-section/${section.id}`}>{t('analytics.back')}</Link>
      </p>
      <h1>{t('analytics.heading', { section: sectionTitleText(t, titleOf(section)) })}</h1>
      <p>{t('analytics.intro', { count: studentCount })}</p>
      <p>
        {/* A file, not a page: the browser loads it as a document and saves it. */}
        <a
          href={`/courses/analytics/${section.id}/analytics.csv`}
          className="button button--secondary"
        >
          {t('analytics.download')}
        </a>
      </p>
      {materials.length === 0 ? (
        <p>{t('analytics.empty')}</p>
      ) : (
        <TableScroll label={t('analytics.caption')}>
          <table className="analytics-table">
            <caption>{t('analytics.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('analytics.material')}</th>
                <th scope="col">{t('analytics.access')}</th>
                <th scope="col">{t('analytics.readers')}</th>
                <th scope="col">{t('analytics.opens')}</th>
                <th scope="col">{t('analytics.lastOpened')}</th>
              </tr>
            </thead>
            <tbody>
              {materials.map((m) => (
                <tr key={m.productId}>
                  <th scope="row">
                    <span className="card__type">{t(`type.${m.productType}`)}</span>{' '}
                    <Link to={`/product-detail/${m.productId}`}>{m.title}</Link>
                  </th>
                  <td>
                    {t('analytics.ofStudents', { count: m.access.total, total: studentCount })}
                    {m.access.total > 0 ? (
                      <span className="analytics-ways">
                        {ACCESS_WAYS.filter((way) => m.access.byWay[way] > 0)
                          .map((way) =>
                            t('label.value', {
                              label: t(`analytics.way.${way}`),
                              value: m.access.byWay[way],
                            }),
                          )
                          .join(' · ')}
                      </span>
                    ) : null}
                  </td>
                  <td>{t('analytics.ofStudents', { count: m.readers, total: studentCount })}</td>
                  <td>{m.opens}</td>
                  <td>
                    {m.lastOpenedAt ? when.format(new Date(m.lastOpenedAt)) : t('analytics.never')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {students.length === 0 ? (
        <p>{t('analytics.students.none')}</p>
      ) : (
        <TableScroll label={t('analytics.students.caption')}>
          <table className="analytics-table">
            <caption>{t('analytics.students.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('analytics.student')}</th>
                <th scope="col">{t('analytics.email')}</th>
                <th scope="col">{t('analytics.materialsOpened')}</th>
                <th scope="col">{t('analytics.opens')}</th>
                <th scope="col">{t('analytics.lastOpened')}</th>
              </tr>
            </thead>
            <tbody>
              {students.map((student) => (
                <tr key={student.userId}>
                  <th scope="row">{student.name}</th>
                  <td>{student.email}</td>
                  <td>
                    {t('analytics.ofStudents', { count: student.opened, total: materials.length })}
                  </td>
                  <td>{student.opens}</td>
                  <td>
                    {student.lastOpenedAt
                      ? when.format(new Date(student.lastOpenedAt))
                      : t('analytics.never')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {launches.length > 0 ? (
        <TableScroll label={t('launch.analytics.caption')}>
          <table className="analytics-table">
            <caption>{t('launch.analytics.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('analytics.material')}</th>
                <th scope="col">{t('launch.analytics.launched')}</th>
                <th scope="col">{t('launch.analytics.users')}</th>
                <th scope="col">{t('launch.analytics.refused')}</th>
              </tr>
            </thead>
            <tbody>
              {launches.map((l) => (
                <tr key={l.productId}>
                  <th scope="row">{l.title}</th>
                  <td>{l.launched}</td>
                  <td>{l.users}</td>
                  <td>{l.refused}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  if (!loaderData) return [];
  const locale = loadedLocale(rootDataFrom(matches)?.locale ?? DEFAULT_LOCALE);
  const t = (id: string, params?: MessageParams) => translatePage(locale, id, params);
  return pageMeta(matches, 'analytics.title', {
    section: sectionTitleText(t, titleOf(loaderData.section)),
  });
};

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
