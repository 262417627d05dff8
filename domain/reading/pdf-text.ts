// The text on each page of a PDF, and its length, read on the server with pdf.js (the same
// engine the browser reader uses), so DRM limits are shares of the real text. Loaded only
// when a PDF is first measured; the result is stored (book_file_metrics).
import { pdfPageText, textItems } from './pdf-text-items.ts';
import { normalizedLength } from './xhtml-content.ts';

/** A PDF opened with pdf.js on the server: no eval, no fonts, nothing logged. */
async function openPdf(data: Buffer) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs.getDocument({
    data: new Uint8Array(data),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
}

/**
 * The text of each page, as the reader's text layer holds it (pdf-text-items.ts): what the
 * DRM limits share out, and what a highlight on a page is anchored in (text-anchor.ts).
 */
export async function pdfPageTexts(data: Buffer): Promise<string[]> {
  const document = await openPdf(data);
  try {
    const texts: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      texts.push(pdfPageText(textItems(content.items)));
      page.cleanup();
    }
    return texts;
  } finally {
    await document.destroy();
  }
}

export async function pdfPageTextLengths(data: Buffer): Promise<number[]> {
  return (await pdfPageTexts(data)).map(normalizedLength);
}

/** The labels a PDF prints on its pages (its /PageLabels: "i", "ii", "1"…), null when none. */
export async function pdfPageLabels(data: Buffer): Promise<string[] | null> {
  const document = await openPdf(data);
  try {
    return await document.getPageLabels();
  } finally {
    await document.destroy();
  }
}
