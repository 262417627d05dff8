import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { type Ref, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { offlinePagesOf } from '#domain/reading/offline.ts';
import {
  type PdfTextItem,
  pdfItemSeparator,
  pdfPageText,
  textItems,
} from '#domain/reading/pdf-text-items.ts';
import { pdfBodyTextSize, readablePdfZoom } from '#domain/reading/pdf-zoom.ts';
import { useT } from '#web/i18n/use-t.ts';
import { loadPdfEngine } from '#web/utils/pdf-engine.client.ts';
import { clearHit, findInText, markHit } from '#web/utils/text-ranges.client.ts';
import type { ReaderLayout, ViewLocation } from './epub-view.tsx';
import { useFocusOnOpen } from './use-focus-on-open.ts';

export type PdfHandle = {
  next(): boolean;
  previous(): boolean;
  goToPage(page: number, hit?: { query: string; occurrence: number }): void;
  /** The text of each page, for search in the browser (pdf.js reads it from the file). */
  pageTexts(): Promise<string[]>;
  /** Pages `from` to `to` (from 1) as images for the printer, drawn at twice their size. */
  pageImages(from: number, to: number): Promise<string[]>;
};

// pdf.js writes a <br> where a line ends and nothing between runs of text its positions set
// apart otherwise: add that white space too, so the layer's text (selected, copied, searched
// for a hit) is the page's text search listed (pdf-text-items.ts). One div per text item.
function addSeparators(items: PdfTextItem[], divs: HTMLElement[]) {
  items.forEach((item, i) => {
    const separator = item.hasEOL ? '' : pdfItemSeparator(item, items[i + 1]);
    const div = divs[i];
    if (!separator || !div?.isConnected) return;
    const node = document.createElement(separator === '\n' ? 'br' : 'span');
    node.setAttribute('role', 'presentation');
    if (separator === ' ') node.textContent = ' ';
    div.after(node);
  });
}

type PdfPageProps = {
  doc: PDFDocumentProxy;
  index: number;
  width: number;
  render: boolean;
  label: string;
  /** The book's language, for the text a screen reader reads (pdf.js sets each run's dir). */
  lang: string | undefined;
  /** Said over a page this device's offline copy does not hold; null for a kept page. */
  notKept: string | null;
  onRendered?: (textLayer: HTMLDivElement) => void;
};

// One page: the canvas a sighted reader sees, and pdf.js's text layer over it, which is the
// real text (selectable, searchable, read by screen readers); the canvas is hidden from them.
function PdfPage({ doc, index, width, render, label, lang, notKept, onRendered }: PdfPageProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const text = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(Math.round(width * 1.294));
  const rendered = useRef(onRendered);
  rendered.current = onRendered;
  useEffect(() => {
    if (!render || width <= 0) return;
    let task: RenderTask | null = null;
    let live = true;
    void (async () => {
      const pdfjs = await loadPdfEngine();
      const page = await doc.getPage(index + 1);
      if (!live) return;
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: width / base.width });
      const ratio = window.devicePixelRatio || 1;
      const c = canvas.current!;
      c.width = Math.floor(viewport.width * ratio);
      c.height = Math.floor(viewport.height * ratio);
      c.style.width = `${Math.floor(viewport.width)}px`;
      c.style.height = `${Math.floor(viewport.height)}px`;
      setHeight(Math.floor(viewport.height));
      task = page.render({
        canvas: c,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      });
      await task.promise.catch(() => undefined);
      if (!live) return;
      const layer = text.current!;
      layer.replaceChildren();
      layer.style.setProperty('--scale-factor', String(viewport.scale));
      layer.style.setProperty('--total-scale-factor', String(viewport.scale));
      const content = await page.getTextContent();
      if (!live) return;
      const textLayer = new pdfjs.TextLayer({
        textContentSource: content,
        container: layer,
        viewport,
      });
      await textLayer.render();
      if (!live) return;
      addSeparators(textItems(content.items), textLayer.textDivs);
      rendered.current?.(layer);
    })();
    return () => {
      live = false;
      task?.cancel();
    };
  }, [doc, index, width, render]);
  return (
    <section className="pdf-page" data-page={index} aria-label={label} style={{ width, height }}>
      <canvas ref={canvas} />
      <div ref={text} className="textLayer" lang={lang} />
      {notKept ? <p className="pdf-page__not-kept">{notKept}</p> : null}
    </section>
  );
}

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
  // The width that fits the area, and what the readable zoom is worked out from: the size of
  // the running text of the page opened first and that page's width (issue 38).
  const [fitWidth, setFitWidth] = useState(0);
  const [textSize, setTextSize] = useState<{ body: number | null; pageWidth: number } | null>(null);
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

  useEffect(() => {
    const el = box.current!;
    const measure = () => setFitWidth(Math.max(200, el.clientWidth - 32));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const opened = useRef(startPage);
  useEffect(() => {
    if (!doc) return;
    let live = true;
    const at = Math.min(Math.max(0, opened.current), doc.numPages - 1);
    void doc
      .getPage(at + 1)
      .then(async (first) => {
        const content = await first.getTextContent();
        return {
          body: pdfBodyTextSize(textItems(content.items)),
          pageWidth: first.getViewport({ scale: 1 }).width,
        };
      })
      .catch(() => ({ body: null, pageWidth: 0 }))
      .then((size) => {
        if (live) setTextSize(size);
      });
    return () => {
      live = false;
    };
  }, [doc]);
  const readable = textSize
    ? readablePdfZoom({ pageWidth: textSize.pageWidth, fitWidth, bodyTextSize: textSize.body })
    : null;
  const readableZoom = useRef(onReadableZoom);
  readableZoom.current = onReadableZoom;
  useEffect(() => {
    if (readable !== null) readableZoom.current?.(readable);
  }, [readable]);
  // Nothing is drawn until the readable zoom is known: the page is drawn once, at its size.
  const width = readable === null ? 0 : fitWidth * (zoom ?? readable);

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
  // A page wider than the area opens at its text's left edge, not at its blank margin (issue
  // 38): once for each width it is drawn at, so a pan the reader made stays as it is.
  const alignedAt = useRef(0);
  const alignToText = (layer: HTMLDivElement) => {
    const el = box.current;
    if (!el || alignedAt.current === width || el.scrollWidth <= el.clientWidth) return;
    alignedAt.current = width;
    const left = Math.min(
      ...[...layer.querySelectorAll('span')]
        .filter((span) => span.textContent?.trim())
        .map((span) => span.getBoundingClientRect().left),
    );
    const offset = left - el.getBoundingClientRect().left + el.scrollLeft;
    if (Number.isFinite(offset)) el.scrollLeft = Math.max(0, offset - 12);
  };
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
