import { type RefObject, useEffect, useRef } from 'react';
import type { ReaderPart } from '#domain/reading/types.ts';

// Where the book's text is on screen (issue 16): what highlights are painted on, what a
// selection, a bookmark and read aloud are measured in.

/** The chapter's text in the reading area, if an EPUB chapter is shown. */
export function chapterTextIn(area: Element | null): Element | null {
  return area?.querySelector('section.reader-text') ?? null;
}

/**
 * The parts on screen now, each with the element its text is in: the chapter shown, each
 * page of a fixed-layout spread, or each PDF page drawn (its text layer).
 */
export function shownTextRoots(
  area: Element | null,
  isPdf: boolean,
  part: ReaderPart | null,
): [number, Element][] {
  if (!area) return [];
  if (isPdf)
    return [...area.querySelectorAll<HTMLElement>('.pdf-page[data-page]')].flatMap((page) => {
      const layer = page.querySelector('.textLayer');
      return layer?.hasChildNodes()
        ? [[Number(page.dataset.page), layer] as [number, Element]]
        : [];
    });
  const fixedPages = [...area.querySelectorAll<HTMLElement>('.reader-fixed__page[data-part]')];
  if (fixedPages.length > 0)
    return fixedPages.map((page) => [Number(page.dataset.part), page] as [number, Element]);
  const chapter = chapterTextIn(area);
  return chapter && part ? [[part.index, chapter]] : [];
}

/**
 * Issue 38: on a small phone the store's header and the book's title fill the first screen. A
 * PDF opens with its text in view, as a place a tool opens does, when the person has not
 * scrolled yet and its first line would be below the screen.
 */
export function usePdfTextInView(
  area: RefObject<HTMLElement | null>,
  isPdf: boolean,
  layersDrawn: number,
): void {
  const textInView = useRef(false);
  useEffect(() => {
    if (!isPdf || layersDrawn === 0 || textInView.current) return;
    textInView.current = true;
    const line = area.current?.querySelector('.textLayer span');
    if (!line || window.scrollY > 0) return;
    if (line.getBoundingClientRect().bottom <= window.innerHeight) return;
    document.querySelector('.reader__main')?.scrollIntoView({ block: 'start' });
  }, [isPdf, layersDrawn, area]);
}
