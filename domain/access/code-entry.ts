// How a typed code is read, wherever a code is taken: the redeem page, the redeem dialog and
// POST /api/redeem, and the classroom's section code (spec 1 §5: a redeem code is trimmed and
// must not be empty; issue 38, Redeem: it accepts a code as people type it).
import { Invalid } from '#domain/shared/errors.ts';
import { lookalikeCodes } from './redeem-failure.ts';

/** No code is longer, once its spaces and hyphens are gone. */
export const MAX_CODE_LENGTH = 64;

/**
 * The one form codes are compared in: case, spaces and hyphens are no part of a code, so
 * `shelf demo 2026`, `SHELF-DEMO-2026` and `SHELFDEMO-2026` are one code. Dashes a phone or a
 * word processor puts for a hyphen (en dash, minus sign…) count as hyphens; compatibility
 * characters (full-width letters of an Asian keyboard) read as their plain letters.
 */
export function canonicalCode(raw: string): string {
  return raw
    .normalize('NFKC')
    .replace(/[\s\p{Pd}\u2212\u00ad]/gu, '')
    .toUpperCase();
}

/**
 * A code as typed, in its canonical form; empty is 'This field may not be null.' (spec 1 §5),
 * and a code longer than any code is unknown.
 */
export function typedCode(raw: string | null | undefined): string {
  const code = canonicalCode(raw ?? '');
  if (code === '') throw new Invalid('redeem.error.empty');
  if (code.length > MAX_CODE_LENGTH) throw new Invalid('redeem.error.unknown');
  return code;
}

/**
 * The readings of a canonical code to look up: itself first, then each reading with an O, 0,
 * I or 1 taken for its look-alike (none when there are too many to be a typo).
 */
export function codeReadings(code: string): string[] {
  return [code, ...lookalikeCodes(code)];
}

/** A code the store holds that reads like the typed one, in canonical form, with its record. */
export type CodeFound<T> = { code: string; record: T };

export type MeantCode<T> =
  | { kind: 'exact'; code: string; record: T }
  | { kind: 'lookalike'; code: string; record: T }
  /** More than one code reads like it: none is taken, the first names the hint. */
  | { kind: 'ambiguous'; codes: string[] }
  | { kind: 'none' };

/**
 * Which held code the typist meant (issue 38: O for 0 where unambiguous): the code as typed
 * when the store holds it; else the one code that differs from it by O/0 or I/1 only; when
 * two or more do, none of them (the person is told which character to check instead).
 */
export function meantCode<T>(typed: string, found: readonly CodeFound<T>[]): MeantCode<T> {
  const exact = found.find((candidate) => candidate.code === typed);
  if (exact) return { kind: 'exact', code: exact.code, record: exact.record };
  const readings = new Set(lookalikeCodes(typed));
  const alike = found.filter((candidate) => readings.has(candidate.code));
  const codes = [...new Set(alike.map((candidate) => candidate.code))];
  if (codes.length === 0) return { kind: 'none' };
  if (codes.length > 1) return { kind: 'ambiguous', codes };
  return { kind: 'lookalike', code: alike[0]!.code, record: alike[0]!.record };
}
