import { type RefObject, useCallback, useState } from 'react';
import { findOccurrences } from '#domain/reading/text-search.ts';
import type { ReaderApi } from '#web/utils/reader-api.ts';
import { clearHit } from '#web/utils/text-ranges.client.ts';
import type { PdfHandle } from './pdf-view.tsx';
import type { ReaderHit } from './reader-search.tsx';

/** A promise and its resolve, for waiting on something a child reports once. */
function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * Search in the book (issue 5): an EPUB's text on the server; a PDF's pages in the browser, as
 * pdf.js reads them, once it has opened the file (`onPdfReady`). Up to 100 hits.
 */
export function useBookSearch({
  api,
  isPdf,
  pdf,
}: {
  api: ReaderApi;
  isPdf: boolean;
  pdf: RefObject<PdfHandle | null>;
}) {
  // Search in a PDF waits for pdf.js to have opened it (a search made sooner found nothing).
  const [pdfReady] = useState(deferred);

  const search = useCallback(
    async (query: string): Promise<ReaderHit[]> => {
      // A new search unmarks the last hit.
      clearHit();
      if (!isPdf) return api.search(query);
      await pdfReady.promise;
      const texts = (await pdf.current?.pageTexts()) ?? [];
      const hits: ReaderHit[] = [];
      texts.forEach((text, page) => {
        for (const hit of findOccurrences(text, query, 100 - hits.length))
          hits.push({ part: page, ...hit });
      });
      return hits;
    },
    [api, isPdf, pdfReady, pdf],
  );
  return { search, onPdfReady: pdfReady.resolve };
}
