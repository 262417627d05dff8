import { useId } from 'react';
import { useT } from '#web/i18n/use-t.ts';

// The book-file list (spec 1 §2 lists): starts collapsed; names and kinds only here, since
// opening a file needs ownership (/file/read/{id}, /bookfile/{id}/download).
export function BookFileList({
  files,
  layout = 'page',
  owned = false,
}: {
  files: { id: number; title: string; extension: string; type: string }[];
  /** In the product side sheet the heading sits below the product title. */
  layout?: 'page' | 'sheet';
  /** Owners download the documents (the reader file is read in the reader). */
  owned?: boolean;
}) {
  const t = useT();
  const headingId = useId();
  if (files.length === 0) return null;
  const Heading = layout === 'sheet' ? 'h4' : 'h2';
  return (
    <section className="stack-sm" aria-labelledby={headingId}>
      <Heading id={headingId}>{t('files.heading')}</Heading>
      <details className="item-list">
        <summary className="button button--secondary">
          {t('files.show', { count: files.length })}
        </summary>
        <ul>
          {files.map((file) => (
            <li key={file.id}>
              {file.title} ({file.extension.toUpperCase()}, {t(`files.type.${file.type}`)})
              {owned && file.type === 'DOC' ? (
                <>
                  {' '}
                  <a href={`/bookfile/${file.id}/download`} download>
                    {t('files.download', { title: file.title })}
                  </a>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
