import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { pageAt, printSpan } from '#domain/reading/print-pages.ts';
import type { ReaderPart } from '#domain/reading/types.ts';
import { useT } from '#web/i18n/use-t.ts';
import type { ReaderApi } from '#web/utils/reader-api.ts';
import type { ViewHandle } from './epub-view.tsx';
import type { PdfHandle } from './pdf-view.tsx';
import { epubPrintHtml } from './print-content.client.ts';
import type { ReaderData } from './reader.tsx';

/**
 * What the printer gets: the pages the server allowed, as the PDF's page images or the EPUB's
 * HTML of those pages.
 */
export type Printing = { images: string[]; first: number } | { html: string };

/**
 * Printing from the reader (spec 1 §3 printAllowancePercent, issue 5): the pages asked are
 * counted against the allowance on the server first; what was counted, and nothing else, goes
 * to the printer.
 */
export function useReaderPrinting({
  api,
  view,
  isPdf,
  pdf,
  epub,
  part,
  location,
  setUsed,
  say,
  countingFailed,
}: {
  api: ReaderApi;
  view: ReaderData;
  isPdf: boolean;
  pdf: RefObject<PdfHandle | null>;
  epub: RefObject<ViewHandle | null>;
  part: ReaderPart | null;
  location: { part: number; progression: number };
  setUsed(update: (old: { copy: number; print: number }) => { copy: number; print: number }): void;
  say(text: string): void;
  countingFailed(error: unknown): void;
}) {
  const [printing, setPrinting] = useState<Printing | null>(null);
  const [preparing, setPreparing] = useState(false);
  /** The print page being read (print-pages.ts), and its printed edition's label if any. */
  const currentPrintPage = () => {
    const where = {
      part: location.part,
      progression: isPdf ? 0 : (epub.current?.progression() ?? location.progression),
    };
    const page = pageAt(view.printPages, where, (anchor) => epub.current?.reached(anchor) ?? false);
    const label =
      view.printPages.unit === 'marked' ? (view.printPages.marks[page - 1]?.label ?? null) : null;
    return { page, label };
  };

  async function printPages(from: number, to: number) {
    setPreparing(true);
    try {
      const answer = await api.allow({ kind: 'print', from, to });
      setUsed((old) => ({ ...old, print: answer.used }));
      say(answer.message);
      if (!answer.allowed) return;
      // What was counted, and nothing else, goes to the printer.
      if (isPdf) {
        const images = (await pdf.current?.pageImages(from, to)) ?? [];
        if (images.length > 0) setPrinting({ images, first: from });
      } else {
        const html = await epubPrintHtml(
          printSpan(view.printPages, from, to),
          view.partCount,
          async (index) =>
            part && index === part.index ? part.html : (await api.part(index)).html,
        );
        setPrinting({ html });
      }
    } catch (error) {
      countingFailed(error);
    } finally {
      setPreparing(false);
    }
  }

  return {
    printing,
    preparing,
    printPages,
    currentPrintPage,
    /** The browser's print is over: the pages made for it go. */
    onPrinted: () => setPrinting(null),
  };
}

/** The pages allowed, shown only on paper (app.css: @media print), then printed. */
export function ReaderPrintArea({
  printing,
  lang,
  onPrinted,
}: {
  printing: Printing;
  lang: string | undefined;
  onPrinted(): void;
}) {
  const t = useT();
  const area = useRef<HTMLDivElement>(null);
  const printed = useRef(onPrinted);
  printed.current = onPrinted;
  // Once its pictures are ready, the allowed pages go to the browser's print.
  useEffect(() => {
    if (!printing) return;
    let live = true;
    const done = () => {
      document.body.classList.remove('reader-printing');
      printed.current();
    };
    window.addEventListener('afterprint', done, { once: true });
    const pictures = [...(area.current?.querySelectorAll('img') ?? [])];
    void Promise.all(pictures.map((img) => img.decode().catch(() => undefined))).then(() => {
      if (!live) return;
      document.body.classList.add('reader-printing');
      window.print();
    });
    return () => {
      live = false;
      window.removeEventListener('afterprint', done);
    };
  }, [printing]);

  const printHtml = useMemo(
    () => (printing && 'html' in printing ? { __html: printing.html } : null),
    [printing],
  );
  return (
    <div className="reader-print" ref={area} lang={lang}>
      {'images' in printing ? (
        printing.images.map((src, i) => (
          <img
            key={src}
            src={src}
            alt={t('reader.pageLabel', { page: printing.first + i })}
            style={{ display: 'block', width: '100%', breakAfter: 'page' }}
          />
        ))
      ) : printHtml ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: cut from the chapters rendered from an allow-list on the server (domain/reading/xhtml-content.ts)
        <div dangerouslySetInnerHTML={printHtml} />
      ) : null}
    </div>
  );
}
