import { type RefObject, useCallback, useEffect, useState } from 'react';
import {
  HIGHLIGHT_COLOURS,
  type HighlightColour,
  sameAnnotation,
} from '#domain/reading/annotation-rules.ts';
import type { Annotation } from '#domain/reading/annotations.ts';
import type { ReaderSettings } from '#domain/reading/reader-settings.ts';
import { excerpt, wholeWords } from '#domain/reading/text-search.ts';
import type { ReaderPart } from '#domain/reading/types.ts';
import { useT } from '#web/i18n/use-t.ts';
import type { ReaderApi } from '#web/utils/reader-api.ts';
import { offsetsOfRange, rangeAtOffsets, textOf } from '#web/utils/text-ranges.client.ts';
import type { PartStart, ViewHandle, ViewLocation } from './epub-view.tsx';
import { clippedTo } from './selected-text.ts';

type NotesFormat = Parameters<ReaderApi['exportNotes']>[0];

/**
 * The reader's notebook (issue 16, study tools): the highlights and bookmarks the reader made,
 * from the server, painted on the parts shown; highlighting the selection, bookmarking the
 * page, moving between highlights, notes, removing and exporting.
 */
export function useNotebook({
  api,
  say,
  isPdf,
  fixed,
  part,
  location,
  settings,
  layersDrawn,
  epub,
  shownRoots,
  partRoot,
  chapterText,
  textOptions,
  partTitle,
  openPart,
  refused,
  setUsed,
}: {
  api: ReaderApi;
  say(text: string): void;
  isPdf: boolean;
  fixed: boolean;
  part: ReaderPart | null;
  location: ViewLocation & { part: number };
  /** The chapter's view appears once the settings are known: its highlights are painted then. */
  settings: ReaderSettings | null;
  /** How many PDF text layers were drawn: a page's highlights are painted once it is. */
  layersDrawn: number;
  epub: RefObject<ViewHandle | null>;
  /** The parts on screen now, each with the element its text is in. */
  shownRoots(): [number, Element][];
  partRoot(index: number): Element | null;
  chapterText(): Element | null;
  textOptions: { lineBreaks: boolean };
  partTitle(index: number): string;
  openPart(index: number, where: PartStart): Promise<void>;
  /** What a call the server refused does: the book closes, or the reader is told why. */
  refused(error: unknown): void;
  setUsed(update: (old: { copy: number; print: number }) => { copy: number; print: number }): void;
}) {
  const t = useT();
  // Highlights and bookmarks (issue 16, study tools): the reader's own, from the server.
  const [annotations, setAnnotations] = useState<Annotation[] | null>(null);
  // Read again once what was made offline is saved (its temporary ids become the server's).
  const [notesSaved, setNotesSaved] = useState(0);
  const onNotesSaved = useCallback(() => setNotesSaved((n) => n + 1), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: notesSaved asks for the list again
  useEffect(() => {
    api.annotations().then(setAnnotations, () => setAnnotations([]));
  }, [api, notesSaved]);

  // Each colour's highlights of the parts shown, painted by the browser (CSS Custom Highlight
  // API), so the book's text and its selection stay as they are.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the chapter's view appears once the settings are known, a PDF page's text once drawn
  useEffect(() => {
    if (typeof CSS === 'undefined' || !('highlights' in CSS)) return;
    for (const colour of HIGHLIGHT_COLOURS) CSS.highlights.delete(`reader-hl-${colour}`);
    if (!annotations) return;
    const shown = new Map<number, Element>(shownRoots());
    const byColour = new Map<string, Range[]>();
    for (const annotation of annotations) {
      const root = shown.get(annotation.part);
      if (annotation.kind !== 'highlight' || !root || !annotation.located) continue;
      const { start, end } = annotation.located;
      const range = rangeAtOffsets(root, start, end, textOptions);
      const colour = annotation.colour ?? 'yellow';
      if (range) byColour.set(colour, [...(byColour.get(colour) ?? []), range]);
    }
    for (const [colour, ranges] of byColour)
      CSS.highlights.set(`reader-hl-${colour}`, new Highlight(...ranges));
  }, [annotations, part, settings, isPdf, layersDrawn]);
  const inOrder = (list: Annotation[]) =>
    [...list].sort(
      (a, b) => a.part - b.part || (a.located?.start ?? 0) - (b.located?.start ?? 0) || a.id - b.id,
    );
  const addAnnotation = (
    kind: 'highlight' | 'bookmark',
    where: { part: number; start: number; end: number },
    colour?: HighlightColour,
  ) => {
    // The words, shown in the notebook until a highlight made offline is saved.
    const root = partRoot(where.part);
    const exact = (root ? textOf(root, textOptions) : '').slice(where.start, where.end);
    api.addAnnotation({ kind, ...where, colour, exact }).then((made) => {
      setAnnotations((list) => inOrder([...(list ?? []), made]));
      say(
        kind === 'bookmark'
          ? t('reader.notebook.bookmarked')
          : t('reader.notebook.highlighted', { colour: t(`reader.colour.${colour ?? 'yellow'}`) }),
      );
    }, refused);
  };
  /** The part the selection starts in, and the offsets of what it selects in that part. */
  const selectedPassage = (): { part: number; start: number; end: number } | null => {
    const selection = window.getSelection();
    if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
    const range = selection.getRangeAt(0);
    // A selection across pages (of a spread, of a PDF) keeps to the first page it touches.
    const first = shownRoots().find(([, root]) => range.intersectsNode(root));
    if (!first) return null;
    const [page, layer] = first;
    const offsets = offsetsOfRange(layer, clippedTo(range, layer), textOptions);
    return offsets ? { part: page, ...offsets } : null;
  };
  const highlightSelection = (colour: HighlightColour) => {
    const passage = selectedPassage();
    if (!passage) {
      say(t('reading.annotations.noPassage'));
      return;
    }
    window.getSelection()?.removeAllRanges();
    // The same words highlighted again: a second highlight over the first would only hide it.
    const same = sameAnnotation(annotations ?? [], 'highlight', passage);
    // Highlighted again in another colour, it takes that colour.
    if (same) {
      if (same.colour === colour) {
        say(t('reader.notebook.alreadyHighlighted', { colour: t(`reader.colour.${colour}`) }));
        return;
      }
      api.changeAnnotation(same.id, { colour }).then((changed) => {
        setAnnotations((list) =>
          (list ?? []).map((item) => (item.id === changed.id ? changed : item)),
        );
        say(t('reader.notebook.highlighted', { colour: t(`reader.colour.${colour}`) }));
      }, refused);
      return;
    }
    addAnnotation('highlight', passage, colour);
  };
  // A bookmark holds the first words at the top of the page shown.
  const bookmarkPage = () => {
    const index = isPdf ? location.part : part?.index;
    const root = index === undefined ? null : partRoot(index);
    if (index === undefined || !root) return;
    const text = textOf(root, textOptions);
    let start =
      isPdf || fixed
        ? 0
        : Math.min(
            Math.max(0, text.length - 1),
            Math.floor((epub.current?.progression() ?? 0) * text.length),
          );
    while (start > 0 && /\S/.test(text[start - 1] ?? '')) start -= 1;
    while (start < text.length - 1 && /\s/.test(text[start] ?? '')) start += 1;
    // Its first words, whole: ten or so, never a word cut in two.
    const [, end] = wholeWords(text, start, Math.min(text.length, start + 60));
    if (!text.slice(start, end).trim()) {
      say(t(isPdf || fixed ? 'reader.notebook.noTextToBookmark' : 'reading.annotations.noPassage'));
      return;
    }
    // A page bookmarked once is not bookmarked again.
    if (sameAnnotation(annotations ?? [], 'bookmark', { part: index, start, end })) {
      say(t('reader.notebook.alreadyBookmarked'));
      return;
    }
    addAnnotation('bookmark', { part: index, start, end });
  };

  // Moving between highlights (issue 16, by keyboard and screen reader): the one after (or
  // before) the last one moved to, else after the place shown; round at either end. Each is
  // shown and said in words: its colour, chapter, words and note.
  const [lastHighlight, setLastHighlight] = useState<number | null>(null);
  const moveToHighlight = (direction: 1 | -1) => {
    const list = (annotations ?? []).filter(
      (annotation) => annotation.kind === 'highlight' && annotation.located,
    );
    if (list.length === 0) {
      say(t('reader.notebook.noHighlights'));
      return;
    }
    let index = list.findIndex((annotation) => annotation.id === lastHighlight);
    if (index === -1) {
      const shownLength = chapterText()?.textContent?.length ?? 0;
      const here = { part: location.part, offset: Math.floor(location.progression * shownLength) };
      const after = (a: Annotation) =>
        a.part > here.part || (a.part === here.part && a.located!.start >= here.offset);
      index = direction === 1 ? list.findIndex(after) : list.findLastIndex((a) => !after(a));
      if (index === -1) index = direction === 1 ? 0 : list.length - 1;
    } else {
      index = (index + direction + list.length) % list.length;
    }
    const target = list[index]!;
    setLastHighlight(target.id);
    // Said in a few words: a long quote or note is cut (a screen reader reads it all).
    const values = {
      n: index + 1,
      count: list.length,
      colour: t(`reader.colour.${target.colour ?? 'yellow'}`),
      chapter: partTitle(target.part),
      quote: excerpt(target.exact, 160),
      note: excerpt(target.note ?? '', 160),
    };
    void openPart(target.part, { at: 'offset', offset: target.located!.start }).then(() =>
      say(
        target.note
          ? t('reader.notebook.atHighlightNote', values)
          : t('reader.notebook.atHighlight', values),
      ),
    );
  };

  const changeNote = (annotation: Annotation, note: string) => {
    // An empty note is none: nothing to save, or the note there is removed.
    if (!note.trim() && !annotation.note) {
      say(t('reader.notebook.noteEmpty'));
      return;
    }
    api.changeAnnotation(annotation.id, { note: note.trim() ? note : null }).then((changed) => {
      setAnnotations((list) =>
        (list ?? []).map((item) => (item.id === changed.id ? changed : item)),
      );
      say(t(changed.note ? 'reader.notebook.noteSaved' : 'reader.notebook.noteRemoved'));
    }, refused);
  };
  const remove = (annotation: Annotation) =>
    api.removeAnnotation(annotation.id).then(() => {
      setAnnotations((list) => (list ?? []).filter((item) => item.id !== annotation.id));
      say(t('reader.notebook.removed'));
    }, refused);
  const exportNotes = async (format: NotesFormat) => {
    if ((annotations ?? []).length === 0) {
      say(t('reader.notebook.exportNone'));
      return;
    }
    try {
      const made = await api.exportNotes(format);
      saveFile(made.file, made.fileName);
      // The quotes sent count as copying: the Restrictions say so at once.
      const copyUsed = made.copyUsed;
      if (copyUsed !== null) setUsed((old) => ({ ...old, copy: copyUsed }));
      say(
        made.leftOut > 0
          ? t('reader.notebook.exportedLeftOut', {
              count: made.count,
              leftOut: made.leftOut,
            })
          : t('reader.notebook.exported', { count: made.count }),
      );
    } catch (error) {
      refused(error);
    }
  };

  return {
    annotations,
    onNotesSaved,
    highlightSelection,
    bookmarkPage,
    moveToHighlight,
    changeNote,
    remove,
    exportNotes,
  };
}

/** Hands a file the server made to the browser to save (a download, not a new page). */
function saveFile(file: Blob, fileName: string) {
  const href = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
