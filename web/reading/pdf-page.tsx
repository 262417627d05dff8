import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';
import { type PdfTextItem, pdfItemSeparator, textItems } from '#domain/reading/pdf-text-items.ts';
import { loadPdfEngine } from '#web/utils/pdf-engine.client.ts';

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
export function PdfPage({
  doc,
  index,
  width,
  render,
  label,
  lang,
  notKept,
  onRendered,
}: PdfPageProps) {
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
