import { lazy, type RefObject, Suspense } from 'react';
import type { ReaderSettings } from '#domain/reading/reader-settings.ts';
import type { ReaderPart } from '#domain/reading/types.ts';
import { useT } from '#web/i18n/use-t.ts';
import { offlinePdfUrl } from '#web/reading/offline-reading.ts';
import { EpubView, type PartStart, type ViewHandle, type ViewLocation } from './epub-view.tsx';
import { FixedPageView } from './fixed-page-view.tsx';
import type { PdfHandle } from './pdf-view.tsx';
import type { ReaderData } from './reader.tsx';

// pdf.js and its view load only when a PDF is opened: other pages never fetch them.
const PdfView = lazy(() => import('./pdf-view.tsx').then((m) => ({ default: m.PdfView })));

/**
 * The book's text in the reader (issue 5, 16): a PDF in pdf.js, a fixed-layout EPUB's page or
 * spread, or an EPUB's chapter; before JavaScript runs (or without it), the chapter as a plain
 * page.
 */
export function ReaderBookView({
  view,
  courseMemberId,
  settings,
  part,
  facing,
  zoom,
  pdfZoom,
  onReadableZoom,
  start,
  epub,
  pdf,
  label,
  onLocation,
  onTextLayer,
  onPdfReady,
  onPdfFailure,
}: {
  view: ReaderData;
  courseMemberId: number | null;
  /** Null until hydrated. */
  settings: ReaderSettings | null;
  part: ReaderPart | null;
  /** The facing page of a fixed-layout spread, when two pages are shown. */
  facing: ReaderPart | null;
  /** A fixed-layout page's zoom. */
  zoom: number;
  /** A PDF page's zoom (use-pdf-zoom.ts), null for the readable one. */
  pdfZoom: number | null;
  onReadableZoom(zoom: number): void;
  start: PartStart;
  epub: RefObject<ViewHandle | null>;
  pdf: RefObject<PdfHandle | null>;
  /** The name of the reading area: the chapter's. */
  label: string;
  onLocation(location: ViewLocation): void;
  onTextLayer(page: number): void;
  onPdfReady(): void;
  onPdfFailure(): void;
}) {
  const t = useT();
  const isPdf = view.format === 'pdf';
  const fixed = !!part?.page;
  const pdfUrl = `/file/read/${view.file.id}${courseMemberId === null ? '' : `?coursemember_id=${courseMemberId}`}`;
  return isPdf ? (
    settings ? (
      <Suspense fallback={<p>{t('reader.loading')}</p>}>
        <PdfView
          ref={pdf}
          url={pdfUrl}
          keptUrl={
            view.drm.offlinePercent === null ? null : offlinePdfUrl(view.product.id, courseMemberId)
          }
          layout={settings.layout}
          zoom={pdfZoom}
          onReadableZoom={onReadableZoom}
          startPage={view.position.part}
          onLocation={onLocation}
          onTextLayer={onTextLayer}
          onReady={onPdfReady}
          lang={view.language?.lang}
          autoFocus
          onFailure={onPdfFailure}
        />
      </Suspense>
    ) : (
      <p>{t('reader.loading')}</p>
    )
  ) : part && settings && fixed ? (
    <FixedPageView
      ref={epub}
      pages={facing ? [part, facing].sort((a, b) => a.index - b.index) : [part]}
      zoom={zoom}
      label={label}
      language={view.language}
      hit={
        start.at === 'occurrence'
          ? { part: part.index, query: start.query, occurrence: start.occurrence }
          : null
      }
      onLocation={onLocation}
      autoFocus
    />
  ) : part && settings ? (
    <EpubView
      ref={epub}
      html={part.html}
      label={label}
      layout={settings.layout}
      fontScale={settings.fontScale}
      look={settings}
      start={start}
      onLocation={onLocation}
      language={view.language}
      autoFocus
    />
  ) : part ? (
    // Before JavaScript runs (or without it): the chapter as a plain page.
    <div
      className="reader-text reader-text--static"
      lang={view.language?.lang}
      dir={view.language?.dir}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: rebuilt from an allow-list on the server (domain/reading/xhtml-content.ts)
      dangerouslySetInnerHTML={{ __html: part.html }}
    />
  ) : null;
}
