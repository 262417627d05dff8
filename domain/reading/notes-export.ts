import type { Locale } from '#domain/accounts/language.ts';
import { csvLine } from '#domain/shared/csv.ts';
import type { AnnotationKind, HighlightColour } from './annotation-rules.ts';

// Exporting one's own highlights, notes and bookmarks (issue 16, study tools): Markdown to read,
// CSV for a spreadsheet. The notes are the reader's own and always go out whole. The quotes
// are the book's words: they leave the reader only within the book's copy allowance (spec 1
// §3 drm copyPercentage), counted exactly as copying is, and each quote is counted once, so
// exporting again costs nothing for what already went out.

export const EXPORT_FORMATS = ['markdown', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  markdown: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};
export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = { markdown: 'md', csv: 'csv' };

/** What the allowance decides for one export. */
export type QuoteDecision = {
  /** The annotations whose quote goes out. */
  included: Set<number>;
  /** Characters newly counted against the copy allowance by this export. */
  counted: number;
  /** How many quotes stay out because the allowance has no room for them. */
  leftOut: number;
};

/**
 * Which quotes an export may carry, in reading order: a quote counted by an earlier export goes
 * out again without cost; any other goes out whole if what remains of the allowance holds it,
 * and is counted; a quote that does not fit stays out (never cut: half a sentence is worse
 * than none), and a shorter one after it may still fit.
 */
export function quotesToExport(
  quotes: readonly { id: number; characters: number; counted: boolean }[],
  allowance: { limit: number; used: number },
): QuoteDecision {
  const included = new Set<number>();
  let remaining = Math.max(0, allowance.limit - allowance.used);
  let counted = 0;
  let leftOut = 0;
  for (const quote of quotes) {
    if (quote.counted) {
      included.add(quote.id);
    } else if (quote.characters > 0 && quote.characters <= remaining) {
      included.add(quote.id);
      remaining -= quote.characters;
      counted += quote.characters;
    } else {
      leftOut += 1;
    }
  }
  return { included, counted, leftOut };
}

export type ExportEntry = {
  kind: AnnotationKind;
  colour: HighlightColour | null;
  chapter: string;
  /** The printed page it is on, where the book has them. */
  page: string | null;
  /** The book's words, or null when the allowance kept them out. */
  quote: string | null;
  note: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/** The words of the export, in the reader's language (the message catalog's texts). */
export type ExportWords = {
  heading: string;
  exported: string;
  highlight(colour: HighlightColour): string;
  bookmark: string;
  page(label: string): string;
  note: string;
  quoteLeftOut: string;
  columns: {
    kind: string;
    colour: string;
    chapter: string;
    page: string;
    quote: string;
    note: string;
    created: string;
    updated: string;
  };
  kindName(kind: AnnotationKind): string;
  colourName(colour: HighlightColour): string;
};

/** A day and time as the reader reads them: their language, their time zone. */
export function exportTime(at: Date, locale: Locale, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(at);
}

/**
 * Markdown text that is shown as written: no emphasis, link, code, HTML or table made by its
 * characters, and no heading, list or quote made by how it starts.
 */
export function markdownText(value: string): string {
  return value.replace(/([\\`*_[\]<>|~])/g, '\\$1').replace(/^(\s*)([#>+-]|\d+[.)])/, '$1\\$2');
}

/** One line per line of the text, each kept as a line (a hard break) in Markdown. */
function markdownLines(value: string): string {
  return value
    .split(/\r?\n/)
    .map((line) => markdownText(line))
    .join('  \n');
}

/** A quote as the book reads: its source's line breaks and indents are not the book's. */
const quoteText = (quote: string) => quote.replace(/\s+/g, ' ').trim();

export function renderNotesExport(
  format: ExportFormat,
  entries: readonly ExportEntry[],
  words: ExportWords,
  time: (at: Date) => string,
): string {
  if (format === 'csv') {
    const c = words.columns;
    const rows = [[c.kind, c.colour, c.chapter, c.page, c.quote, c.note, c.created, c.updated]];
    for (const e of entries) {
      rows.push([
        words.kindName(e.kind),
        e.colour ? words.colourName(e.colour) : '',
        e.chapter,
        e.page ?? '',
        e.quote === null ? words.quoteLeftOut : quoteText(e.quote),
        e.note ?? '',
        time(e.createdAt),
        time(e.updatedAt),
      ]);
    }
    // A byte order mark, so that a spreadsheet reads the accents of French notes as UTF-8.
    return `\uFEFF${rows.map(csvLine).join('')}`;
  }
  const lines = [`# ${markdownText(words.heading)}`, '', markdownText(words.exported), ''];
  let chapter: string | null = null;
  for (const e of entries) {
    if (e.chapter !== chapter) {
      chapter = e.chapter;
      // A PDF has pages, not chapters: its notes say their page and need no heading.
      if (chapter) lines.push(`## ${markdownText(chapter)}`, '');
    }
    const what = e.kind === 'bookmark' ? words.bookmark : words.highlight(e.colour ?? 'yellow');
    const where = [e.page ? words.page(e.page) : null, time(e.createdAt)].filter(Boolean);
    lines.push(`**${markdownText(what)}** · ${markdownText(where.join(' · '))}`, '');
    lines.push(
      e.quote === null
        ? `_${markdownText(words.quoteLeftOut)}_`
        : `> ${markdownText(quoteText(e.quote))}`,
      '',
    );
    if (e.note) lines.push(`${markdownText(words.note)}  \n${markdownLines(e.note)}`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
