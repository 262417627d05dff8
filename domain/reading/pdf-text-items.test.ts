import { describe, expect, it } from 'vitest';
import { buildPdf } from '#db/seed/content/pdf.ts';
import { pdfPageTextLengths } from './pdf-text.ts';
import { pdfItemSeparator, pdfPageText } from './pdf-text-items.ts';
import { findOccurrences } from './text-search.ts';

// What pdf.js 5 reads from a page of two lines and a page number (getTextContent().items).
const item = (str: string, x: number, y: number, width: number, hasEOL = false) => ({
  str,
  hasEOL,
  transform: [11, 0, 0, 11, x, y],
  width,
  height: str === '' ? 0 : 11,
});

describe('pdfPageText (issue 13: PDF text keeps the white space between its lines)', () => {
  it('a line pdf.js flags as ended is followed by a line break, so "Chemistry" and "by" stay apart', () => {
    const text = pdfPageText([
      item('General Chemistry', 72, 720, 91.7, true),
      item('by Someone Else', 72, 705, 86.2),
    ]);
    expect(text).toBe('General Chemistry\nby Someone Else');
    expect(findOccurrences(text, 'chemistry by').map((hit) => hit.match)).toEqual(['Chemistry by']);
  });

  it('an item on another line without the flag still starts a new line', () => {
    expect(pdfItemSeparator(item('end of one', 72, 720, 50), item('next', 72, 705, 20))).toBe('\n');
  });

  it('items apart on one line are a space; items that touch, or already have one, are not', () => {
    expect(pdfItemSeparator(item('Cell', 72, 720, 20), item('wall', 95, 720, 20))).toBe(' ');
    expect(pdfItemSeparator(item('Mito', 72, 720, 20), item('chondria', 92.5, 720, 40))).toBe('');
    expect(pdfItemSeparator(item('Cell ', 72, 720, 23), item('wall', 98, 720, 20))).toBe('');
  });

  it('an empty item (a line end pdf.js adds) and the last item add nothing of their own', () => {
    expect(pdfItemSeparator(item('', 303, 36, 0), item('1', 303, 36, 5))).toBe('');
    expect(pdfItemSeparator(item('last', 72, 690, 20), undefined)).toBe('');
    expect(
      pdfPageText([item('third', 72, 690, 20), item('', 303, 36, 0, true), item('1', 303, 36, 5)]),
    ).toBe('third\n1');
  });

  it('the server measures the same text: every line end of a real PDF counts as one space', async () => {
    const pdf = buildPdf({ title: 'T', author: 'A', pages: [['General Chemistry', 'by Someone']] });
    // 'General Chemistry by Someone' and the page number '1' after a line end.
    expect(await pdfPageTextLengths(pdf)).toEqual(['General Chemistry by Someone 1'.length]);
  });
});
