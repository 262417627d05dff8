import { Link, useNavigation } from 'react-router';
import { pageItems } from '#domain/catalog/pagination.ts';
import { useT } from '#web/i18n/use-t.ts';

// spec 1 §2 / spec 2 §9: previous/next and page numbers, a separate mobile version, and no
// clicks while a page is loading.
export function Pagination({
  page,
  pages,
  href,
}: {
  page: number;
  pages: number;
  href: (page: number) => string;
}) {
  const t = useT();
  const loading = useNavigation().state !== 'idle';
  if (pages <= 1) return null;
  const step = (target: number, label: string, rel: string) =>
    target < 1 || target > pages || loading ? (
      <span className="button button--secondary" aria-disabled="true">
        {label}
      </span>
    ) : (
      <Link className="button button--secondary" to={href(target)} rel={rel}>
        {label}
      </Link>
    );
  return (
    <nav className="pagination" aria-label={t('pagination.label')} aria-busy={loading}>
      <div className="pagination__desktop">
        {step(page - 1, t('pagination.previous'), 'prev')}
        <ul>
          {pageItems(page, pages).map((item) =>
            item.kind === 'ellipsis' ? (
              <li key={item.key} aria-hidden="true">
                …
              </li>
            ) : (
              <li key={item.page}>
                {item.page === page ? (
                  <span className="pagination__current" aria-current="page">
                    <span className="visually-hidden">
                      {t('pagination.page', { page: item.page })}
                    </span>
                    <span aria-hidden="true">{item.page}</span>
                  </span>
                ) : loading ? (
                  <span aria-disabled="true">{item.page}</span>
                ) : (
                  <Link to={href(item.page)} aria-label={t('pagination.page', { page: item.page })}>
                    {item.page}
                  </Link>
                )}
              </li>
            ),
          )}
        </ul>
        {step(page + 1, t('pagination.next'), 'next')}
      </div>
      <div className="pagination__mobile">
        {step(page - 1, t('pagination.previous'), 'prev')}
        <span>{t('pagination.pageOf', { page, pages })}</span>
        {step(page + 1, t('pagination.next'), 'next')}
      </div>
    </nav>
  );
}
