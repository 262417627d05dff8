import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { noteDate } from './note-date.ts';

/** Who has joined the classroom (instructor view only): name, e-mail and when. */
export function JoinedList({
  joined,
  timeZone,
}: {
  joined: { userId: number; name: string; email: string; joinedAt: string | null }[];
  timeZone: string;
}) {
  const t = useT();
  const locale = useLocale();
  return (
    <section className="stack" aria-labelledby="classroom-joined">
      <h2 id="classroom-joined">{t('classroom.joined')}</h2>
      {joined.length === 0 ? (
        <p className="empty-state">{t('classroom.joined.none')}</p>
      ) : (
        <TableScroll label={t('classroom.joined.caption', { count: joined.length })}>
          <table className="analytics-table">
            <caption>{t('classroom.joined.caption', { count: joined.length })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('classroom.joined.name')}</th>
                <th scope="col">{t('classroom.joined.email')}</th>
                <th scope="col">{t('classroom.joined.date')}</th>
              </tr>
            </thead>
            <tbody>
              {joined.map((join) => (
                <tr key={join.userId}>
                  <td>{join.name}</td>
                  <td>{join.email}</td>
                  <td>{join.joinedAt ? noteDate(locale, timeZone, join.joinedAt) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
