import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPdf, PDF_LINES_PER_PAGE, pdfTextString } from './pdf.ts';

const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;
const hasPdfinfo = spawnSync('pdfinfo', ['-v']).status === 0;

function runOnPdf(pdf: Buffer, command: string, args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'shelfmark-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return spawnSync(command, [...args, file, ...(command === 'pdftotext' ? ['-'] : [])], {
      encoding: 'utf8',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const pdf = buildPdf({
  title: 'Calculus (Study Guide)',
  author: 'Amina Osei',
  pages: [
    ['Chapter 1: Limits', 'f(x) = (x + 1) \\ 2', 'Plain line'],
    ['Chapter 2: Derivatives', 'The “prime” notation — f′(x) — costs €5.'],
  ],
});
const latin1 = pdf.toString('latin1');

function xrefOffsets(file: string): number[] {
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(file)?.[1]);
  expect(file.slice(startxref, startxref + 5)).toBe('xref\n');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(file.slice(startxref)) ?? [];
  expect(first).toBe('0');
  const table = file
    .slice(startxref)
    .split('\n')
    .slice(2, 2 + Number(count));
  expect(table[0]).toBe('0000000000 65535 f ');
  return table.slice(1).map((line) => {
    expect(line).toMatch(/^\d{10} 00000 n $/);
    return Number(line.slice(0, 10));
  });
}

describe('buildPdf', () => {
  it('starts with a PDF 1.7 header and a binary marker comment', () => {
    expect(latin1.startsWith('%PDF-1.7\n%')).toBe(true);
    expect([...pdf.subarray(10, 14)].every((b) => b > 127)).toBe(true);
  });

  it('has xref offsets that each point exactly at "N 0 obj"', () => {
    const offsets = xrefOffsets(latin1);
    expect(offsets.length).toBe(4 + 2 * 2);
    offsets.forEach((offset, i) => {
      expect(latin1.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    });
    expect(latin1).toContain(`/Size ${offsets.length + 1} /Root 1 0 R /Info 4 0 R`);
  });

  it('declares stream lengths that match the stream bytes', () => {
    const streams = [...latin1.matchAll(/<< \/Length (\d+) >>\nstream\n/g)];
    expect(streams.length).toBe(2);
    for (const match of streams) {
      const start = (match.index ?? 0) + match[0].length;
      expect(latin1.slice(start + Number(match[1]), start + Number(match[1]) + 10)).toBe(
        '\nendstream',
      );
    }
  });

  it('uses the standard Helvetica font and records title and author in the Info dictionary', () => {
    expect(latin1).toContain('/Subtype /Type1 /BaseFont /Helvetica');
    expect(latin1).toContain('/Title (Calculus \\(Study Guide\\)) /Author (Amina Osei)');
  });

  it('draws every line inside BT/ET text objects with escaped parentheses and backslashes', () => {
    expect(latin1).toContain('(Chapter 1: Limits) Tj');
    expect(latin1).toContain('T* (f\\(x\\) = \\(x + 1\\) \\\\ 2) Tj');
    expect(latin1.match(/\nBT\n/g)?.length).toBe(4);
    expect(latin1.match(/\nET\n/g)?.length).toBe(4);
  });

  it('keeps the body 7-bit, writing WinAnsi characters as octal escapes', () => {
    expect([...pdf.subarray(15)].every((b) => b < 128)).toBe(true);
    expect(latin1).toContain('\\223prime\\224');
    expect(latin1).toContain('\\200');
  });

  it('writes non-ASCII metadata as UTF-16 so any script survives', () => {
    const file = buildPdf({ title: 'Übungen zur Analysis', author: '王伟', pages: [[]] }).toString(
      'latin1',
    );
    expect(file).toContain('/Author <FEFF738B4F1F>');
    expect(file).toMatch(/\/Title <FEFF00DC0062/);
  });

  it('is byte-for-byte deterministic, including the document ID', () => {
    const again = buildPdf({
      title: 'Calculus (Study Guide)',
      author: 'Amina Osei',
      pages: [
        ['Chapter 1: Limits', 'f(x) = (x + 1) \\ 2', 'Plain line'],
        ['Chapter 2: Derivatives', 'The “prime” notation — f′(x) — costs €5.'],
      ],
    });
    expect(again.equals(pdf)).toBe(true);
  });

  it('refuses a document without pages', () => {
    expect(() => buildPdf({ title: 't', author: 'a', pages: [] })).toThrow(RangeError);
  });

  it('fits a full page of lines inside the margins', () => {
    expect(PDF_LINES_PER_PAGE).toBeGreaterThan(40);
    const full = buildPdf({
      title: 'Full',
      author: 'A',
      pages: [Array.from({ length: PDF_LINES_PER_PAGE }, (_, i) => `Line ${i + 1}`)],
    });
    expect(xrefOffsets(full.toString('latin1')).length).toBe(6);
  });

  it.skipIf(!hasPdftotext)('yields its text to pdftotext without syntax errors', () => {
    const result = runOnPdf(pdf, 'pdftotext', ['-layout']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Chapter 1: Limits');
    expect(result.stdout).toContain('f(x) = (x + 1) \\ 2');
    expect(result.stdout).toContain('The “prime” notation — f?(x) — costs €5.');
    expect(result.stdout).toContain('Chapter 2: Derivatives');
  });

  it.skipIf(!hasPdfinfo)('reports title, author and page count to pdfinfo', () => {
    const result = runOnPdf(
      buildPdf({ title: 'Übungen (1)', author: '王伟', pages: [['a'], ['b'], ['c']] }),
      'pdfinfo',
      [],
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/Title:\s+Übungen \(1\)/);
    expect(result.stdout).toMatch(/Author:\s+王伟/);
    expect(result.stdout).toMatch(/Pages:\s+3/);
  });
});

describe('pdfTextString', () => {
  it('escapes the three PDF string delimiters', () => {
    expect(pdfTextString('a(b)c\\d')).toBe('(a\\(b\\)c\\\\d)');
  });

  it('replaces characters the standard font cannot show with a question mark', () => {
    expect(pdfTextString('π≈3')).toBe('(??3)');
  });

  it('turns tabs into spaces and writes Latin-1 letters as octal escapes', () => {
    expect(pdfTextString('a\tb')).toBe('(a b)');
    expect(pdfTextString('é')).toBe('(\\351)');
  });
});
