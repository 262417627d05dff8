import { type RefObject, useEffect, useState } from 'react';
import { hasPrintedLabels, pageLabel, printedPageAt } from '#domain/reading/print-pages.ts';
import { useT } from '#web/i18n/use-t.ts';
import type { ViewHandle, ViewLocation } from './epub-view.tsx';
import type { ReaderData } from './reader.tsx';

/**
 * What the reader's status says is shown (issue 5, 16): the page of the chapter, the PDF's
 * page, the fixed-layout page or spread, and the printed edition's page when the book has one.
 */
export function useReaderStatus({
  view,
  isPdf,
  fixed,
  shownPages,
  location,
  partTitle,
  epub,
}: {
  view: ReaderData;
  isPdf: boolean;
  fixed: boolean;
  /** The parts shown: one, or the two pages of a fixed-layout spread. */
  shownPages: number[];
  location: ViewLocation & { part: number };
  partTitle(index: number): string;
  epub: RefObject<ViewHandle | null>;
}): { status: string; printedLabel(page: number): string } {
  const t = useT();
  // The printed page shown, worked out once the view has moved (the marks it has reached).
  const [printPage, setPrintPage] = useState<number | null>(null);
  useEffect(() => {
    if (view.printPages.unit === 'pdf') {
      // A PDF's page is the part shown; its label is what the page prints (issue 16).
      if (hasPrintedLabels(view.printPages)) setPrintPage(location.part + 1);
      return;
    }
    if (view.printPages.unit !== 'marked') return;
    setPrintPage(
      printedPageAt(
        view.printPages,
        { part: location.part, progression: location.progression },
        (anchor) => epub.current?.reached(anchor) ?? false,
      ),
    );
  }, [view.printPages, location, epub]);

  const printedLabel = (page: number) => pageLabel(view.printPages, page);
  const screen = isPdf
    ? t('reader.status.pdf', { page: location.part + 1, pages: view.partCount })
    : fixed && shownPages.length === 2
      ? t('reader.status.spread', {
          first: Math.min(...shownPages) + 1,
          last: Math.max(...shownPages) + 1,
          pages: view.partCount,
        })
      : fixed
        ? t('reader.status.pdf', { page: location.part + 1, pages: view.partCount })
        : t('reader.status', {
            page: location.page + 1,
            pages: location.pageCount,
            chapter: partTitle(location.part),
          });
  // A book with a printed edition's pages also says which printed page is shown (issue 16).
  const status =
    hasPrintedLabels(view.printPages) && printPage !== null
      ? t('reader.status.printed', { status: screen, page: printedLabel(printPage) })
      : screen;
  return { status, printedLabel };
}
