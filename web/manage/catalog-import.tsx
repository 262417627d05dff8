import { useEffect } from 'react';
import { data, Link, useLoaderData, useRevalidator } from 'react-router';
import { importReport, REFUSALS_PAGE_SIZE } from '#domain/catalog/catalog-import.ts';
import { pageWindow } from '#domain/catalog/pagination.ts';
import { parseId } from '#domain/shared/id.ts';
import { noteDate } from '#web/classroom/note-date.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { Pagination } from '#web/components/pagination.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT, useTimeZone } from '#web/i18n/use-t.ts';
import { WordingText } from '#web/i18n/wording-text.tsx';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/catalog-import.ts';
import { requireCatalogAdmin, serializable } from './catalog-admin.server.ts';
import { ImportStatus } from './catalog-admin.tsx';

// /manage/admin/imports/:importId (issue 15): one import's report: what was read, what it made
// of it, and each refused record with its reference, line and reason. While the import runs the
// page follows it, once a second and a half.

export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  requireCatalogAdmin(request, context);
  const id = parseId(params.importId);
  if (id === null) throw data(null, { status: 404 });
  const asked = Number(new URL(request.url).searchParams.get('page') ?? 1);
  const page = Number.isInteger(asked) && asked >= 1 && asked <= 1_000_000 ? asked : 1;
  const report = await importReport(context.rc.db, id, page);
  if (!report) throw data(null, { status: 404 });
  const window = pageWindow(page, report.summary.notes, REFUSALS_PAGE_SIZE);
  return { summary: serializable(report.summary), refusals: report.refusals, ...window };
});

const POLL_MS = 1500;

export default function CatalogImportPage() {
  const { summary, refusals, page, pages } = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const revalidator = useRevalidator();
  const running = summary.status === 'running';
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') void revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, revalidator]);
  const percent =
    summary.totalBytes && summary.totalBytes > 0
      ? Math.min(100, Math.floor((summary.readBytes / summary.totalBytes) * 100))
      : null;
  const counts: [string, number][] = [
    ['admin.col.records', summary.records],
    ['admin.col.created', summary.created],
    ['admin.col.updated', summary.updated],
    ['admin.col.unchanged', summary.unchanged],
    ['admin.col.withdrawn', summary.withdrawn],
    ['admin.col.refused', summary.refused],
    ['admin.col.filesAttached', summary.filesAttached],
    ['admin.col.filesRefused', summary.filesRefused],
  ];
  return (
    <section className="stack">
      <p>
        <Link to="/manage/admin">{t('admin.import.back')}</Link>
      </p>
      <h1>{t('admin.import.number', { id: summary.id })}</h1>
      <dl className="details-list">
        <dt>{t('admin.col.file')}</dt>
        <dd>{summary.fileName}</dd>
        <dt>{t('admin.col.source')}</dt>
        <dd>{t(`admin.source.${summary.source}`)}</dd>
        {summary.startedBy ? (
          <>
            <dt>{t('admin.col.by')}</dt>
            <dd>{summary.startedBy}</dd>
          </>
        ) : null}
        <dt>{t('admin.col.started')}</dt>
        <dd>
          <time dateTime={summary.startedAt}>{noteDate(locale, timeZone, summary.startedAt)}</time>
        </dd>
        {summary.finishedAt ? (
          <>
            <dt>{t('admin.col.finished')}</dt>
            <dd>
              <time dateTime={summary.finishedAt}>
                {noteDate(locale, timeZone, summary.finishedAt)}
              </time>
            </dd>
          </>
        ) : null}
        {summary.onixRelease ? (
          <>
            <dt>{t('admin.col.feed')}</dt>
            <dd>
              {t('admin.import.release', { release: summary.onixRelease })}
              {summary.senderName ? ` · ${summary.senderName}` : ''}
            </dd>
          </>
        ) : null}
        <dt>{t('admin.col.status')}</dt>
        <dd>
          <ImportStatus status={summary.status} />
        </dd>
      </dl>
      <div aria-live="polite" className="stack-sm">
        {running ? (
          <>
            <progress
              max={100}
              value={percent ?? undefined}
              aria-label={t('admin.import.progressLabel')}
            />
            <p>
              {percent === null
                ? t('admin.import.progressRecords', { records: summary.records })
                : t('admin.import.progress', { percent, records: summary.records })}
            </p>
          </>
        ) : null}
        {summary.failure ? (
          <p className="alert alert--error">
            <WordingText wording={summary.failure} language={locale} />
          </p>
        ) : null}
        <table className="data-table">
          <caption>{t('admin.import.counts')}</caption>
          <tbody>
            {counts.map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{t(label)}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section className="stack-sm" aria-labelledby="refusals-heading">
        <h2 id="refusals-heading">{t('admin.import.refusals')}</h2>
        {summary.notes === 0 ? (
          <p>{t(running ? 'admin.import.refusalsNoneYet' : 'admin.import.refusalsNone')}</p>
        ) : (
          <TableScroll label={t('admin.import.refusals')}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.col.reference')}</th>
                  <th scope="col">{t('admin.col.line')}</th>
                  <th scope="col">{t('admin.col.reason')}</th>
                </tr>
              </thead>
              <tbody>
                {refusals.map((r) => (
                  <tr key={r.position}>
                    <td>{r.reference ?? t('admin.import.noReference')}</td>
                    <td>{r.line ?? ''}</td>
                    <td>
                      <WordingText wording={r.reason} language={locale} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        <Pagination
          page={page}
          pages={pages}
          href={(p) => `/manage/admin/imports/${summary.id}?page=${p}`}
        />
      </section>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  pageMeta(matches, loaderData ? 'admin.import.number' : 'error.title', {
    id: loaderData?.summary.id ?? '',
  });

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
