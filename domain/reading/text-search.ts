// Search in a book's text (issue 5), the same rule on the server (EPUB chapters) and in the
// browser (PDF pages, and finding a hit again in the page's text): case does not matter and
// any run of white space matches any other, so a line break in the book matches a space.

export type Occurrence = { occurrence: number; before: string; match: string; after: string };

const CONTEXT = 60;

export function normalizeForSearch(text: string): string {
  return text.replace(/\s+/g, ' ').toLowerCase();
}

/** Where the query occurs in `text` (in order, at most `max`), with some text around each. */
export function findOccurrences(text: string, query: string, max = 100): Occurrence[] {
  const needle = normalizeForSearch(query).trim();
  if (needle.length === 0 || max <= 0) return [];
  const shown = text.replace(/\s+/g, ' ');
  const haystack = shown.toLowerCase();
  // Lower-casing keeps lengths for almost every script; where it does not, offsets would
  // drift, so such a text is searched as it is written.
  const comparable = haystack.length === shown.length ? haystack : shown;
  const out: Occurrence[] = [];
  let from = 0;
  while (out.length < max) {
    const at = comparable.indexOf(needle, from);
    if (at < 0) break;
    const end = at + needle.length;
    out.push({
      occurrence: out.length,
      before: shown.slice(Math.max(0, at - CONTEXT), at).trimStart(),
      match: shown.slice(at, end),
      after: shown.slice(end, end + CONTEXT).trimEnd(),
    });
    from = end;
  }
  return out;
}
