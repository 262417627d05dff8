import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { spreadOf } from '#domain/reading/fixed-spreads.ts';
import type { ReaderPart } from '#domain/reading/types.ts';
import { useT } from '#web/i18n/use-t.ts';
import type { ReaderApi } from '#web/utils/reader-api.ts';
import type { PartStart, ViewHandle } from './epub-view.tsx';
import type { PdfHandle } from './pdf-view.tsx';
import type { ReaderData } from './reader.tsx';
import { useNearbyParts } from './use-nearby-parts.ts';
import { useTwoPages } from './use-two-pages.ts';

/**
 * Which part of the book is shown and how the reader moves (issue 5, 16): an EPUB's chapter, a
 * fixed-layout page with its facing page, or a PDF's page; a part opened (the last asked for
 * wins), and the next or previous page, across parts and whole spreads, said at either end.
 */
export function usePartNavigation({
  view,
  api,
  isPdf,
  pdf,
  epub,
  close,
  say,
}: {
  view: ReaderData;
  api: ReaderApi;
  isPdf: boolean;
  pdf: RefObject<PdfHandle | null>;
  epub: RefObject<ViewHandle | null>;
  /** What a part that cannot be fetched does: the book closes, or the reader is told. */
  close(error: unknown): void;
  say(text: string): void;
}) {
  const t = useT();
  const [part, setPart] = useState(view.part);
  // A fixed-layout page (issue 16): the facing page shown beside it.
  const [facing, setFacing] = useState<ReaderPart | null>(null);
  const twoUp = useTwoPages(view.spread);
  const fixed = !!part?.page;
  const spread = useMemo(
    () => (fixed && twoUp && part ? spreadOf(view.spreads, part.index) : part ? [part.index] : []),
    [fixed, twoUp, part, view.spreads],
  );
  // The chapters beside the one shown, fetched ahead: a turn into them waits for no network.
  const partOf = useNearbyParts(api, spread, view.partCount, view.format === 'epub');
  const [start, setStart] = useState<PartStart>({
    at: 'progression',
    progression: view.position.progression,
  });
  const [loadingPart, setLoadingPart] = useState(false);

  const partAsked = useRef(0);
  const openPart = useCallback(
    async (index: number, where: PartStart) => {
      if (isPdf) {
        pdf.current?.goToPage(
          index,
          where.at === 'occurrence'
            ? { query: where.query, occurrence: where.occurrence }
            : undefined,
        );
        return;
      }
      if (index < 0 || index >= view.partCount) return;
      // The last chapter asked for wins: one that comes after it was asked for is not shown.
      const asked = ++partAsked.current;
      if (part && index === part.index) {
        setStart({ ...where });
        return;
      }
      setLoadingPart(true);
      try {
        const next = await partOf(index);
        if (asked !== partAsked.current) return;
        setPart(next);
        setStart(where);
      } catch (error) {
        if (asked === partAsked.current) close(error);
      } finally {
        if (asked === partAsked.current) setLoadingPart(false);
      }
    },
    [partOf, close, isPdf, part, view.partCount, pdf],
  );

  // At either end of the book a turn says so (it did nothing, without a word).
  const next = useCallback(() => {
    if (isPdf) {
      if (pdf.current && !pdf.current.next()) say(t('reader.atEnd'));
      return;
    }
    if (epub.current?.next()) return;
    // A spread turns whole: the page after its last.
    const last = Math.max(part?.index ?? 0, ...spread);
    if (part && last < view.partCount - 1)
      void openPart(last + 1, { at: 'progression', progression: 0 });
    else if (part) say(t('reader.atEnd'));
  }, [isPdf, openPart, part, spread, view.partCount, say, t, epub, pdf]);

  const previous = useCallback(() => {
    if (isPdf) {
      if (pdf.current && !pdf.current.previous()) say(t('reader.atStart'));
      return;
    }
    if (epub.current?.previous()) return;
    const first = Math.min(part?.index ?? 0, ...spread);
    if (part && first > 0) void openPart(first - 1, { at: 'end' });
    else if (part) say(t('reader.atStart'));
  }, [isPdf, openPart, part, spread, say, t, epub, pdf]);

  // The facing page of a spread, fetched beside the page the reader opened.
  useEffect(() => {
    const other = part ? spread.find((index) => index !== part.index) : undefined;
    if (other === undefined) {
      setFacing(null);
      return;
    }
    let current = true;
    partOf(other)
      .then((page) => {
        if (current) setFacing(page);
      })
      .catch(close);
    return () => {
      current = false;
    };
  }, [partOf, close, part, spread]);

  return { part, facing, fixed, spread, start, loadingPart, openPart, next, previous };
}
