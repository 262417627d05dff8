// Search in a book's text (issue 5), the same rule on the server (EPUB chapters) and in the
// browser (PDF pages, and finding a hit again in the page's text): case and accents do not
// matter (« evolution » finds « Évolution »), and any run of white space matches any other, so
// a line break in the book matches a space.

export type Occurrence = { occurrence: number; before: string; match: string; after: string };

const CONTEXT = 60;

/**
 * One character as search compares it: in lower case and without its accents (é → e), each
 * only where the character stays one character, so offsets in the text never drift.
 */
export function foldChar(ch: string): string {
  const lower = ch.toLowerCase();
  const one = lower.length === ch.length ? lower : ch;
  const bare = one.normalize('NFD').replace(/\p{M}+/gu, '');
  return bare.length === one.length ? bare : one;
}

/** A text as search compares it, character for character (same length). */
export function foldForSearch(text: string): string {
  let out = '';
  for (const ch of text) out += foldChar(ch);
  return out;
}

export function normalizeForSearch(text: string): string {
  return foldForSearch(text.replace(/\s+/g, ' '));
}

/** Where the query occurs in `text` (in order, at most `max`), with some text around each. */
export function findOccurrences(text: string, query: string, max = 100): Occurrence[] {
  const needle = normalizeForSearch(query).trim();
  if (needle.length === 0 || max <= 0) return [];
  const shown = text.replace(/\s+/g, ' ');
  // Folded character for character: the same length, so a hit's offsets are the text's.
  const comparable = foldForSearch(shown);
  const out: Occurrence[] = [];
  let from = 0;
  while (out.length < max) {
    const at = comparable.indexOf(needle, from);
    if (at < 0) break;
    const end = at + needle.length;
    // The text around a hit is cut between words, with an ellipsis where the text goes on.
    const [contextFrom, to] = wholeWords(
      shown,
      Math.max(0, at - CONTEXT),
      Math.min(shown.length, end + CONTEXT),
      {
        keep: [at, end],
      },
    );
    out.push({
      occurrence: out.length,
      before: `${contextFrom > 0 ? '…' : ''}${shown.slice(contextFrom, at).trimStart()}`,
      match: shown.slice(at, end),
      after: `${shown.slice(end, to).trimEnd()}${to < shown.length ? '…' : ''}`,
    });
    from = end;
  }
  return out;
}

const isSpace = (ch: string | undefined) => ch === undefined || /\s/.test(ch);

/**
 * The part of `text` from `start` to `end` made of whole words (a search hit's context, a
 * bookmark's first words): an end inside a word moves back to the word's start, a start
 * inside a word forward past it; never into `keep` (the hit itself), and a range that would
 * hold no word at all (one long word) is kept as it was.
 */
export function wholeWords(
  text: string,
  start: number,
  end: number,
  { keep }: { keep?: [number, number] } = {},
): [number, number] {
  let from = start;
  let to = end;
  const keepFrom = keep?.[0] ?? end;
  const keepTo = keep?.[1] ?? start;
  if (!isSpace(text[from - 1]) && !isSpace(text[from])) {
    while (from < keepFrom && !isSpace(text[from])) from += 1;
  }
  if (!isSpace(text[to - 1]) && !isSpace(text[to])) {
    while (to > keepTo && to > from && !isSpace(text[to - 1])) to -= 1;
  }
  if (!keep && !text.slice(from, to).trim()) return [start, end];
  return [from, to];
}

/**
 * A text as it reads, its white space runs one space (a book's source lines and indents mean
 * nothing), and at most `max` characters of it cut between words, with an ellipsis: a quote or
 * a note said aloud or shown in a message.
 */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  return `${flat.slice(0, wholeWords(flat, 0, max)[1]).trimEnd()}…`;
}
