// pdf.js, loaded only when a PDF is opened in the reader: its own chunk, and a worker file
// from our origin (so the CSP's script-src 'self' covers it; no blob: or eval needed).
import type * as PdfJs from 'pdfjs-dist';

let engine: Promise<typeof PdfJs> | null = null;
let workerUrl: string | null = null;

/** The worker's script, once pdf.js is loaded (a PDF kept offline keeps it too). */
export function loadedPdfWorker(): string | null {
  return workerUrl;
}

export function loadPdfEngine(): Promise<typeof PdfJs> {
  engine ??= Promise.all([
    import('pdfjs-dist'),
    import('pdfjs-dist/build/pdf.worker.min.mjs?url'),
  ]).then(([pdfjs, worker]) => {
    pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
    workerUrl = worker.default;
    return pdfjs;
  });
  return engine;
}
