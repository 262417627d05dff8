import {
  isbn10To13,
  isbn13To10,
  isValidIsbn10,
  isValidIsbn13,
  normalizeIdentifier,
} from './isbn.ts';

// spec 1 §5 / spec 2 §5: search terms must be non-empty, at most 1000 characters.
export const SEARCH_MAX_LENGTH = 1000;

export type SearchTerms =
  | { ok: true; text: string; identifiers: string[] }
  | { ok: false; reason: 'empty' | 'tooLong' };

/**
 * Reads what the shopper typed: the text for full-text and similarity search, and the
 * identifier values it could be (with or without hyphens; an ISBN-10 also as its ISBN-13).
 */
export function parseSearchTerms(raw: string | null | undefined): SearchTerms {
  const text = (raw ?? '').trim().replace(/\s+/g, ' ');
  if (!text) return { ok: false, reason: 'empty' };
  if (text.length > SEARCH_MAX_LENGTH) return { ok: false, reason: 'tooLong' };
  const compact = normalizeIdentifier(text);
  const identifiers = new Set<string>();
  if (/^[0-9]{9,16}X?$/.test(compact)) {
    identifiers.add(compact);
    if (isValidIsbn10(compact)) {
      const as13 = isbn10To13(compact);
      if (as13) identifiers.add(as13);
    }
    if (isValidIsbn13(compact)) {
      const as10 = isbn13To10(compact);
      if (as10) identifiers.add(as10);
    }
  }
  return { ok: true, text, identifiers: [...identifiers] };
}
