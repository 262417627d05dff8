// How the text items pdf.js reads from a PDF page join into the page's text (issue 13): the
// same rule for search in the browser, for the text layer a person selects and a hit is found
// in, and for the text the server measures for the DRM limits. pdf.js gives one item per run
// of text and no white space between runs: a line that ends is flagged (hasEOL), and where it
// is not, the items' positions tell whether the next one starts a new line or sits apart.

/** The part of a pdf.js TextItem this rule reads (a marked-content item has no `str`). */
export type PdfTextItem = {
  str: string;
  hasEOL?: boolean;
  /** [a, b, c, d, x, y] of the text's start, in page units. */
  transform?: number[];
  width?: number;
  height?: number;
};

// A gap wider than this share of the font's height is a space (pdf.js itself inserts a space
// from about 0.1 of the font size; a real word space is about 0.25).
const SPACE_GAP = 0.15;
// A baseline that moves more than this share of the font's height is another line.
const LINE_SHIFT = 0.5;

function geometry(item: PdfTextItem) {
  const t = item.transform;
  const height = item.height ?? 0;
  // Upright text only: rotated or vertical text keeps pdf.js's own line ends.
  if (!t || t.length < 6 || t[1] !== 0 || t[2] !== 0 || !(height > 0) || item.str === '')
    return null;
  return { x: t[4]!, y: t[5]!, end: t[4]! + (item.width ?? 0), height };
}

/** The items of getTextContent() that hold text (marked-content boundaries have none). */
export function textItems(items: readonly object[]): PdfTextItem[] {
  return items.filter((item): item is PdfTextItem => 'str' in item);
}

/** What separates `item` from `next` in the page's text: a line break, a space or nothing. */
export function pdfItemSeparator(
  item: PdfTextItem,
  next: PdfTextItem | undefined,
): '' | ' ' | '\n' {
  if (item.hasEOL) return '\n';
  if (!next) return '';
  const a = geometry(item);
  const b = geometry(next);
  if (!a || !b) return '';
  const size = Math.max(a.height, b.height);
  if (Math.abs(b.y - a.y) > LINE_SHIFT * size) return '\n';
  if (/\s$/.test(item.str) || /^\s/.test(next.str)) return '';
  return b.x - a.end > SPACE_GAP * size ? ' ' : '';
}

/** The text of a page from its items, with the white space their positions imply. */
export function pdfPageText(items: readonly PdfTextItem[]): string {
  let text = '';
  items.forEach((item, i) => {
    text += item.str + pdfItemSeparator(item, items[i + 1]);
  });
  return text;
}
