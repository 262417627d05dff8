import type { ReactNode } from 'react';
import { useT } from '#web/i18n/use-t.ts';

/**
 * The bar above the page (issue 5): Previous and Next page, the status between them (said as
 * it changes), and the zoom of a book laid out by its publisher under them (reader-zoom.tsx).
 */
export function ReaderBar({
  status,
  onPrevious,
  onNext,
  zoom,
}: {
  status: string;
  onPrevious(): void;
  onNext(): void;
  /** A fixed-layout book's or a PDF's zoom; null for a reflowable book. */
  zoom: ReactNode;
}) {
  const t = useT();
  return (
    <>
      <div className="reader__bar">
        <button type="button" className="button button--secondary" onClick={onPrevious}>
          {t('reader.previous')}
        </button>
        <output className="reader__status" aria-live="polite">
          {status}
        </output>
        <button type="button" className="button button--secondary" onClick={onNext}>
          {t('reader.next')}
        </button>
      </div>
      {zoom}
    </>
  );
}
