// CSV (RFC 4180) that a spreadsheet opens without running anything: the opt-status download
// (issue 6) and the section analytics download (issue 19) write their cells here.

/**
 * One cell. A value a spreadsheet would read as a formula (starting with =, +, -, @, a tab
 * or a carriage return) is prefixed with an apostrophe (OWASP CSV injection); a value with a
 * comma, quote or line break is quoted with its quotes doubled.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One line of cells, ended by CRLF. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
