import { describe, expect, it } from 'vitest';
import {
  EPUB_PAGE_CHARACTERS,
  epubPrintPages,
  hasPrintedLabels,
  isPageRange,
  lengthPages,
  type PageMark,
  type PrintPages,
  pageAt,
  pageByLabel,
  pageLabel,
  pageRange,
  pageRangeProblem,
  pageStart,
  pageTarget,
  pdfLabels,
  printedPageAt,
  printPageCount,
  printSpan,
} from './print-pages.ts';

const marks: PageMark[] = [
  { label: 'i', part: 0, anchor: 'p0-pi' },
  { label: '1', part: 1, anchor: null },
  { label: '2', part: 1, anchor: 'p1-page2' },
  { label: '3', part: 2, anchor: 'p2-page3' },
];

describe('print pages (issue 13, decision 008: units a student understands)', () => {
  it('a PDF prints in its own pages', () => {
    const pdf: PrintPages = { unit: 'pdf', count: 3 };
    expect(printPageCount(pdf)).toBe(3);
    expect(pageStart(pdf, 2)).toEqual({ part: 1, anchor: null, characters: 0 });
    expect(pageAt(pdf, { part: 2, progression: 0 })).toBe(3);
  });

  it('an EPUB prints in the pages of its printed edition: its page list, else its page breaks', () => {
    const breaks = [{ label: '7', part: 0, anchor: 'p0--page-0' }];
    expect(epubPrintPages({ pageList: marks, pageBreaks: breaks, partLengths: [10] })).toEqual({
      unit: 'marked',
      marks,
    });
    expect(epubPrintPages({ pageList: [], pageBreaks: breaks, partLengths: [10] })).toEqual({
      unit: 'marked',
      marks: breaks,
    });
  });

  it(`otherwise in pages of ${EPUB_PAGE_CHARACTERS} characters, each chapter starting a new page`, () => {
    expect(lengthPages([0, 1, 1800, 1801, 5400])).toEqual([1, 1, 1, 2, 3]);
    const pages = epubPrintPages({
      pageList: [],
      pageBreaks: [],
      partLengths: [1892, 1308, 2209, 1709],
    });
    expect(pages).toEqual({ unit: 'length', partPages: [2, 1, 2, 1] });
    expect(printPageCount(pages)).toBe(6);
  });

  it('page n of standard pages starts n-1 pages into its chapter', () => {
    const pages: PrintPages = { unit: 'length', partPages: [2, 1, 3] };
    expect(pageStart(pages, 1)).toEqual({ part: 0, anchor: null, characters: 0 });
    expect(pageStart(pages, 2)).toEqual({
      part: 0,
      anchor: null,
      characters: EPUB_PAGE_CHARACTERS,
    });
    expect(pageStart(pages, 3)).toEqual({ part: 1, anchor: null, characters: 0 });
    expect(pageStart(pages, 6)).toEqual({
      part: 2,
      anchor: null,
      characters: 2 * EPUB_PAGE_CHARACTERS,
    });
    expect(() => pageStart(pages, 7)).toThrow(RangeError);
  });

  it('a range runs from the start of its first page to the start of the page after it, or the end', () => {
    const pages: PrintPages = { unit: 'marked', marks };
    expect(printSpan(pages, 2, 3)).toEqual({
      start: { part: 1, anchor: null, characters: 0 },
      end: { part: 2, anchor: 'p2-page3', characters: 0 },
    });
    expect(printSpan(pages, 4, 4)).toEqual({
      start: { part: 2, anchor: 'p2-page3', characters: 0 },
      end: null,
    });
  });

  it('a range is whole pages of the book, first before last', () => {
    const pdf: PrintPages = { unit: 'pdf', count: 3 };
    expect(isPageRange(pdf, 1, 3)).toBe(true);
    expect(isPageRange(pdf, 2, 2)).toBe(true);
    for (const [from, to] of [
      [0, 1],
      [2, 1],
      [1, 4],
      [1.5, 2],
    ] as const) {
      expect(isPageRange(pdf, from, to)).toBe(false);
    }
    expect(() => printSpan(pdf, 3, 4)).toThrow(RangeError);
  });

  it('the page being read: standard pages by how far into the chapter, marks by what is reached', () => {
    const standard: PrintPages = { unit: 'length', partPages: [2, 1, 4] };
    expect(pageAt(standard, { part: 0, progression: 0 })).toBe(1);
    expect(pageAt(standard, { part: 0, progression: 0.6 })).toBe(2);
    expect(pageAt(standard, { part: 2, progression: 0.5 })).toBe(6);
    expect(pageAt(standard, { part: 2, progression: 1 })).toBe(7);
    const marked: PrintPages = { unit: 'marked', marks };
    expect(pageAt(marked, { part: 1, progression: 0 })).toBe(2);
    expect(pageAt(marked, { part: 1, progression: 0 }, (anchor) => anchor === 'p1-page2')).toBe(3);
    expect(pageAt(marked, { part: 0, progression: 0 })).toBe(1);
  });

  it('issue 13: what is wrong with pages asked to print, said for the field at fault', () => {
    expect(pageRangeProblem(3, 1, 3)).toBe(null);
    expect(pageRangeProblem(3, 2, 2)).toBe(null);
    expect(pageRangeProblem(3, 0, 2)).toBe('from');
    expect(pageRangeProblem(3, Number.NaN, 2)).toBe('from');
    expect(pageRangeProblem(3, 1.5, 2)).toBe('from');
    expect(pageRangeProblem(3, 1, 4)).toBe('to');
    expect(pageRangeProblem(3, 3, 2)).toBe('order');
  });

  it('issue 16: no printed page is shown before the page list’s first page break', () => {
    const marks = [
      { part: 1, anchor: 'p1-page12', label: '12' },
      { part: 1, anchor: 'p1-page13', label: '13' },
    ];
    const marked: PrintPages = { unit: 'marked', marks };
    // The introduction (part 0) and part 1 before its break: printed without a number.
    expect(printedPageAt(marked, { part: 0, progression: 0.9 })).toBe(null);
    expect(printedPageAt(marked, { part: 1, progression: 0 })).toBe(null);
    expect(printedPageAt(marked, { part: 1, progression: 0 }, (a) => a === 'p1-page12')).toBe(1);
    expect(printedPageAt(marked, { part: 1, progression: 0.5 }, (a) => a.startsWith('p1-'))).toBe(
      2,
    );
    expect(printedPageAt(marked, { part: 2, progression: 0 })).toBe(2);
    // A break at the start of a part (no anchor) counts as soon as the part is open.
    const atStart: PrintPages = { unit: 'marked', marks: [{ part: 1, anchor: null, label: 'i' }] };
    expect(printedPageAt(atStart, { part: 0, progression: 1 })).toBe(null);
    expect(printedPageAt(atStart, { part: 1, progression: 0 })).toBe(1);
    // A PDF with labels: its page.
    expect(
      printedPageAt(
        { unit: 'pdf', count: 3, labels: ['i', '1', '2'] },
        { part: 0, progression: 0 },
      ),
    ).toBe(1);
  });

  it('issue 16: "Go to page" finds a page by its printed label, or by its number', () => {
    const marked: PrintPages = {
      unit: 'marked',
      marks: [
        { label: 'xi', part: 0, anchor: 'p0-a' },
        { label: 'xii', part: 0, anchor: 'p0-b' },
        { label: '1', part: 1, anchor: 'p1-c' },
        { label: '2', part: 1, anchor: 'p1-d' },
      ],
    };
    expect(pageByLabel(marked, 'XII ')).toBe(2);
    expect(pageByLabel(marked, '2')).toBe(4);
    expect(pageByLabel(marked, '3')).toBeNull();
    expect(pageByLabel(marked, '')).toBeNull();
    expect(pageTarget(marked, 4)).toEqual({ part: 1, anchor: 'p1-d', progression: 0 });
    const unlabelled: PrintPages = {
      unit: 'marked',
      marks: [
        { label: '', part: 0, anchor: 'p0-a' },
        { label: '', part: 2, anchor: 'p2-b' },
      ],
    };
    expect(pageByLabel(unlabelled, '2')).toBe(2);
    expect(pageByLabel(unlabelled, '3')).toBeNull();
    const pdf: PrintPages = { unit: 'pdf', count: 10 };
    expect(pageByLabel(pdf, '10')).toBe(10);
    expect(pageByLabel(pdf, '11')).toBeNull();
    expect(pageByLabel(pdf, '0')).toBeNull();
    expect(pageByLabel(pdf, '1e1')).toBeNull();
    expect(pageByLabel(pdf, 'x'.repeat(10_000))).toBeNull();
    expect(pageTarget(pdf, 3)).toEqual({ part: 2, anchor: null, progression: 0 });
  });

  it('issue 16: a standard page opens where pageAt reads it back as the same page', () => {
    const pages: PrintPages = { unit: 'length', partPages: [2, 3, 1] };
    for (let n = 1; n <= 6; n += 1) {
      const target = pageTarget(pages, n);
      expect(pageAt(pages, { part: target.part, progression: target.progression })).toBe(n);
    }
    expect(pageTarget(pages, 4)).toEqual({ part: 1, anchor: null, progression: 1 / 3 });
  });

  it('issue 16: a page is named as the book prints it, else by its number', () => {
    const marked: PrintPages = {
      unit: 'marked',
      marks: [
        { label: ' xi ', part: 0, anchor: 'a' },
        { label: '', part: 0, anchor: 'b' },
        { label: '130', part: 1, anchor: 'c' },
      ],
    };
    expect([1, 2, 3].map((n) => pageLabel(marked, n))).toEqual(['xi', '2', '130']);
    expect(pageRange(marked)).toEqual({ first: 'xi', last: '130' });
    expect(pageRange({ unit: 'pdf', count: 12 })).toEqual({ first: '1', last: '12' });
    expect(pageRange({ unit: 'length', partPages: [2, 3] })).toEqual({ first: '1', last: '5' });
  });
});

describe('a PDF’s page labels (issue 16: "Go to page" by the printed numbers)', () => {
  const pages: PrintPages = { unit: 'pdf', count: 5, labels: ['i', 'ii', '1', '2', '3'] };

  it('name its pages and find them by what is printed on them', () => {
    expect(pageLabel(pages, 1)).toBe('i');
    expect(pageLabel(pages, 4)).toBe('2');
    expect(pageByLabel(pages, ' II ')).toBe(2);
    // "2" is the page printed 2, the file's fourth.
    expect(pageByLabel(pages, '2')).toBe(4);
    expect(pageByLabel(pages, '9')).toBeNull();
    expect(pageRange(pages)).toEqual({ first: 'i', last: '3' });
  });

  it('are kept only when the file has some that are not just its page numbers', () => {
    expect(pdfLabels(['i', 'ii', '1'], 3)).toEqual(['i', 'ii', '1']);
    expect(pdfLabels(['1', '2', '3'], 3)).toBeUndefined();
    expect(pdfLabels(null, 3)).toBeUndefined();
    expect(pdfLabels(['a'], 3)).toBeUndefined();
    const plain: PrintPages = { unit: 'pdf', count: 3 };
    expect(pageByLabel(plain, '2')).toBe(2);
    expect(pageLabel(plain, 2)).toBe('2');
    expect(hasPrintedLabels(plain)).toBe(false);
    expect(hasPrintedLabels(pages)).toBe(true);
  });
});
