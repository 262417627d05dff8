import { type RefObject, useRef } from 'react';
import type { ReaderPart } from '#domain/reading/types.ts';
import { rangeAtOffsets, textOf } from '#web/utils/text-ranges.client.ts';
import type { PartStart, ViewHandle } from './epub-view.tsx';

/**
 * What read aloud (issue 16, reader-read-aloud.tsx) reads, and shows as it reads: the chapter
 * shown from where its page starts, or the PDF page shown from its top; the sentence spoken
 * painted and kept in view; at a chapter's (or a PDF page's) end, the next one.
 */
export function useReadAloudText({
  isPdf,
  part,
  location,
  partCount,
  epub,
  partRoot,
  chapterText,
  textOptions,
  openPart,
}: {
  isPdf: boolean;
  part: ReaderPart | null;
  location: { part: number };
  partCount: number;
  epub: RefObject<ViewHandle | null>;
  partRoot(index: number): Element | null;
  chapterText(): Element | null;
  textOptions: { lineBreaks: boolean };
  openPart(index: number, where: PartStart): Promise<void>;
}) {
  // Read aloud (issue 16): the chapter shown and where its page starts, or the PDF page shown
  // from its top; the sentence spoken painted and kept in view; at a chapter's (or a PDF
  // page's) end, the next one.
  const partNow = useRef(0);
  partNow.current = isPdf ? location.part : (part?.index ?? 0);
  // From the DOM and refs only: read aloud calls these from the render it started in.
  const spokenRoot = () => (isPdf ? partRoot(partNow.current) : chapterText());
  const readingChapter = () => {
    const root = spokenRoot();
    if (!root) return null;
    const text = textOf(root, textOptions);
    return {
      text,
      from: isPdf ? 0 : Math.floor((epub.current?.progression() ?? 0) * text.length),
    };
  };
  const showSpoken = (sentence: { start: number; end: number }) => {
    const root = spokenRoot();
    if (!root) return;
    epub.current?.show(sentence.start);
    if (typeof CSS === 'undefined' || !('highlights' in CSS)) return;
    const range = rangeAtOffsets(root, sentence.start, sentence.end, textOptions);
    if (range) CSS.highlights.set('reader-speaking', new Highlight(range));
  };
  const clearSpoken = () => {
    if (typeof CSS !== 'undefined' && 'highlights' in CSS) CSS.highlights.delete('reader-speaking');
  };
  const readNextChapter = async () => {
    clearSpoken();
    const next = partNow.current + 1;
    if (next >= partCount) return false;
    await openPart(next, { at: 'progression', progression: 0 });
    if (isPdf) {
      partNow.current = next;
      // The page's text is there once pdf.js has drawn its text layer.
      for (let waited = 0; waited < 10_000 && !partRoot(next); waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return true;
  };
  return { readingChapter, showSpoken, clearSpoken, readNextChapter };
}
