// The length of the text on each page of a PDF, read on the server with pdf.js (the same
// engine the browser reader uses), so DRM limits are shares of the real text. Loaded only
// when a PDF is first measured; the result is stored (book_file_metrics).
import { pdfPageText, textItems } from './pdf-text-items.ts';
import { normalizedLength } from './xhtml-content.ts';

export async function pdfPageTextLengths(data: Buffer): Promise<number[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({
    data: new Uint8Array(data),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
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
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({
    data: new Uint8Array(data),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  try {
    return await document.getPageLabels();
  } finally {
    await document.destroy();
  }
}
