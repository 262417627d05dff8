import { useT } from '#web/i18n/use-t.ts';

// The book-file list (spec 1 §2 lists): starts collapsed; names and kinds only here, since
// opening a file needs ownership (/file/read/{id}, /bookfile/{id}/download).
export function BookFileList({
  files,
}: {
  files: { id: number; title: string; extension: string; type: string }[];
}) {
  const t = useT();
  if (files.length === 0) return null;
  return (
    <section className="stack-sm" aria-labelledby="files-heading">
      <h2 id="files-heading">{t('files.heading')}</h2>
      <details className="item-list">
        <summary className="button button--secondary">
          {t('files.show', { count: files.length })}
        </summary>
        <ul>
          {files.map((file) => (
            <li key={file.id}>
              {file.title} ({file.extension.toUpperCase()}, {t(`files.type.${file.type}`)})
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
