// Hand-written PDF 1.7 writer for seed documents. A real, spec-conforming file (exact xref
// offsets, stream lengths) matters because viewers that "repair" broken PDFs hide bugs that
// stricter tools, and some users' readers, would show.
//
// Deliberately small: one standard font, uncompressed text streams, no reflow. Callers pass
// pre-broken lines; at most PDF_LINES_PER_PAGE lines fit on a page and roughly
// PDF_CHARS_PER_LINE characters fit on a line. Anything beyond that runs off the page.
import { createHash } from 'node:crypto';

export type PdfInput = {
  title: string;
  author: string;
  /** Lines of text per page, already wrapped and paginated by the caller. */
  pages: string[][];
  /** BCP 47 tag for the document language, used by screen readers. Defaults to "en". */
  language?: string;
  /**
   * Page labels (PDF 32000-1 §12.4.2), as a printed book numbers its pages: from page `from`
   * (0-based) on, numbered in `style` (D decimal, r/R roman, a/A letters) from `first`.
   */
  pageLabels?: { from: number; style: 'D' | 'r' | 'R' | 'a' | 'A'; first?: number }[];
};

const PAGE_WIDTH = 612; // US Letter, in points
const PAGE_HEIGHT = 792;
const MARGIN = 72;
const FONT_SIZE = 11;
const LEADING = 15;
export const PDF_LINES_PER_PAGE = Math.floor((PAGE_HEIGHT - 2 * MARGIN) / LEADING) + 1;
// Helvetica averages about half an em per character in running English text.
export const PDF_CHARS_PER_LINE = Math.floor((PAGE_WIDTH - 2 * MARGIN) / (FONT_SIZE * 0.5));

// Unicode code points that WinAnsiEncoding places in 0x80-0x9F (PDF 32000-1, Annex D).
const WIN_ANSI_HIGH: ReadonlyMap<number, number> = new Map([
  [0x20ac, 0x80],
  [0x201a, 0x82],
  [0x0192, 0x83],
  [0x201e, 0x84],
  [0x2026, 0x85],
  [0x2020, 0x86],
  [0x2021, 0x87],
  [0x02c6, 0x88],
  [0x2030, 0x89],
  [0x0160, 0x8a],
  [0x2039, 0x8b],
  [0x0152, 0x8c],
  [0x017d, 0x8e],
  [0x2018, 0x91],
  [0x2019, 0x92],
  [0x201c, 0x93],
  [0x201d, 0x94],
  [0x2022, 0x95],
  [0x2013, 0x96],
  [0x2014, 0x97],
  [0x02dc, 0x98],
  [0x2122, 0x99],
  [0x0161, 0x9a],
  [0x203a, 0x9b],
  [0x0153, 0x9c],
  [0x017e, 0x9e],
  [0x0178, 0x9f],
]);

function toWinAnsi(text: string): number[] {
  const bytes: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp === 0x09) bytes.push(0x20);
    else if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) bytes.push(cp);
    else bytes.push(WIN_ANSI_HIGH.get(cp) ?? 0x3f); // "?" for what the standard font lacks
  }
  return bytes;
}

/**
 * A PDF literal string for text drawn in the WinAnsi-encoded font. Parentheses and backslashes
 * are escaped, and every non-ASCII byte is written as an octal escape so the file body stays
 * 7-bit and byte offsets equal character offsets.
 */
export function pdfTextString(text: string): string {
  let out = '(';
  for (const b of toWinAnsi(text)) {
    if (b === 0x28 || b === 0x29 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b < 0x20 || b > 0x7e) out += `\\${b.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(b);
  }
  return `${out})`;
}

// Document metadata is a "text string": plain ASCII stays literal, anything else is written as
// UTF-16BE with a byte order mark so titles in any script survive.
function pdfMetadataString(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return pdfTextString(text);
  const utf16 = Buffer.from(text, 'utf16le').swap16();
  return `<FEFF${utf16.toString('hex').toUpperCase()}>`;
}

function pageContent(lines: readonly string[], pageNumber: number): string {
  const body = lines.map((line, i) => `${i === 0 ? '' : 'T* '}${pdfTextString(line)} Tj`);
  const label = String(pageNumber);
  // Helvetica digits are 556/1000 em wide, which centres the page number exactly.
  const labelX = (PAGE_WIDTH - label.length * 0.556 * 9) / 2;
  return [
    'BT',
    `/F1 ${FONT_SIZE} Tf`,
    `${LEADING} TL`,
    `${MARGIN} ${PAGE_HEIGHT - MARGIN} Td`,
    ...body,
    'ET',
    'BT',
    '/F1 9 Tf',
    `${labelX.toFixed(2)} ${MARGIN / 2} Td`,
    `${pdfTextString(label)} Tj`,
    'ET',
  ].join('\n');
}

export function buildPdf({ title, author, pages, language = 'en', pageLabels }: PdfInput): Buffer {
  if (pages.length === 0) throw new RangeError('A PDF needs at least one page');

  const objects: string[] = [];
  const pageRefs = pages.map((_, i) => `${5 + i * 2} 0 R`);
  objects[1] =
    `<< /Type /Catalog /Pages 2 0 R /Lang ${pdfMetadataString(language)} ` +
    (pageLabels?.length
      ? `/PageLabels << /Nums [${pageLabels
          .map(
            (range) =>
              `${range.from} << /S /${range.style}${range.first ? ` /St ${range.first}` : ''} >>`,
          )
          .join(' ')}] >> `
      : '') +
    '/ViewerPreferences << /DisplayDocTitle true >> >>';
  objects[2] = `<< /Type /Pages /Kids [${pageRefs.join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] =
    `<< /Title ${pdfMetadataString(title)} /Author ${pdfMetadataString(author)} ` +
    '/Producer (Shelfmark) >>';
  pages.forEach((lines, i) => {
    const pageId = 5 + i * 2;
    const content = pageContent(lines, i + 1);
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      `/Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    // The body is pure ASCII (see pdfTextString), so string length is the byte length.
    objects[pageId + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });

  // The comment's high bytes tell transfer tools to treat the file as binary (PDF 32000-1 7.5.2).
  const header = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  const parts: Buffer[] = [header];
  const offsets: number[] = [];
  let position = header.length;
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = position;
    const chunk = Buffer.from(`${id} 0 obj\n${objects[id]}\nendobj\n`, 'latin1');
    parts.push(chunk);
    position += chunk.length;
  }

  const size = objects.length;
  const xref = [
    'xref',
    `0 ${size}`,
    '0000000000 65535 f ',
    ...offsets.slice(1).map((offset) => `${String(offset).padStart(10, '0')} 00000 n `),
  ].join('\n');
  // Derived from the content so identical input yields an identical file, including the ID.
  const id = createHash('md5').update(Buffer.concat(parts)).digest('hex').toUpperCase();
  const trailer =
    `trailer\n<< /Size ${size} /Root 1 0 R /Info 4 0 R /ID [<${id}> <${id}>] >>\n` +
    `startxref\n${position}\n%%EOF\n`;
  parts.push(Buffer.from(`${xref}\n${trailer}`, 'latin1'));
  return Buffer.concat(parts);
}
