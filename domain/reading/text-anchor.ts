import approxSearch from 'approx-string-match';

// Where a highlight, a note or a bookmark is in a book (issue 16, study tools "kept across
// edits of the same book file"): a place in a part's text, as the W3C Web Annotation model
// anchors one — a text quote (the words, with some of the words before and after) and a text
// position (character offsets, a hint). A new printing of the book that moves or slightly
// changes the words still finds them: first where they were, then wherever the same words are
// with the same surroundings, then the closest approximate match (approx-string-match, Myers'
// algorithm, the one the Hypothesis annotator uses). When nothing close enough is left, the
// anchor is reported as lost, never put on other words.
//
// Offsets count UTF-16 code units of the part's text: the `text` of a rendered part
// (xhtml-content.ts), which is the browser's textContent of the chapter as shown.

/** Characters of context kept on each side of the quote. */
export const CONTEXT_LENGTH = 32;
/** Quotes shorter than this are only found as they are. */
export const MIN_APPROXIMATE_QUOTE = 16;
/** The longest passage one anchor holds (a long highlight is a few paragraphs). */
export const MAX_QUOTE_LENGTH = 5000;

export type TextAnchor = {
  part: number;
  /** Offsets in the part's text when the anchor was made. */
  start: number;
  end: number;
  exact: string;
  prefix: string;
  suffix: string;
};

export type Located = {
  start: number;
  end: number;
  /** False when the words found differ from the quote (an edited passage). */
  exact: boolean;
};

/** The anchor of characters `start` to `end` of a part's text; a RangeError when not a passage. */
export function anchorOf(text: string, part: number, start: number, end: number): TextAnchor {
  if (!Number.isInteger(part) || part < 0) throw new RangeError('part');
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > text.length)
    throw new RangeError('offsets');
  if (end <= start || end - start > MAX_QUOTE_LENGTH) throw new RangeError('length');
  const exact = text.slice(start, end);
  if (!exact.trim()) throw new RangeError('blank');
  return {
    part,
    start,
    end,
    exact,
    prefix: text.slice(Math.max(0, start - CONTEXT_LENGTH), start),
    suffix: text.slice(end, end + CONTEXT_LENGTH),
  };
}

/** How many characters at the end of `a` and `b` agree. */
function commonEnd(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n += 1;
  return n;
}

/** How many characters at the start of `a` and `b` agree. */
function commonStart(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

/**
 * How well a candidate passage of `text` fits the anchor, from 0 to 1: mostly the quote,
 * then its surroundings, then closeness to where it was.
 */
function fitness(
  text: string,
  anchor: Omit<TextAnchor, 'part'>,
  candidate: { start: number; end: number; errors: number },
): number {
  const quote = 1 - candidate.errors / Math.max(1, anchor.exact.length);
  const before = text.slice(Math.max(0, candidate.start - anchor.prefix.length), candidate.start);
  const after = text.slice(candidate.end, candidate.end + anchor.suffix.length);
  const prefix = anchor.prefix ? commonEnd(before, anchor.prefix) / anchor.prefix.length : 1;
  const suffix = anchor.suffix ? commonStart(after, anchor.suffix) / anchor.suffix.length : 1;
  const distance = Math.abs(candidate.start - anchor.start) / Math.max(1, text.length);
  return (50 * quote + 20 * prefix + 20 * suffix + 2 * (1 - distance)) / 92;
}

/**
 * Where the anchored words are in the part's text now, or null when they are gone: more than
 * a quarter of the quote changed, or any of a quote under MIN_APPROXIMATE_QUOTE characters.
 */
export function locate(text: string, anchor: Omit<TextAnchor, 'part'>): Located | null {
  const { exact } = anchor;
  if (!exact) return null;
  if (text.slice(anchor.start, anchor.end) === exact) {
    return { start: anchor.start, end: anchor.end, exact: true };
  }
  // The same words elsewhere (the text before them changed): the best surroundings win.
  const same: { start: number; end: number; errors: number }[] = [];
  for (
    let at = text.indexOf(exact);
    at >= 0 && same.length < 1000;
    at = text.indexOf(exact, at + 1)
  )
    same.push({ start: at, end: at + exact.length, errors: 0 });
  const best = (candidates: { start: number; end: number; errors: number }[]) =>
    candidates.reduce<{ start: number; end: number; errors: number } | null>(
      (chosen, candidate) =>
        !chosen || fitness(text, anchor, candidate) > fitness(text, anchor, chosen)
          ? candidate
          : chosen,
      null,
    );
  const found = best(same);
  if (found) return { start: found.start, end: found.end, exact: true };
  // The words themselves changed a little (a corrected printing). A short quote (a word or
  // two) must be found as it was: one changed letter there is another word.
  if (exact.length < MIN_APPROXIMATE_QUOTE) return null;
  const maxErrors = Math.min(256, Math.floor(exact.length / 4));
  const close = best(approxSearch(text, exact, maxErrors));
  return close ? { start: close.start, end: close.end, exact: false } : null;
}
