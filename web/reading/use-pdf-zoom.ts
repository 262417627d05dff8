import type { PDFDocumentProxy } from 'pdfjs-dist';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { textItems } from '#domain/reading/pdf-text-items.ts';
import { pdfBodyTextSize, readablePdfZoom } from '#domain/reading/pdf-zoom.ts';

/**
 * A PDF page's zoom (issue 38): the width its pages are drawn at, in CSS px, and the pan to its
 * text. `zoom` multiplies the width that fits the area `box`; null is the readable zoom
 * (domain/reading/pdf-zoom.ts), worked out from the page opened first and reported to the
 * reader's zoom buttons (reader-zoom.tsx) through `onReadableZoom`. The width is 0 until that
 * zoom is known, so that a page is drawn once, at its size.
 */
export function usePdfZoom({
  box,
  doc,
  startPage,
  zoom,
  onReadableZoom,
}: {
  box: RefObject<HTMLElement | null>;
  doc: PDFDocumentProxy | null;
  startPage: number;
  zoom: number | null;
  onReadableZoom?(zoom: number): void;
}): { width: number; alignToText(layer: HTMLElement): void } {
  // The width that fits the area, and what the readable zoom is worked out from: the size of
  // the running text of the page opened first and that page's width (issue 38).
  const [fitWidth, setFitWidth] = useState(0);
  const [textSize, setTextSize] = useState<{ body: number | null; pageWidth: number } | null>(null);
  useEffect(() => {
    const el = box.current!;
    const measure = () => setFitWidth(Math.max(200, el.clientWidth - 32));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [box]);

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

  // A page wider than the area opens at its text's left edge, not at its blank margin (issue
  // 38): once for each width it is drawn at, so a pan the reader made stays as it is.
  const alignedAt = useRef(0);
  const alignToText = (layer: HTMLElement) => {
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
  return { width, alignToText };
}
