import type { PrintPosition } from '#domain/reading/print-pages.ts';
import { characterBoundary } from '#web/utils/text-ranges.client.ts';

/**
 * The HTML of the pages of an EPUB the server allowed to print (issue 13): from the start of
 * the first page to the start of the page after the last (or the book's end), taken out of
 * the rendered chapters it runs through, so the printout holds what was counted and no more.
 */
export async function epubPrintHtml(
  span: { start: PrintPosition; end: PrintPosition | null },
  partCount: number,
  partHtml: (part: number) => Promise<string>,
): Promise<string> {
  const { start, end } = span;
  // A page that starts at the very beginning of a part ends the part before it.
  const atPartStart = (p: PrintPosition) => p.anchor === null && p.characters === 0;
  const last = end === null ? partCount - 1 : atPartStart(end) ? end.part - 1 : end.part;
  const out = document.createElement('div');
  for (let part = start.part; part <= last; part++) {
    const template = document.createElement('template');
    template.innerHTML = await partHtml(part);
    const root = template.content;
    const range = (root.ownerDocument ?? document).createRange();
    range.selectNodeContents(root);
    if (part === start.part) setBoundary(range, root, start, 'start');
    if (end && part === end.part) setBoundary(range, root, end, 'end');
    out.append(range.cloneContents());
  }
  return out.innerHTML;
}

function setBoundary(
  range: Range,
  root: DocumentFragment,
  position: PrintPosition,
  which: 'start' | 'end',
) {
  if (position.anchor !== null) {
    const element = root.getElementById(position.anchor);
    if (!element) return;
    if (which === 'start') range.setStartBefore(element);
    else range.setEndBefore(element);
    return;
  }
  if (position.characters === 0) {
    if (which === 'end') range.collapse(true);
    return;
  }
  const boundary = characterBoundary(root, position.characters);
  if (!boundary) {
    if (which === 'start') range.collapse(false);
    return;
  }
  if (which === 'start') range.setStart(boundary.node, boundary.offset);
  else range.setEnd(boundary.node, boundary.offset);
}
