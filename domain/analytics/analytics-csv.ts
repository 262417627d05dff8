// The section analytics download (issue 19: instructors export CSV): one line per student
// and material of the section, every material even if nobody opened it yet. Cells go
// through the one CSV rule (domain/shared/csv.ts): formula-leading values are neutralised,
// quotes doubled.
import { csvLine } from '#domain/shared/csv.ts';

export type AnalyticsCsvRow = {
  lastName: string;
  firstName: string;
  email: string;
  material: string;
  /** Already in words: the way of access ('Course fee', 'Purchase') or 'No'. */
  access: string;
  opens: string;
  /** ISO 8601 in UTC, or '' when never opened. */
  lastOpened: string;
};

export const ANALYTICS_CSV_COLUMNS: readonly (keyof AnalyticsCsvRow)[] = [
  'lastName',
  'firstName',
  'email',
  'material',
  'access',
  'opens',
  'lastOpened',
];

/** The whole file: the header line, then one line per student and material. */
export function analyticsCsv(header: readonly string[], rows: readonly AnalyticsCsvRow[]): string {
  return (
    csvLine(header) +
    rows.map((row) => csvLine(ANALYTICS_CSV_COLUMNS.map((column) => row[column]))).join('')
  );
}

/** The file's name: the section as its title reads, safe for any file system. */
export function analyticsCsvFilename(sectionTitle: string): string {
  const slug = sectionTitle
    .normalize('NFKD')
    .replace(/[^\w]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return `section-analytics-${slug || 'section'}.csv`;
}
