import type { AuditLine } from '#domain/operations/audit.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';

function valuesText(values: AuditLine['before']): string {
  if (!values) return '—';
  return Object.entries(values)
    .map(([key, value]) => `${key}: ${value === null ? '—' : String(value)}`)
    .join(', ');
}

/**
 * Issue 39: the audit of an object, on the object's page — who, when (in the reader's time
 * zone), acting as whom, before → after, and the reason when one was given.
 */
export function AuditTrail({
  lines,
  timeZone,
  actingAsNames = {},
}: {
  lines: readonly AuditLine[];
  timeZone: string;
  /** Names of the accounts acted as, by id (the loader looks them up). */
  actingAsNames?: Readonly<Record<number, string>>;
}) {
  const t = useT();
  const locale = useLocale();
  const when = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  });
  return (
    <section className="stack" aria-labelledby="audit-trail-title">
      <h2 id="audit-trail-title">{t('audit.title')}</h2>
      {lines.length === 0 ? (
        <p>{t('audit.empty')}</p>
      ) : (
        <section
          className="table-scroll"
          aria-labelledby="audit-trail-title"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a narrow screen scrolls the table sideways; the keyboard scrolls it from here (WCAG 2.1.1)
          tabIndex={0}
        >
          <table className="data-table">
            <caption className="visually-hidden">{t('audit.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('audit.when')}</th>
                <th scope="col">{t('audit.who')}</th>
                <th scope="col">{t('audit.action')}</th>
                <th scope="col">{t('audit.before')}</th>
                <th scope="col">{t('audit.after')}</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={line.id}>
                  <td>
                    <time dateTime={new Date(line.occurredAt).toISOString()}>
                      {when.format(new Date(line.occurredAt))}
                    </time>
                  </td>
                  <td>
                    {line.actorLabel}
                    {line.actingAsUserId !== null ? (
                      <>
                        {' '}
                        {t('audit.actingAs', {
                          name: actingAsNames[line.actingAsUserId] ?? `#${line.actingAsUserId}`,
                        })}
                      </>
                    ) : null}
                  </td>
                  <td>
                    {line.action}
                    {line.reason ? <> {t('audit.reason', { reason: line.reason })}</> : null}
                  </td>
                  <td>{valuesText(line.before)}</td>
                  <td>{valuesText(line.after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}
