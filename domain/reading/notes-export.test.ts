import { describe, expect, it } from 'vitest';
import {
  type ExportEntry,
  type ExportWords,
  exportTime,
  markdownText,
  quotesToExport,
  renderNotesExport,
} from './notes-export.ts';

// Issue 16 (study tools): "Export of one's own notes and highlights (Markdown or CSV) without
// the book text beyond the copy allowance" (spec 1 §3 drm copyPercentage).

describe('which quotes an export carries', () => {
  const quotes = [
    { id: 1, characters: 40, counted: false },
    { id: 2, characters: 100, counted: false },
    { id: 3, characters: 30, counted: false },
  ];

  it('every quote, counted, when the allowance holds them all', () => {
    const decision = quotesToExport(quotes, { limit: 1000, used: 0 });
    expect([...decision.included]).toEqual([1, 2, 3]);
    expect(decision.counted).toBe(170);
    expect(decision.leftOut).toBe(0);
  });

  it('a quote that does not fit stays out whole, and a shorter one after it may still go', () => {
    // 100 left: 40 fits (60 left), 100 does not, 30 does (30 left).
    const decision = quotesToExport(quotes, { limit: 150, used: 50 });
    expect([...decision.included]).toEqual([1, 3]);
    expect(decision.counted).toBe(70);
    expect(decision.leftOut).toBe(1);
  });

  it('exactly the room left is enough', () => {
    const decision = quotesToExport([{ id: 9, characters: 40, counted: false }], {
      limit: 100,
      used: 60,
    });
    expect(decision.included.has(9)).toBe(true);
    expect(decision.counted).toBe(40);
  });

  it('a quote counted by an earlier export goes out again and costs nothing', () => {
    const decision = quotesToExport(
      [
        { id: 1, characters: 40, counted: true },
        { id: 2, characters: 100, counted: false },
      ],
      { limit: 140, used: 140 },
    );
    expect([...decision.included]).toEqual([1]);
    expect(decision.counted).toBe(0);
    expect(decision.leftOut).toBe(1);
  });

  it('a book that allows no copying lets no quote out; more used than the limit is no room', () => {
    expect(quotesToExport(quotes, { limit: 0, used: 0 }).included.size).toBe(0);
    expect(quotesToExport(quotes, { limit: 0, used: 0 }).leftOut).toBe(3);
    expect(quotesToExport(quotes, { limit: 100, used: 500 }).included.size).toBe(0);
  });

  it('an empty quote is never counted as sent', () => {
    const decision = quotesToExport([{ id: 4, characters: 0, counted: false }], {
      limit: 100,
      used: 0,
    });
    expect(decision.counted).toBe(0);
  });
});

describe('the file', () => {
  const words: ExportWords = {
    heading: 'My notes: Biology [2nd]',
    exported: 'Exported Nov 28, 2026',
    highlight: (colour) => `${colour} highlight`,
    bookmark: 'Bookmark',
    page: (label) => `page ${label}`,
    note: 'My note:',
    quoteLeftOut: 'Quote left out.',
    columns: {
      kind: 'Kind',
      colour: 'Colour',
      chapter: 'Chapter',
      page: 'Page',
      quote: 'Quote',
      note: 'Note',
      created: 'Created',
      updated: 'Changed',
    },
    kindName: (kind) => (kind === 'highlight' ? 'Highlight' : 'Bookmark'),
    colourName: (colour) => colour.toUpperCase(),
  };
  const at = new Date('2026-11-28T10:00:00Z');
  const entries: ExportEntry[] = [
    {
      kind: 'highlight',
      colour: 'green',
      chapter: 'Cells',
      page: '12',
      quote: 'The cell is the unit of life.',
      note: '=HYPERLINK("x")\nsecond line, with "quotes"',
      createdAt: at,
      updatedAt: at,
    },
    {
      kind: 'bookmark',
      colour: null,
      chapter: 'Cells',
      page: null,
      quote: null,
      note: null,
      createdAt: at,
      updatedAt: at,
    },
    {
      kind: 'highlight',
      colour: 'yellow',
      chapter: '# Energy *and* life',
      page: 'xii',
      quote: 'ATP <b>stores</b> energy',
      note: null,
      createdAt: at,
      updatedAt: at,
    },
  ];
  const time = () => '2026-11-28 05:00';

  it('CSV: a header row in the reader’s words, a row each, fields quoted as RFC 4180 says', () => {
    const csv = renderNotesExport('csv', entries, words, time);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe('Kind,Colour,Chapter,Page,Quote,Note,Created,Changed');
    // A line break inside a note stays inside its quoted field.
    expect(lines[1]).toBe(
      `Highlight,GREEN,Cells,12,The cell is the unit of life.,"'=HYPERLINK(""x"")\nsecond line, with ""quotes""",2026-11-28 05:00,2026-11-28 05:00`,
    );
    expect(csv).toContain(`"'=HYPERLINK(""x"")\nsecond line, with ""quotes"""`);
    expect(csv).toContain(
      '\r\nBookmark,,Cells,,Quote left out.,,2026-11-28 05:00,2026-11-28 05:00\r\n',
    );
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('Markdown: chapters as headings, the quote as a quotation, the note after; nothing in them becomes markup', () => {
    const md = renderNotesExport('markdown', entries, words, time);
    expect(md).toContain('# My notes: Biology \\[2nd\\]\n');
    expect(md).toContain('## Cells\n');
    expect(md).toContain(
      '**green highlight** · page 12 · 2026-11-28 05:00\n\n> The cell is the unit of life.\n',
    );
    expect(md).toContain('My note:  \n=HYPERLINK("x")  \nsecond line, with "quotes"\n');
    expect(md).toContain('**Bookmark** · 2026-11-28 05:00\n\n_Quote left out._\n');
    expect(md).toContain('## \\# Energy \\*and\\* life\n');
    expect(md).toContain('> ATP \\<b\\>stores\\</b\\> energy\n');
    // One chapter heading per chapter, in reading order.
    expect(md.match(/^## /gm)).toHaveLength(2);
  });

  it('Markdown of a PDF (pages, no chapters): no empty heading, each note says its page', () => {
    const pdf = entries.map((entry) => ({ ...entry, chapter: '' }));
    const md = renderNotesExport('markdown', pdf, words, time);
    expect(md).not.toMatch(/^##/m);
    expect(md).toContain('**green highlight** · page 12 · 2026-11-28 05:00\n');
    expect(md).toContain('**yellow highlight** · page xii · 2026-11-28 05:00\n');
  });

  it('a quote reads as the book does: its source’s line breaks and indents are one space', () => {
    const bookmark: ExportEntry = {
      ...entries[0]!,
      kind: 'bookmark',
      colour: null,
      quote: 'Chapter 2: Understanding Genetics\n    Full-colour plates',
      note: null,
    };
    const md = renderNotesExport('markdown', [bookmark], words, time);
    // Not an indented code block inside the quotation.
    expect(md).toContain('\n> Chapter 2: Understanding Genetics Full-colour plates\n');
    const csv = renderNotesExport('csv', [bookmark], words, time);
    expect(csv).toContain(',Chapter 2: Understanding Genetics Full-colour plates,');
  });

  it('a spreadsheet never runs a note as a formula', () => {
    for (const start of ['=', '+', '-', '@']) {
      const csv = renderNotesExport('csv', [{ ...entries[2]!, note: `${start}1+1` }], words, time);
      expect(csv).toContain(`,'${start}1+1,`);
    }
  });

  it('Markdown text stays text', () => {
    expect(markdownText('- not a list')).toBe('\\- not a list');
    expect(markdownText('1. not a list')).toBe('\\1. not a list');
    expect(markdownText('[link](x)')).toBe('\\[link\\](x)');
    expect(markdownText('plain words.')).toBe('plain words.');
  });

  it('times in the reader’s time zone and language', () => {
    const when = new Date('2026-11-28T03:30:00Z');
    expect(exportTime(when, 'en', 'America/Toronto')).toMatch(/Nov 27, 2026.*10:30/);
    expect(exportTime(when, 'fr-CA', 'America/Toronto')).toMatch(/27 nov\. 2026.*22 h 30/);
  });
});
