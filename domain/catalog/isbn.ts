// ISBN arithmetic for the catalogue. Every function accepts identifiers as people type them
// (hyphens, spaces, lower-case x) and normalises first, so callers never need to remember to.

// Hyphen look-alikes arrive from pasted publisher data and word processors.
const SEPARATORS = /[\s\u002d\u00ad\u2010-\u2015\u2212]/g;

export function normalizeIdentifier(raw: string): string {
  return raw.replace(SEPARATORS, '').toUpperCase();
}

export function isbn13CheckDigit(first12: string): string {
  const digits = normalizeIdentifier(first12);
  if (!/^\d{12}$/.test(digits)) {
    throw new RangeError(`isbn13CheckDigit expects 12 digits, got ${JSON.stringify(first12)}`);
  }
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return String((10 - (sum % 10)) % 10);
}

export function isbn10CheckDigit(first9: string): string {
  const digits = normalizeIdentifier(first9);
  if (!/^\d{9}$/.test(digits)) {
    throw new RangeError(`isbn10CheckDigit expects 9 digits, got ${JSON.stringify(first9)}`);
  }
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(digits[i]) * (10 - i);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

export function isValidIsbn13(s: string): boolean {
  const n = normalizeIdentifier(s);
  return /^\d{13}$/.test(n) && isbn13CheckDigit(n.slice(0, 12)) === n[12];
}

export function isValidIsbn10(s: string): boolean {
  const n = normalizeIdentifier(s);
  return /^\d{9}[\dX]$/.test(n) && isbn10CheckDigit(n.slice(0, 9)) === n[9];
}

/** Returns the normalised ISBN-13, or null when the input is not a valid ISBN-10. */
export function isbn10To13(isbn10: string): string | null {
  if (!isValidIsbn10(isbn10)) return null;
  const body = `978${normalizeIdentifier(isbn10).slice(0, 9)}`;
  return body + isbn13CheckDigit(body);
}

/**
 * Returns the normalised ISBN-10, or null when the input is not a valid ISBN-13 or carries the
 * 979 prefix: 979 numbers were never issued in the ten-digit space, so they have no ISBN-10.
 */
export function isbn13To10(isbn13: string): string | null {
  if (!isValidIsbn13(isbn13)) return null;
  const n = normalizeIdentifier(isbn13);
  if (!n.startsWith('978')) return null;
  const body = n.slice(3, 12);
  return body + isbn10CheckDigit(body);
}

/**
 * Display-only hyphenation as 978-X-XXXX-XXXX-X. Real ISBN hyphenation depends on the
 * registration-group and registrant ranges published by the International ISBN Agency, which
 * we do not ship; this fixed grouping is only for readability and must never be stored or
 * compared. Input that is not a valid ISBN-13 is returned unchanged.
 */
export function formatIsbn13(s: string): string {
  if (!isValidIsbn13(s)) return s;
  const n = normalizeIdentifier(s);
  return `${n.slice(0, 3)}-${n.slice(3, 4)}-${n.slice(4, 8)}-${n.slice(8, 12)}-${n.slice(12)}`;
}

/**
 * The identifier values a typed number may be stored as (product_identifiers.value: digits and
 * X only): itself, normalised, and an ISBN-10 also as its ISBN-13 and the other way round.
 * None when it is not shaped like an identifier (9 to 16 digits, an X at the end allowed).
 */
export function identifierReadings(raw: string): string[] {
  const compact = normalizeIdentifier(raw.trim());
  if (!/^[0-9]{9,16}X?$/.test(compact)) return [];
  const readings = new Set([compact]);
  const as13 = isbn10To13(compact);
  if (as13) readings.add(as13);
  const as10 = isbn13To10(compact);
  if (as10) readings.add(as10);
  return [...readings];
}
