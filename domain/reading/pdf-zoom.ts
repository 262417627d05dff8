// How large a PDF page is drawn (issue 38: a PDF is readable on a phone). A page fitted to a
// phone's width draws an 11-point text at 5 or 6 CSS pixels: unreadable. So the page opens at
// the zoom that draws its body text at READABLE_TEXT_PX at least, wider than the screen, and
// the reader pans sideways; on a screen wide enough, that is the page fitted to its width.
// Zoom is a multiple of the width that fits: 1 is "fit width", never less.
import type { PdfTextItem } from './pdf-text-items.ts';

/** The smallest size, in CSS pixels, at which a page's running text is read (issue 38). */
export const READABLE_TEXT_PX = 12;
/** One step of the Zoom in and Zoom out buttons. */
export const PDF_ZOOM_STEP = 0.25;
const MAX_ZOOM = 4;

/**
 * The size of a page's running text, in page units: the text height that carries the most
 * characters (headings, footnotes and the page number carry fewer). Null for a page without
 * text (a scan), which then fits the width.
 */
export function pdfBodyTextSize(items: readonly PdfTextItem[]): number | null {
  const characters = new Map<number, number>();
  for (const item of items) {
    const height = Math.round((item.height ?? 0) * 10) / 10;
    const count = item.str.trim().length;
    if (height > 0 && count > 0) characters.set(height, (characters.get(height) ?? 0) + count);
  }
  let body: number | null = null;
  for (const [height, count] of characters)
    if (
      body === null ||
      count > characters.get(body)! ||
      (count === characters.get(body) && height < body)
    )
      body = height;
  return body;
}

/**
 * The zoom a page opens at: the one that draws its running text at READABLE_TEXT_PX, or 1 (the
 * page fitted to `fitWidth` CSS pixels) when that already does, or when it has no text.
 */
export function readablePdfZoom(input: {
  pageWidth: number;
  fitWidth: number;
  bodyTextSize: number | null;
}): number {
  const { pageWidth, fitWidth, bodyTextSize } = input;
  if (!bodyTextSize || pageWidth <= 0 || fitWidth <= 0) return 1;
  const fitted = (bodyTextSize * fitWidth) / pageWidth;
  return Math.max(1, READABLE_TEXT_PX / fitted);
}

/** The zooms a reader may choose: from the width that fits to twice the readable one, or 4. */
export function pdfZoomRange(readable: number): { min: number; max: number } {
  return { min: 1, max: Math.max(MAX_ZOOM, Math.ceil(readable * 2)) };
}
