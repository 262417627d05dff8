import { csvCell } from '#domain/shared/csv.ts';
import type { BillingLine } from './billing-lines.ts';

/**
 * Issue 39: the charge file in the columns, headers and order the campus sets (a mapping saved
 * per organisation), as CSV a spreadsheet opens without running anything (domain/shared/csv.ts).
 */
export const BILLING_FIELDS = [
  'campus_id',
  'amount_decimal',
  'amount_cents',
  'currency',
  'term',
  'course_code',
  'section',
  'description',
  'student_name',
  'email',
  'line_type',
] as const;
export type BillingField = (typeof BILLING_FIELDS)[number];

export type BillingColumn = { field: BillingField; header: string };

export const MAX_BILLING_COLUMNS = 12;
export const MAX_HEADER_LENGTH = 100;

/** What a campus gets when it has set nothing. */
export const DEFAULT_BILLING_COLUMNS: readonly BillingColumn[] = [
  { field: 'campus_id', header: 'Student ID' },
  { field: 'amount_decimal', header: 'Amount' },
  { field: 'currency', header: 'Currency' },
  { field: 'term', header: 'Term' },
  { field: 'course_code', header: 'Course' },
  { field: 'section', header: 'Section' },
  { field: 'description', header: 'Description' },
  { field: 'line_type', header: 'Type' },
];

export type MappingProblem =
  | 'ops.billing.mapping.error.header'
  | 'ops.billing.mapping.error.headerTooLong'
  | 'ops.billing.mapping.error.headerTwice'
  | 'ops.billing.mapping.error.fieldTwice';

export type MappingCheck =
  | { ok: true; columns: BillingColumn[] }
  | { ok: false; rows: Record<number, MappingProblem>; missing: ('campus_id' | 'amount')[] };

/**
 * A campus's columns as staff entered them, in order (rows without a field are left out): each
 * needs a header of its own, no field twice, and the file must name the student and the amount.
 */
export function checkMapping(
  rows: readonly { field: BillingField | null; header: string }[],
): MappingCheck {
  const problems: Record<number, MappingProblem> = {};
  const headers = new Set<string>();
  const fields = new Set<BillingField>();
  const columns: BillingColumn[] = [];
  rows.forEach((row, index) => {
    if (row.field === null) return;
    const header = row.header.trim();
    if (header === '' || [...header].some((c) => c < ' ' || c === '\u007f')) {
      problems[index] = 'ops.billing.mapping.error.header';
    } else if (header.length > MAX_HEADER_LENGTH) {
      problems[index] = 'ops.billing.mapping.error.headerTooLong';
    } else if (headers.has(header.toLowerCase())) {
      problems[index] = 'ops.billing.mapping.error.headerTwice';
    } else if (fields.has(row.field)) {
      problems[index] = 'ops.billing.mapping.error.fieldTwice';
    }
    headers.add(header.toLowerCase());
    fields.add(row.field);
    columns.push({ field: row.field, header });
  });
  const missing: ('campus_id' | 'amount')[] = [];
  if (!fields.has('campus_id')) missing.push('campus_id');
  if (!fields.has('amount_cents') && !fields.has('amount_decimal')) missing.push('amount');
  if (Object.keys(problems).length > 0 || missing.length > 0)
    return { ok: false, rows: problems, missing };
  return { ok: true, columns };
}

/** Cents as the bursar reads a decimal amount: 7900 → '79.00', -7900 → '-79.00'. */
export function decimalAmount(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export type FileContext = {
  termTitle: string;
  currency: string;
  /** The line's description, in the words of the person who makes the run. */
  describe: (line: BillingLine) => string;
};

function cellOf(field: BillingField, line: BillingLine, context: FileContext): string {
  switch (field) {
    // Amounts are numbers we wrote: a leading minus is a credit, not a formula, so they are
    // not neutralised (csvCell would turn -79.00 into text).
    case 'amount_cents':
      return String(line.amountCents);
    case 'amount_decimal':
      return decimalAmount(line.amountCents);
    case 'campus_id':
      return csvCell(line.campusId);
    case 'currency':
      return csvCell(context.currency);
    case 'term':
      return csvCell(context.termTitle);
    case 'course_code':
      return csvCell(line.courseCode);
    case 'section':
      return csvCell(line.sectionLabel);
    case 'description':
      return csvCell(context.describe(line));
    case 'student_name':
      return csvCell(line.name);
    case 'email':
      return csvCell(line.email);
    case 'line_type':
      return line.kind;
  }
}

/** The header line alone (the mapping form previews it). */
export function headerLine(columns: readonly BillingColumn[]): string {
  return `${columns.map((c) => csvCell(c.header)).join(',')}\r\n`;
}

/** The whole file: the header line, then one line per charge or credit, CRLF-ended (RFC 4180). */
export function chargeFile(
  columns: readonly BillingColumn[],
  lines: readonly BillingLine[],
  context: FileContext,
): string {
  return (
    headerLine(columns) +
    lines
      .map((line) => `${columns.map((c) => cellOf(c.field, line, context)).join(',')}\r\n`)
      .join('')
  );
}

/** The file's name: the campus, the term and the run's sequence number. */
export function chargeFileName(input: { termTitle: string; sequence: number }): string {
  const term = input.termTitle
    .normalize('NFKD')
    .replace(/[^\w -]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60);
  return `charges-${String(input.sequence).padStart(4, '0')}${term ? `-${term}` : ''}.csv`;
}
