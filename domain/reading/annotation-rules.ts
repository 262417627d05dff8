// What a reader's highlights and bookmarks may be (issue 16, study tools). The rules the
// service, the API's validation and the reader's buttons all ask.

export const ANNOTATION_KINDS = ['highlight', 'bookmark'] as const;
export type AnnotationKind = (typeof ANNOTATION_KINDS)[number];

/** Highlight colours, each with a name a screen reader says (the reader's messages). */
export const HIGHLIGHT_COLOURS = ['yellow', 'green', 'blue', 'pink', 'purple'] as const;
export type HighlightColour = (typeof HIGHLIGHT_COLOURS)[number];
export const DEFAULT_HIGHLIGHT_COLOUR: HighlightColour = 'yellow';

/** The longest note on a highlight, in characters. */
export const NOTE_MAX_LENGTH = 5000;
/** How many highlights and bookmarks one reader keeps in one book. */
export const ANNOTATIONS_PER_BOOK = 5000;

/**
 * A highlight has a colour (the default when none is given) and may have a note; a bookmark
 * has neither. A note is trimmed, and an empty one is no note.
 */
export function annotationFields(
  kind: AnnotationKind,
  given: { colour?: HighlightColour | null; note?: string | null },
): { colour: HighlightColour | null; note: string | null } {
  if (kind === 'bookmark') return { colour: null, note: null };
  const note = given.note?.trim() ?? '';
  return {
    colour: given.colour ?? DEFAULT_HIGHLIGHT_COLOUR,
    note: note ? note.slice(0, NOTE_MAX_LENGTH) : null,
  };
}

/**
 * The annotation already there for this passage, if any (issue 16): a bookmark of the same
 * place, or a highlight of exactly the same words. A second one would only hide the first.
 */
export function sameAnnotation<
  T extends { kind: AnnotationKind; part: number; located: { start: number; end: number } | null },
>(list: readonly T[], kind: AnnotationKind, at: { part: number; start: number; end: number }) {
  return list.find(
    (a) =>
      a.kind === kind &&
      a.part === at.part &&
      a.located?.start === at.start &&
      (kind === 'bookmark' || a.located?.end === at.end),
  );
}
