// The pages a book prints in (issue 13; decision 008, amended): units a student understands,
// so that "25 % of the book" is a number of pages they can choose from.
// - A PDF: its own pages.
// - An EPUB with pages of a printed edition: the entries of its page list (EPUB 3 nav
//   page-list, EPUB 2 NCX pageList), else its page-break markers (epub:type="pagebreak",
//   role="doc-pagebreak"). Page n runs from its mark to the next one; text before the first
//   mark (a cover, a title page) is on no page.
// - Any other EPUB: standard pages of EPUB_PAGE_CHARACTERS characters of its text, each
//   chapter starting on a new page, as a printed book does.

/**
 * A page of an EPUB without page marks: the standard manuscript page (Normseite), 1,800
 * characters (30 lines of 60, spaces included), counted as DRM counts characters (a run of
 * white space is one).
 */
export const EPUB_PAGE_CHARACTERS = 1800;

/** Where a printed page of an EPUB starts: an element of a part, or the part's start. */
export type PageMark = { label: string; part: number; anchor: string | null };

export type PrintPages =
  /** A PDF's pages, with the labels it prints on them (its /PageLabels) when it has some. */
  | { unit: 'pdf'; count: number; labels?: string[] }
  | { unit: 'marked'; marks: PageMark[] }
  | { unit: 'length'; partPages: number[] };

/** Where in the book a printed page starts: a part, and in it an anchor or a character offset. */
export type PrintPosition = { part: number; anchor: string | null; characters: number };

/** The standard pages of each part of an EPUB: one per started page of text, at least one. */
export function lengthPages(partLengths: readonly number[]): number[] {
  return partLengths.map((length) => Math.max(1, Math.ceil(length / EPUB_PAGE_CHARACTERS)));
}

/**
 * An EPUB's print pages: its page list, else its page-break markers, else standard pages
 * of its text.
 */
export function epubPrintPages(book: {
  pageList: readonly PageMark[];
  pageBreaks: readonly PageMark[];
  partLengths: readonly number[];
}): PrintPages {
  if (book.pageList.length > 0) return { unit: 'marked', marks: [...book.pageList] };
  if (book.pageBreaks.length > 0) return { unit: 'marked', marks: [...book.pageBreaks] };
  return { unit: 'length', partPages: lengthPages(book.partLengths) };
}

export function printPageCount(pages: PrintPages): number {
  if (pages.unit === 'pdf') return pages.count;
  if (pages.unit === 'marked') return pages.marks.length;
  return pages.partPages.reduce((sum, count) => sum + count, 0);
}

/**
 * What is wrong with pages `from` to `to` of a book of `count` pages (from 1, both included):
 * a first or last page the book lacks, or the last before the first; null when nothing is.
 */
export function pageRangeProblem(
  count: number,
  from: number,
  to: number,
): 'from' | 'to' | 'order' | null {
  const within = (n: number) => Number.isInteger(n) && n >= 1 && n <= count;
  if (!within(from)) return 'from';
  if (!within(to)) return 'to';
  return to < from ? 'order' : null;
}

/** Whether pages `from` to `to` (from 1, both included) are pages of the book. */
export function isPageRange(pages: PrintPages, from: number, to: number): boolean {
  return pageRangeProblem(printPageCount(pages), from, to) === null;
}

/** Where page `n` (from 1) starts. */
export function pageStart(pages: PrintPages, n: number): PrintPosition {
  if (pages.unit === 'pdf') return { part: n - 1, anchor: null, characters: 0 };
  if (pages.unit === 'marked') {
    const mark = pages.marks[n - 1];
    if (!mark) throw new RangeError(`no page ${n}`);
    return { part: mark.part, anchor: mark.anchor, characters: 0 };
  }
  let first = 1;
  for (const [part, count] of pages.partPages.entries()) {
    if (n < first + count)
      return { part, anchor: null, characters: (n - first) * EPUB_PAGE_CHARACTERS };
    first += count;
  }
  throw new RangeError(`no page ${n}`);
}

/**
 * What pages `from` to `to` cover: from the start of `from` to the start of the page after
 * `to`, or to the end of the book (null) when `to` is the last page.
 */
export function printSpan(
  pages: PrintPages,
  from: number,
  to: number,
): { start: PrintPosition; end: PrintPosition | null } {
  if (!isPageRange(pages, from, to)) throw new RangeError(`no pages ${from}-${to}`);
  return {
    start: pageStart(pages, from),
    end: to < printPageCount(pages) ? pageStart(pages, to + 1) : null,
  };
}

/**
 * The page (from 1) the reader is on, at `progression` through `part`. For marked pages the
 * reader's view says which marks of the part it has reached (those before what it shows).
 */
export function pageAt(
  pages: PrintPages,
  where: { part: number; progression: number },
  reached: (anchor: string) => boolean = () => false,
): number {
  const count = printPageCount(pages);
  if (count === 0) return 0;
  const clamp = (n: number) => Math.min(count, Math.max(1, n));
  if (pages.unit === 'pdf') return clamp(where.part + 1);
  if (pages.unit === 'marked') {
    let page = 1;
    pages.marks.forEach((mark, i) => {
      if (
        mark.part < where.part ||
        (mark.part === where.part && (mark.anchor === null || reached(mark.anchor)))
      )
        page = i + 1;
    });
    return page;
  }
  const first = pages.partPages.slice(0, where.part).reduce((sum, n) => sum + n, 0);
  const inPart = pages.partPages[where.part] ?? 1;
  const progression = Math.min(1, Math.max(0, where.progression));
  return clamp(first + 1 + Math.min(inPart - 1, Math.floor(progression * inPart)));
}

/**
 * The printed edition's page shown (issue 16, the status's "printed page 112"): pageAt for a
 * PDF or a book with a page list, but none before the list's first page break (a book's front
 * matter, an introduction printed without numbers), where pageAt counts page 1 for printing.
 */
export function printedPageAt(
  pages: PrintPages,
  where: { part: number; progression: number },
  reached: (anchor: string) => boolean = () => false,
): number | null {
  if (pages.unit === 'marked') {
    const first = pages.marks[0];
    const before =
      !first ||
      first.part > where.part ||
      (first.part === where.part && first.anchor !== null && !reached(first.anchor));
    if (before) return null;
  }
  return pageAt(pages, where, reached);
}

/**
 * The page (from 1) a student asks for by its printed number (issue 16, "Go to page": "read
 * pages 112–130"): a label of the printed edition's page list ("112", "xii", case and spaces
 * aside), else, for a PDF or standard pages, the page's number. null when the book has no such
 * page.
 */
export function pageByLabel(pages: PrintPages, asked: string): number | null {
  const wanted = asked.trim().toLowerCase();
  if (!wanted) return null;
  if (pages.unit === 'marked') {
    const at = pages.marks.findIndex((mark) => mark.label.trim().toLowerCase() === wanted);
    if (at >= 0) return at + 1;
    // Marks without labels are numbered in order.
    if (pages.marks.every((mark) => !mark.label.trim()) && /^\d{1,7}$/.test(wanted)) {
      const n = Number(wanted);
      return n >= 1 && n <= pages.marks.length ? n : null;
    }
    return null;
  }
  if (pages.unit === 'pdf' && pages.labels) {
    // The label printed on the page ("xii", "112"), not its place in the file.
    const at = pages.labels.findIndex((label) => label.trim().toLowerCase() === wanted);
    return at >= 0 ? at + 1 : null;
  }
  if (!/^\d{1,7}$/.test(wanted)) return null;
  const n = Number(wanted);
  return n >= 1 && n <= printPageCount(pages) ? n : null;
}

/**
 * Where the reader opens page `n` (from 1): a part, and in it the page mark's anchor or how far
 * through the part the page starts (a standard page: the fraction pageAt reads back as `n`).
 */
export function pageTarget(
  pages: PrintPages,
  n: number,
): { part: number; anchor: string | null; progression: number } {
  const start = pageStart(pages, n);
  if (pages.unit !== 'length') return { part: start.part, anchor: start.anchor, progression: 0 };
  const inPart = pages.partPages[start.part] ?? 1;
  const first = pages.partPages.slice(0, start.part).reduce((sum, count) => sum + count, 0);
  return { part: start.part, anchor: null, progression: (n - first - 1) / inPart };
}

/** Page `n` (from 1) as the book prints it: its label (page list, PDF label), else its number. */
export function pageLabel(pages: PrintPages, n: number): string {
  const label =
    pages.unit === 'marked'
      ? pages.marks[n - 1]?.label
      : pages.unit === 'pdf'
        ? pages.labels?.[n - 1]
        : undefined;
  return label?.trim() || String(n);
}

/**
 * A PDF's page labels as the reader uses them: none when the file has none, or when they are
 * only the pages' numbers (nothing to tell apart).
 */
export function pdfLabels(labels: readonly string[] | null, count: number): string[] | undefined {
  if (!labels || labels.length !== count) return undefined;
  if (labels.every((label, i) => label.trim() === String(i + 1))) return undefined;
  return labels.map((label) => label.slice(0, 40));
}

/** Whether the book's pages have labels of a printed edition that differ from their order. */
export function hasPrintedLabels(pages: PrintPages): boolean {
  return pages.unit === 'marked' || (pages.unit === 'pdf' && pages.labels !== undefined);
}

/** The labels of the first and last pages, for "pages xi to 130". */
export function pageRange(pages: PrintPages): { first: string; last: string } {
  const count = printPageCount(pages);
  return { first: pageLabel(pages, 1), last: pageLabel(pages, count) };
}
