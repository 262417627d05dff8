import type { AuditLine } from '#domain/operations/audit.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { type AuditReader, auditActionText, auditChanges } from './audit-wording.ts';

/** One side of a change, a field a line ("Course fee: $59.00"); a dash when there is none. */
function Changes({
  line,
  side,
  reader,
}: {
  line: AuditLine;
  side: 'before' | 'after';
  reader: AuditReader;
}) {
  const changes = auditChanges(line[side], line, reader);
  if (changes.length === 0) return <>—</>;
  return (
    <ul className="audit-changes">
      {changes.map((change) => (
        <li key={change.field}>{reader.t('audit.changes', change)}</li>
      ))}
    </ul>
  );
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
  const reader: AuditReader = { t, locale, timeZone };
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
    // One landmark, the scrolling box below: two regions of one name told a screen reader
    // nothing the heading does not.
    <div className="stack">
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
                          name:
                            actingAsNames[line.actingAsUserId] ??
                            line.people?.[line.actingAsUserId] ??
                            t('audit.value.person', { id: line.actingAsUserId }),
                        })}
                      </>
                    ) : null}
                  </td>
                  <td>
                    {auditActionText(line, reader)}
                    {line.reason ? <> {t('audit.reason', { reason: line.reason })}</> : null}
                  </td>
                  <td>
                    <Changes line={line} side="before" reader={reader} />
                  </td>
                  <td>
                    <Changes line={line} side="after" reader={reader} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
