// The reader's selection in the book (issue 5 copying, issue 16 highlights).

/**
 * The text of the book the reader has selected: only what lies inside the reading area
 * (`within`), as the browser would copy it; '' when none of the book is selected.
 */
export function selectedBookText(within: Element | null): string {
  const selection = window.getSelection();
  if (!within || !selection || selection.rangeCount === 0) return '';
  const range = selection.getRangeAt(0);
  if (range.collapsed || !range.intersectsNode(within)) return '';
  if (within.contains(range.commonAncestorContainer)) return selection.toString();
  return clippedTo(range, within).toString();
}

/** The part of `range` inside `within`. */
export function clippedTo(range: Range, within: Element): Range {
  const area = document.createRange();
  area.selectNodeContents(within);
  const clipped = range.cloneRange();
  if (clipped.compareBoundaryPoints(Range.START_TO_START, area) < 0)
    clipped.setStart(area.startContainer, area.startOffset);
  if (clipped.compareBoundaryPoints(Range.END_TO_END, area) > 0)
    clipped.setEnd(area.endContainer, area.endOffset);
  return clipped;
}
