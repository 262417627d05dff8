// The bookstore manager's download of who is opted in or out, with reasons (issue 6), as
// CSV (RFC 4180) that a spreadsheet opens without running anything.

import { csvLine } from '#domain/shared/csv.ts';

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

// The cells are written by the one CSV rule (domain/shared/csv.ts).
export { csvCell, csvLine } from '#domain/shared/csv.ts';

/** The whole file: the header line, then one line per member. */
export function optStatusCsv(header: readonly string[], rows: readonly OptStatusRow[]): string {
  return (
    csvLine(header) + rows.map((row) => csvLine(OPT_STATUS_COLUMNS.map((c) => row[c]))).join('')
  );
}
