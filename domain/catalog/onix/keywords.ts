// Keywords (issue 15: subjects "(BISAC, Thema, keywords)"): a Subject of scheme 20 (EDITEUR
// code list 27, "Keywords") whose SubjectHeadingText holds words or short phrases, several
// of them separated by semicolons. The store searches them (domain/catalog/search.ts), so a
// feed must not be able to grow a product's row or its search entry without bound.

/** Keywords kept per product, the first ones in the feed's order. */
export const MAX_KEYWORDS = 30;

/**
 * The longest keyword kept, in characters. A longer one is not a word or a short phrase but
 * prose, or a list with the wrong separator: it is dropped, not cut, as the reader fixes
 * nothing (the description already carries the publisher's prose).
 */
export const MAX_KEYWORD_LENGTH = 100;

/**
 * A product's keywords from its scheme-20 headings: split on semicolons, spaces collapsed,
 * each once whatever its case (the first spelling wins), at most MAX_KEYWORDS of at most
 * MAX_KEYWORD_LENGTH characters.
 */
export function onixKeywords(headings: readonly string[]): string[] {
  const kept: string[] = [];
  const seen = new Set<string>();
  for (const heading of headings) {
    for (const part of heading.split(';')) {
      if (kept.length === MAX_KEYWORDS) return kept;
      const keyword = part.normalize('NFC').replace(/\s+/g, ' ').trim();
      if (keyword === '' || [...keyword].length > MAX_KEYWORD_LENGTH) continue;
      const key = keyword.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      kept.push(keyword);
    }
  }
  return kept;
}
