import { Link } from 'react-router';
import { courseCodeLabel } from '#domain/courses/course-code.ts';
import { type RunningStatus, runningStatusLabel } from '#domain/courses/running-status.ts';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';

type Row = {
  id: number;
  name: string;
  number: string | null;
  department: string;
  courseNumber: string;
  courseCode: string | null;
  startDate: string;
  endDate: string;
  courseFeeCents: number | null;
  memberCount: number;
  status: RunningStatus;
};

/** Issue 39: a term's or a course's sections, each linking to its page. */
export function SectionTable({ sections, caption }: { sections: readonly Row[]; caption: string }) {
  const t = useT();
  const money = new Intl.NumberFormat(useLocale(), { style: 'currency', currency: 'USD' });
  if (sections.length === 0) return <p>{t('ops.courses.sections.none')}</p>;
  return (
    <TableScroll label={caption}>
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('ops.courses.section')}</th>
            <th scope="col">{t('ops.courses.dates')}</th>
            <th scope="col">{t('ops.courses.field.fee')}</th>
            <th scope="col">{t('ops.courses.members')}</th>
            <th scope="col">{t('ops.courses.status')}</th>
          </tr>
        </thead>
        <tbody>
          {sections.map((s) => {
            const course = courseCodeLabel({
              department: s.department,
              number: s.courseNumber,
              code: s.courseCode,
            });
            return (
              <tr key={s.id}>
                <th scope="row">
                  <Link to={`/manage/course-manager/sections/${s.id}`}>
                    {s.number ? t('section.title', { course, number: s.number }) : course}
                  </Link>{' '}
                  {s.name}
                </th>
                <td>{t('ops.courses.dateRange', { start: s.startDate, end: s.endDate })}</td>
                <td>{s.courseFeeCents === null ? '—' : money.format(s.courseFeeCents / 100)}</td>
                <td>{s.memberCount}</td>
                <td>{t(runningStatusLabel(s.status))}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
