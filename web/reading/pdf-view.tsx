import type { PDFDocumentProxy } from 'pdfjs-dist';
import { type Ref, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { offlinePagesOf } from '#domain/reading/offline.ts';
import { pdfPageText, textItems } from '#domain/reading/pdf-text-items.ts';
import { useT } from '#web/i18n/use-t.ts';
import { loadPdfEngine } from '#web/utils/pdf-engine.client.ts';
import { clearHit, findInText, markHit } from '#web/utils/text-ranges.client.ts';
import type { ReaderLayout, ViewLocation } from './epub-view.tsx';
import { PdfPage } from './pdf-page.tsx';
import { useFocusOnOpen } from './use-focus-on-open.ts';
import { usePdfZoom } from './use-pdf-zoom.ts';

export type PdfHandle = {
  next(): boolean;
  previous(): boolean;
  goToPage(page: number, hit?: { query: string; occurrence: number }): void;
  /** The text of each page, for search in the browser (pdf.js reads it from the file). */
  pageTexts(): Promise<string[]>;
  /** Pages `from` to `to` (from 1) as images for the printer, drawn at twice their size. */
  pageImages(from: number, to: number): Promise<string[]>;
};

// A PDF in pdf.js (lazy chunk, worker from our origin): one page at a time, or every page
// down a scrolling column, drawn as it comes into view.
export function PdfView({
  ref,
  url,
  keptUrl = null,
  layout,
  zoom,
  onReadableZoom,
  startPage,
  onLocation,
  onReady,
  onTextLayer,
  onFailure,
  autoFocus = false,
  lang,
}: {
  ref: Ref<PdfHandle>;
  url: string;
  /**
   * This device's offline copy of the PDF (issue 16), opened when the file itself cannot be
   * fetched for want of a network (never when the server refuses it).
   */
  keptUrl?: string | null;
  /** The book's language (its text layers are in it; the page's labels are not). */
  lang: string | undefined;
  layout: ReaderLayout;
  /** The page's width as a multiple of the width that fits (issue 38); null: the readable zoom. */
  zoom: number | null;
  /** The zoom that draws the page's running text at a readable size, once it is known. */
  onReadableZoom?(zoom: number): void;
  startPage: number;
  onLocation(location: ViewLocation): void;
  /** The document is open: its pages and their text can be read. */
  onReady(): void;
  /** A page's text layer is drawn: its highlights can be painted (issue 16). */
  onTextLayer?(page: number): void;
  onFailure(): void;
  /** Take the focus when shown, unless the person has already put it somewhere. */
  autoFocus?: boolean;
}) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  useFocusOnOpen(box, autoFocus);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [page, setPage] = useState(startPage);
  const { width, alignToText } = usePdfZoom({ box, doc, startPage, zoom, onReadableZoom });
  const [visible, setVisible] = useState<Set<number>>(() => new Set([startPage]));
  const pending = useRef<{ query: string; occurrence: number; page: number } | null>(null);
  // Where a newly laid-out scrolling column starts: the page shown before.
  const startAt = useRef(startPage);
  startAt.current = page;
  const failure = useRef(onFailure);
  failure.current = onFailure;
  const ready = useRef(onReady);
  ready.current = onReady;
  useEffect(() => {
    if (doc) ready.current();
  }, [doc]);

  // The pages an offline copy holds; null when the whole file is open.
  const [keptPages, setKeptPages] = useState<Set<number> | null>(null);
  useEffect(() => {
    let live = true;
    let loaded: PDFDocumentProxy | null = null;
    const open = (from: string) =>
      loadPdfEngine().then(
        (pdfjs) => pdfjs.getDocument({ url: from, isEvalSupported: false }).promise,
      );
    open(url)
      .catch((error: unknown) => {
        // An HTTP answer (access ended, say) is final; only a missing network tries the copy.
        const status = (error as { status?: number } | null)?.status;
        if (!keptUrl || (status !== undefined && status > 0)) throw error;
        return open(keptUrl).then(async (d) => {
          setKeptPages(offlinePagesOf((await d.getMetadata()).info) ?? new Set());
          return d;
        });
      })
      .then(
        (d) => {
          loaded = d;
          if (live) setDoc(d);
          else void d.destroy();
        },
        () => {
          if (live) failure.current();
        },
      );
    return () => {
      live = false;
      void loaded?.destroy();
    };
  }, [url, keptUrl]);

  const count = doc?.numPages ?? 0;
  useEffect(() => {
    if (count > 0) onLocation({ page, pageCount: count, progression: 0 });
  }, [page, count, onLocation]);

  // Scrolled: draw pages near the view; the first one showing is the current page.
  const sized = width > 0;
  useEffect(() => {
    if (layout !== 'scrolled' || !doc || !sized) return;
    const el = box.current!;
    const pages = [...el.querySelectorAll<HTMLElement>('.pdf-page')];
    const observer = new IntersectionObserver(
      (entries) => {
        setVisible((old) => {
          const next = new Set(old);
          for (const entry of entries)
            if (entry.isIntersecting) next.add(pages.indexOf(entry.target as HTMLElement));
          return next;
        });
      },
      { root: el, rootMargin: '100% 0px' },
    );
    for (const p of pages) observer.observe(p);
    pages[startAt.current]?.scrollIntoView({ block: 'start' });
    return () => observer.disconnect();
  }, [layout, doc, sized]);

  const onScroll = () => {
    const el = box.current!;
    const top = el.getBoundingClientRect().top;
    const pages = [...el.querySelectorAll<HTMLElement>('.pdf-page')];
    const first = pages.findIndex((p) => p.getBoundingClientRect().bottom > top + 8);
    if (first >= 0 && first !== page) setPage(first);
  };

  const textLayer = useRef(onTextLayer);
  textLayer.current = onTextLayer;
  const highlight = (layer: HTMLDivElement, index: number) => {
    alignToText(layer);
    textLayer.current?.(index);
    const hit = pending.current;
    if (!hit || hit.page !== index) return;
    pending.current = null;
    const range = findInText(layer, hit.query, hit.occurrence, { lineBreaks: true });
    if (range) markHit(range);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: highlight reads refs only
  useImperativeHandle(
    ref,
    () => ({
      next() {
        clearHit();
        if (page >= count - 1) return false;
        const next = page + 1;
        setPage(next);
        if (layout === 'scrolled')
          box.current!.querySelectorAll('.pdf-page')[next]?.scrollIntoView({ block: 'start' });
        return true;
      },
      previous() {
        clearHit();
        if (page <= 0) return false;
        const previous = page - 1;
        setPage(previous);
        if (layout === 'scrolled')
          box.current!.querySelectorAll('.pdf-page')[previous]?.scrollIntoView({ block: 'start' });
        return true;
      },
      goToPage(target, hit) {
        const next = Math.min(Math.max(0, target), Math.max(0, count - 1));
        pending.current = hit ? { ...hit, page: next } : null;
        clearHit();
        setPage(next);
        setVisible((old) => new Set(old).add(next));
        if (layout === 'scrolled')
          box.current!.querySelectorAll('.pdf-page')[next]?.scrollIntoView({ block: 'start' });
        // Already drawn (a page of the column, or the page shown): find the hit in it now.
        const shown = layout === 'scrolled' || next === page;
        const layer =
          box.current!.querySelectorAll<HTMLDivElement>('.textLayer')[
            layout === 'scrolled' ? next : 0
          ];
        if (shown && layer && layer.childElementCount > 0) highlight(layer, next);
      },
      async pageTexts() {
        if (!doc) return [];
        const texts: string[] = [];
        for (let i = 1; i <= doc.numPages; i++) {
          const content = await (await doc.getPage(i)).getTextContent();
          texts.push(pdfPageText(textItems(content.items)));
        }
        return texts;
      },
      async pageImages(from, to) {
        if (!doc) return [];
        const images: string[] = [];
        for (let n = Math.max(1, from); n <= Math.min(to, doc.numPages); n++) {
          const pdfPage = await doc.getPage(n);
          const viewport = pdfPage.getViewport({ scale: 2 });
          const canvas = document.createElement('canvas');
          canvas.width = Math.floor(viewport.width);
          canvas.height = Math.floor(viewport.height);
          await pdfPage.render({ canvas, viewport }).promise;
          images.push(canvas.toDataURL('image/png'));
        }
        return images;
      },
    }),
    [page, count, layout, doc],
  );

  return (
    <section
      ref={box}
      className={`pdf-pages pdf-pages--${layout}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus
      tabIndex={0}
      aria-label={t('reader.text')}
      aria-busy={doc ? 'false' : 'true'}
      onScroll={layout === 'scrolled' ? onScroll : undefined}
    >
      {!doc || !sized ? (
        <p>{t('reader.loading')}</p>
      ) : layout === 'paginated' ? (
        <PdfPage
          key={page}
          doc={doc}
          index={page}
          width={width}
          render
          label={t('reader.pageLabel', { page: page + 1 })}
          lang={lang}
          notKept={keptPages && !keptPages.has(page) ? t('reader.offline.pageNotKept') : null}
          onRendered={(layer) => highlight(layer, page)}
        />
      ) : (
        Array.from({ length: doc.numPages }, (_, i) => (
          <PdfPage
            // biome-ignore lint/suspicious/noArrayIndexKey: pages are their index
            key={i}
            doc={doc}
            index={i}
            width={width}
            render={visible.has(i)}
            label={t('reader.pageLabel', { page: i + 1 })}
            lang={lang}
            notKept={keptPages && !keptPages.has(i) ? t('reader.offline.pageNotKept') : null}
            onRendered={(layer) => highlight(layer, i)}
          />
        ))
      )}
    </section>
  );
}
