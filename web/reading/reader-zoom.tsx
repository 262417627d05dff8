import { useT } from '#web/i18n/use-t.ts';

// The zoom of a book whose pages are laid out by their publisher: a fixed-layout EPUB's pages
// (issue 16) and a PDF's (issue 38). 1 fits the page (fixed layout) or its width (PDF) in the
// reader's area; more enlarges it, and the area scrolls.
export function ReaderZoom({
  zoom,
  min = 1,
  max,
  step,
  fit,
  onZoom,
}: {
  zoom: number;
  min?: number;
  max: number;
  step: number;
  /** What the button back to 1 does: fit the whole page, or its width. */
  fit: 'page' | 'width';
  onZoom(zoom: number): void;
}) {
  const t = useT();
  return (
    <fieldset className="reader__zoom">
      <legend className="visually-hidden">{t('reader.zoom')}</legend>
      <button
        type="button"
        className="button button--secondary"
        disabled={zoom <= min}
        onClick={() => onZoom(Math.max(min, zoom - step))}
      >
        {t('reader.zoom.out')}
      </button>
      <output aria-live="polite">
        {t('reader.zoom.level', { percent: Math.round(zoom * 100) })}
      </output>
      <button
        type="button"
        className="button button--secondary"
        disabled={zoom >= max}
        onClick={() => onZoom(Math.min(max, zoom + step))}
      >
        {t('reader.zoom.in')}
      </button>
      <button
        type="button"
        className="button button--secondary"
        disabled={zoom === 1}
        onClick={() => onZoom(1)}
      >
        {t(fit === 'page' ? 'reader.zoom.fit' : 'reader.zoom.fitWidth')}
      </button>
    </fieldset>
  );
}
