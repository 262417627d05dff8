import { useState } from 'react';
import { Form, Link, useLoaderData } from 'react-router';
import { BOOK_FILE_ACCEPT } from '#domain/catalog/book-file-types.ts';
import { IMPORTS_PAGE_SIZE, recentImports } from '#domain/catalog/catalog-import.ts';
import { pageWindow } from '#domain/catalog/pagination.ts';
import { noteDate } from '#web/classroom/note-date.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { Pagination } from '#web/components/pagination.tsx';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { useLocale, useT, useTimeZone } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/catalog-admin.ts';
import { requireCatalogAdmin, serializable } from './catalog-admin.server.ts';

// /manage/admin, the user menu's 'Admin' item (spec 1 §2, issue 15): a manager imports a
// publisher's ONIX feed and reads each import's report. The menu's rule decides who may open it,
// so nobody meets a link to a page that would refuse them, and nobody else gets in.

const ERRORS = new Set(['noFile', 'notXml', 'empty']);

export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  requireCatalogAdmin(request, context);
  const query = new URL(request.url).searchParams;
  const asked = Number(query.get('page') ?? 1);
  const { imports, total } = await recentImports(
    context.rc.db,
    Number.isInteger(asked) && asked >= 1 && asked <= 100_000 ? asked : 1,
  );
  const { page, pages } = pageWindow(asked, total, IMPORTS_PAGE_SIZE);
  const error = query.get('error');
  return {
    imports: imports.map(serializable),
    page,
    pages,
    error: error && ERRORS.has(error) ? error : null,
  };
});

// The upload's own path (the edge streams it to disk, server/edge.ts UPLOAD_PATHS).
export const IMPORT_ACTION = '/manage/admin/imports';

export function ImportStatus({ status }: { status: string }) {
  const t = useT();
  return <span className={`status status--${status}`}>{t(`admin.status.${status}`)}</span>;
}

export default function CatalogAdminPage() {
  const { imports, page, pages, error } = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const csrfToken = useCsrfToken();
  // The browser sends the file itself (a document post): it shows the upload's progress, and a
  // feed of any size never passes through the page's JavaScript.
  const [sending, setSending] = useState(false);
  return (
    <section className="stack">
      <h1>{t('menu.admin')}</h1>
      <section className="stack-sm card" aria-labelledby="import-heading">
        <h2 id="import-heading">{t('admin.import.heading')}</h2>
        <p id="import-help">{t('admin.import.help')}</p>
        {error ? (
          <p className="alert alert--error" role="alert" id="import-error">
            {t(`admin.import.error.${error}`)}
          </p>
        ) : null}
        <Form
          method="post"
          action={IMPORT_ACTION}
          encType="multipart/form-data"
          reloadDocument
          onSubmit={(event) => {
            // One upload at a time: a second press while the file is sent does nothing.
            if (sending) event.preventDefault();
            setSending(true);
          }}
          className="stack-sm"
        >
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
          <div className="field">
            <label htmlFor="feed">{t('admin.import.file')}</label>
            <input
              id="feed"
              name="feed"
              type="file"
              accept=".xml,.onx,.onix,application/xml,text/xml"
              required
              aria-describedby={error ? 'import-help import-error' : 'import-help'}
              aria-invalid={error ? true : undefined}
            />
          </div>
          <div className="field">
            <label htmlFor="files">{t('admin.import.files')}</label>
            <input
              id="files"
              name="files"
              type="file"
              multiple
              accept={BOOK_FILE_ACCEPT}
              aria-describedby="files-help"
            />
            <p id="files-help" className="field__help">
              {t('admin.import.filesHelp')}
            </p>
          </div>
          <button type="submit" className="button" aria-disabled={sending || undefined}>
            {sending ? t('admin.import.sending') : t('admin.import.submit')}
          </button>
        </Form>
      </section>
      <section className="stack-sm" aria-labelledby="imports-heading">
        <h2 id="imports-heading">{t('admin.imports.heading')}</h2>
        {imports.length === 0 ? (
          <p>{t('admin.imports.empty')}</p>
        ) : (
          <TableScroll label={t('admin.imports.heading')}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.col.import')}</th>
                  <th scope="col">{t('admin.col.file')}</th>
                  <th scope="col">{t('admin.col.started')}</th>
                  <th scope="col">{t('admin.col.status')}</th>
                  <th scope="col">{t('admin.col.created')}</th>
                  <th scope="col">{t('admin.col.updated')}</th>
                  <th scope="col">{t('admin.col.withdrawn')}</th>
                  <th scope="col">{t('admin.col.refused')}</th>
                </tr>
              </thead>
              <tbody>
                {imports.map((row) => (
                  <tr key={row.id}>
                    <td>
                      <Link to={`/manage/admin/imports/${row.id}`}>
                        {t('admin.import.number', { id: row.id })}
                      </Link>
                    </td>
                    <td>{row.fileName}</td>
                    <td>
                      <time dateTime={row.startedAt}>
                        {noteDate(locale, timeZone, row.startedAt)}
                      </time>
                    </td>
                    <td>
                      <ImportStatus status={row.status} />
                    </td>
                    <td>{row.created}</td>
                    <td>{row.updated}</td>
                    <td>{row.withdrawn}</td>
                    <td>{row.refused}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        <Pagination page={page} pages={pages} href={(p) => `/manage/admin?page=${p}`} />
      </section>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'menu.admin');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
