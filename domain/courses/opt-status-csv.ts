// The bookstore manager's download of who is opted in or out, with reasons (issue 6), as
// CSV (RFC 4180) that a spreadsheet opens without running anything.

export type OptStatusRow = {
  memberId: string;
  lastName: string;
  firstName: string;
  email: string;
  optStatus: string;
  /** The latest change's reason (1-5) as text, its message, when and by whom. */
  reason: string;
  message: string;
  changedAt: string;
  changedBy: string;
};

export const OPT_STATUS_COLUMNS: readonly (keyof OptStatusRow)[] = [
  'memberId',
  'lastName',
  'firstName',
  'email',
  'optStatus',
  'reason',
  'message',
  'changedAt',
  'changedBy',
];

/**
 * One cell. A value a spreadsheet would read as a formula (starting with =, +, -, @, a tab
 * or a carriage return) is prefixed with an apostrophe (OWASP CSV injection); a value with a
 * comma, quote or line break is quoted with its quotes doubled.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The whole file: the header line, then one line per member. */
export function optStatusCsv(header: readonly string[], rows: readonly OptStatusRow[]): string {
  return (
    csvLine(header) + rows.map((row) => csvLine(OPT_STATUS_COLUMNS.map((c) => row[c]))).join('')
  );
}
