// The length of the text on each page of a PDF, read on the server with pdf.js (the same
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

export async function pdfPageTextLengths(data: Buffer): Promise<number[]> {
  const document = await openPdf(data);
  try {
    const lengths: number[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      lengths.push(normalizedLength(pdfPageText(textItems(content.items))));
      page.cleanup();
    }
    return lengths;
  } finally {
    await document.destroy();
  }
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
