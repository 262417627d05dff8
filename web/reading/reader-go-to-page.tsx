import { useId, useState } from 'react';
import { type PrintPages, pageByLabel, pageRange } from '#domain/reading/print-pages.ts';
import { useT } from '#web/i18n/use-t.ts';

/**
 * "Go to page" (issue 16): a page asked for by the number printed on it, so that a student can
 * follow "read pages 112–130". The printed edition's page list decides where each page is
 * (print-pages.ts), the same pages the reader prints and shows as the place.
 */
export function ReaderGoToPage({ pages, onGo }: { pages: PrintPages; onGo(page: number): void }) {
  const t = useT();
  const id = useId();
  const [asked, setAsked] = useState('');
  const [error, setError] = useState('');
  const labels = pageRange(pages);
  return (
    <form
      className="reader__go-to-page stack-sm"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!asked.trim()) {
          setError(t('reader.goToPage.empty', labels));
          return;
        }
        const page = pageByLabel(pages, asked);
        if (page === null) {
          setError(t('reader.goToPage.unknown', { page: asked.trim().slice(0, 20), ...labels }));
          return;
        }
        setError('');
        onGo(page);
      }}
    >
      <label htmlFor={`${id}-page`}>{t('reader.goToPage.field')}</label>
      <p id={`${id}-hint`} className="form-hint">
        {t('reader.goToPage.hint', labels)}
      </p>
      <div className="reader__go-to-page-row">
        <input
          id={`${id}-page`}
          name="page"
          inputMode="numeric"
          autoComplete="off"
          maxLength={20}
          value={asked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
          onChange={(event) => setAsked(event.target.value)}
        />
        <button type="submit" className="button button--secondary">
          {t('reader.goToPage.go')}
        </button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
