import { describe, expect, it } from 'vitest';
import { buildPdf } from '#db/seed/content/pdf.ts';
import { offlinePagesOf } from './offline.ts';
import { pdfWithPagesKept } from './pdf-share.ts';
import { pdfPageTexts } from './pdf-text.ts';

// Issue 16, offline reading of a PDF: the copy a device keeps holds the share's pages and
// nothing else of the book, each page in its place.

const book = buildPdf({
  title: 'Cells',
  author: 'A',
  pages: [['First page words'], ['Second page words'], ['Third page words'], ['Fourth page']],
});

async function pageSizes(data: Uint8Array): Promise<number[][]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({ data: new Uint8Array(data), verbosity: 0 }).promise;
  const sizes: number[][] = [];
  for (let n = 1; n <= document.numPages; n++)
    sizes.push((await document.getPage(n)).getViewport({ scale: 1 }).viewBox);
  await document.destroy();
  return sizes;
}

describe('the PDF a device keeps for reading offline (spec 1 §3 offlinePercent)', () => {
  it('has every page in its place, the kept ones whole and the others blank', async () => {
    const kept = await pdfWithPagesKept(book, [1, 2]);
    const texts = await pdfPageTexts(Buffer.from(kept));
    expect(texts).toHaveLength(4);
    expect(texts[0]).toBe('');
    expect(texts[1]).toContain('Second page words');
    expect(texts[2]).toContain('Third page words');
    expect(texts[3]).toBe('');
    expect(await pageSizes(kept)).toEqual(await pageSizes(book));
    // It names the pages it holds, as the reader reads them with pdf.js.
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const document = await pdfjs.getDocument({ data: new Uint8Array(kept), verbosity: 0 }).promise;
    expect(offlinePagesOf((await document.getMetadata()).info)).toEqual(new Set([1, 2]));
    expect(offlinePagesOf({})).toBeNull();
    await document.destroy();
  });

  it('carries none of the other pages’ words anywhere in the file', async () => {
    const kept = Buffer.from(await pdfWithPagesKept(book, [2]));
    const original = await pdfPageTexts(Buffer.from(book));
    expect(original[0]).toContain('First page words');
    // pdf-lib may compress streams: read every page back, and look at the raw bytes too.
    expect((await pdfPageTexts(kept)).join('|')).not.toMatch(/First|Second|Fourth/);
    expect(kept.toString('latin1')).not.toMatch(/First page|Second page|Fourth page/);
  });

  it('pages outside the book are ignored; none kept is every page blank', async () => {
    expect(await pdfPageTexts(Buffer.from(await pdfWithPagesKept(book, [-1, 9])))).toEqual([
      '',
      '',
      '',
      '',
    ]);
  });
});
