import { foldChar, normalizeForSearch } from '#domain/reading/text-search.ts';

/**
 * The DOM range of the nth occurrence of `query` in the text under `root`, counted by the
 * same rule as the server's search (domain/reading/text-search.ts): case and white space
 * runs do not matter, so the hit the server listed is the one found here. In pdf.js's text
 * layer a line ends with a <br> and no space (`lineBreaks`): it counts as white space there,
 * as it does in the page's text the hit was listed from (pdf-text-items.ts).
 */
export function findInText(
  root: Node,
  query: string,
  occurrence: number,
  { lineBreaks = false }: { lineBreaks?: boolean } = {},
): Range | null {
  const needle = normalizeForSearch(query).trim();
  if (!needle) return null;
  const walker = document.createTreeWalker(
    root,
    lineBreaks ? NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT : NodeFilter.SHOW_TEXT,
  );
  const chars: string[] = [];
  const where: [Text, number][] = [];
  let lastSpace = false;
  let lastText: Text | null = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!(node instanceof Text)) {
      // A line break: one space, placed at the end of the text before it.
      if (node.nodeName === 'BR' && lastText && !lastSpace) {
        lastSpace = true;
        chars.push(' ');
        where.push([lastText, Math.max(0, lastText.data.length - 1)]);
      }
      continue;
    }
    lastText = node;
    const text = node.data;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      const space = /\s/.test(ch);
      if (space && lastSpace) continue;
      lastSpace = space;
      chars.push(space ? ' ' : foldChar(ch));
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

const HIT = 'reader-hit';
let focusedHit: { element: HTMLElement; hadTabIndex: boolean; within: HTMLElement } | null = null;

/**
 * Marks a search hit (the CSS highlight the reader styles) until clearHit: the next search or
 * navigation. With `focusIn`, the element around the hit inside it takes the focus, so a
 * keyboard or screen reader user goes on from the hit (the caller has brought it into view).
 */
export function markHit(range: Range, focusIn?: HTMLElement): void {
  clearHit();
  if ('highlights' in CSS) CSS.highlights.set(HIT, new Highlight(range));
  if (!focusIn) return;
  const around = range.startContainer.parentElement;
  const element = around && focusIn.contains(around) ? around : focusIn;
  focusedHit = { element, hadTabIndex: element.hasAttribute('tabindex'), within: focusIn };
  if (!focusedHit.hadTabIndex) element.tabIndex = -1;
  element.focus({ preventScroll: true });
}

/** Unmarks the hit marked last, if any. */
export function clearHit(): void {
  if ('highlights' in CSS) CSS.highlights.delete(HIT);
  if (focusedHit) {
    // The focus stays in the book (on its text area) when the hit it was on is unmarked: a page
    // turned by the keyboard from a hit left it nowhere.
    if (document.activeElement === focusedHit.element && focusedHit.element !== focusedHit.within)
      focusedHit.within.focus({ preventScroll: true });
    if (!focusedHit.hadTabIndex) focusedHit.element.removeAttribute('tabindex');
  }
  focusedHit = null;
}

/**
 * Where the nth character of the text under `root` is, counted as DRM counts characters (a
 * run of white space is one, leading white space none; domain/reading/xhtml-content.ts
 * normalizedLength), moved on to the next word's start if it falls inside a word: the start
 * of a printed page of standard length (domain/reading/print-pages.ts). Null past the end.
 */
export function characterBoundary(root: Node, n: number): { node: Text; offset: number } | null {
  const walker = (root.ownerDocument ?? document).createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let count = 0;
  let lastSpace = true;
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const text = node.data;
    for (let i = 0; i < text.length; i++) {
      const space = /\s/.test(text[i]!);
      if (space && lastSpace) continue;
      if (count >= n && (space || lastSpace)) return { node, offset: i };
      count += 1;
      lastSpace = space;
    }
  }
  return null;
}

/**
 * The DOM range of characters `start` to `end` of the text under `root` (its textContent, the
 * text a highlight's offsets count: domain/reading/text-anchor.ts); null when out of it. In
 * pdf.js's text layer (`lineBreaks`) each <br> is the line break of the page's text
 * (pdf-text-items.ts), one character.
 */
export function rangeAtOffsets(
  root: Node,
  start: number,
  end: number,
  { lineBreaks = false }: { lineBreaks?: boolean } = {},
): Range | null {
  if (!(start >= 0 && end > start)) return null;
  const walker = document.createTreeWalker(
    root,
    lineBreaks ? NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT : NodeFilter.SHOW_TEXT,
  );
  const range = document.createRange();
  let seen = 0;
  let started = false;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!(node instanceof Text)) {
      if (node.nodeName !== 'BR') continue;
      if (!started && start <= seen) {
        range.setStartBefore(node);
        started = true;
      }
      seen += 1;
      if (started && end <= seen) {
        range.setEndAfter(node);
        return range;
      }
      continue;
    }
    const length = node.data.length;
    if (!started && start < seen + length) {
      range.setStart(node, start - seen);
      started = true;
    }
    if (started && end <= seen + length) {
      range.setEnd(node, end - seen);
      return range;
    }
    seen += length;
  }
  return null;
}

/**
 * Where a selection's range lies in the text under `root`, in characters; null when outside.
 * With `lineBreaks`, each <br> before a point counts one character, as in rangeAtOffsets.
 */
export function offsetsOfRange(
  root: Node,
  range: Range,
  { lineBreaks = false }: { lineBreaks?: boolean } = {},
): { start: number; end: number } | null {
  if (!root.contains(range.startContainer) || !root.contains(range.endContainer)) return null;
  const before = document.createRange();
  before.setStart(root, 0);
  before.setEnd(range.startContainer, range.startOffset);
  const breaks = (within: Range) =>
    lineBreaks && root instanceof Element
      ? [...root.querySelectorAll('br')].filter((br) => within.intersectsNode(br)).length
      : 0;
  const start = before.toString().length + breaks(before);
  const end = start + range.toString().length + breaks(range);
  return end > start ? { start, end } : null;
}

/** The text under `root` as rangeAtOffsets counts it: with `lineBreaks`, a <br> is a "\n". */
export function textOf(root: Node, { lineBreaks = false }: { lineBreaks?: boolean } = {}): string {
  if (!lineBreaks) return root.textContent ?? '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node instanceof Text) text += node.data;
    else if (node.nodeName === 'BR') text += '\n';
  }
  return text;
}
