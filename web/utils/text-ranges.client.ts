import { normalizeForSearch } from '#domain/reading/text-search.ts';

/**
 * The DOM range of the nth occurrence of `query` in the text under `root`, counted by the
 * same rule as the server's search (domain/reading/text-search.ts): case and white space
 * runs do not matter, so the hit the server listed is the one found here.
 */
export function findInText(root: Node, query: string, occurrence: number): Range | null {
  const needle = normalizeForSearch(query).trim();
  if (!needle) return null;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const chars: string[] = [];
  const where: [Text, number][] = [];
  let lastSpace = false;
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const text = node.data;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      const space = /\s/.test(ch);
      if (space && lastSpace) continue;
      lastSpace = space;
      chars.push(space ? ' ' : ch.toLowerCase());
      where.push([node, i]);
    }
  }
  const haystack = chars.join('');
  let from = 0;
  for (let n = 0; ; n++) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return null;
    if (n === occurrence) {
      const [startNode, startOffset] = where[at]!;
      const [endNode, endOffset] = where[at + needle.length - 1]!;
      const range = document.createRange();
      range.setStart(startNode, startOffset);
      range.setEnd(endNode, endOffset + 1);
      return range;
    }
    from = at + needle.length;
  }
}
