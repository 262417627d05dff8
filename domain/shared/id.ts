// Ids are PostgreSQL integers (serial): the largest one a column can hold.
export const MAX_ID = 2_147_483_647;

// Decimal digits only: no sign, no leading zero, no exponent, hex, fraction, space or
// non-ASCII digit. Number() and zod's coerce would read '0x10' as 16 and '1e3' as 1000.
const DECIMAL_ID = /^[1-9]\d{0,9}$/;

/**
 * An id as it came in a path, a query or a form field, or null when it is not one. The one
 * rule every adapter reads ids with: a malformed id is a 404 in a path, a 400 in a form and
 * ignored in a query, never a different id.
 */
export function parseId(raw: unknown): number | null {
  if (typeof raw !== 'string' || !DECIMAL_ID.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_ID ? id : null;
}
