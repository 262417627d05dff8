import { identifierReadings } from './isbn.ts';

// spec 1 §5 / spec 2 §5: search terms must be non-empty, at most 1000 characters.
export const SEARCH_MAX_LENGTH = 1000;

/** A course code as shoppers type it: a department (code or name) and a course number. */
export type CourseCode = { subject: string; number: string };

export type SearchTerms =
  | {
      ok: true;
      /** What was typed, spaces tidied: shown back, and searched when nothing else applies. */
      text: string;
      identifiers: string[];
      /** 'BIO 101', 'BIO101', 'bio-101', 'Biology 101': the course whose materials come first. */
      course: CourseCode | null;
      /** '11th edition', '2nd ed.', 'second edition': the edition number asked for. */
      edition: number | null;
      /** The text without its edition words (the words full-text search needs). */
      words: string;
    }
  | { ok: false; reason: 'empty' | 'tooLong' };

/**
 * Reads what the shopper typed: the text for full-text and similarity search, and the
 * identifier values it could be (with or without hyphens; an ISBN-10 also as its ISBN-13).
 */
export function parseSearchTerms(raw: string | null | undefined): SearchTerms {
  const text = (raw ?? '').trim().replace(/\s+/g, ' ');
  if (!text) return { ok: false, reason: 'empty' };
  if (text.length > SEARCH_MAX_LENGTH) return { ok: false, reason: 'tooLong' };
  const identifiers = identifierReadings(text);
  const edition = editionOf(text);
  return {
    ok: true,
    text,
    identifiers,
    course: courseCodeOf(text),
    edition: edition?.number ?? null,
    words: edition?.rest ?? text,
  };
}

// A department is letters (a code 'BIO', 'CHEM' or a name 'Biology', 'Computer Science'),
// a course number 2 to 4 digits with an optional letter ('101', '221L'), joined by nothing,
// spaces or a hyphen. A name is at most four words: longer text is a title, not a course.
const COURSE_CODE = /^(\p{L}[\p{L}&'.]*(?: \p{L}[\p{L}&'.]*){0,3}?)[ -]?(\d{2,4}\p{L}?)$/u;

/** The course code a search term is, or null: issue 19, 'BIO 101' finds BIO 101's materials. */
export function courseCodeOf(text: string): CourseCode | null {
  const match = COURSE_CODE.exec(text.trim().replace(/\s+/g, ' '));
  if (!match) return null;
  const subject = match[1]!.replace(/[.]+$/, '');
  if (!subject) return null;
  return { subject, number: match[2]!.toUpperCase() };
}

const ORDINAL_WORDS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  // French: 'deuxième édition', '2e édition'.
  premiere: 1,
  première: 1,
  deuxieme: 2,
  deuxième: 2,
  troisieme: 3,
  troisième: 3,
  quatrieme: 4,
  quatrième: 4,
  cinquieme: 5,
  cinquième: 5,
};

const EDITION_WORD = '(?:editions?|ed\\.?|édition|éd\\.?|edn\\.?)';
const ORDINAL = `(\\d{1,3})(?:st|nd|rd|th|e|er|re|ème|eme)?|(${Object.keys(ORDINAL_WORDS).join('|')})`;
// '11th edition', '2nd ed.', 'second edition', '3e édition'; also 'edition 4', 'ed. 4'.
const EDITION_BEFORE = new RegExp(
  `(?:^|[\\s,(])(?:${ORDINAL})\\s*${EDITION_WORD}(?=$|[\\s,;)])`,
  'iu',
);
const EDITION_AFTER = new RegExp(`(?:^|[\\s,(])${EDITION_WORD}\\s*(\\d{1,3})(?=$|[\\s,;)])`, 'iu');
// Editions of the catalog are numbers from 1 (products.edition_number > 0; smallint).
const MAX_EDITION = 200;

/**
 * The edition a term asks for and the term without those words, or null when it names none:
 * 'Cell Biology 11th edition' reads as edition 11 of 'Cell Biology' (issue 19). An ordinal
 * alone ('21st Century Economics') is a title's word, not an edition.
 */
export function editionOf(text: string): { number: number; rest: string } | null {
  const before = EDITION_BEFORE.exec(text);
  const after = before ? null : EDITION_AFTER.exec(text);
  const match = before ?? after;
  if (!match) return null;
  const number = before
    ? before[1]
      ? Number(before[1])
      : ORDINAL_WORDS[before[2]!.toLowerCase()]
    : Number(after![1]);
  if (!number || number < 1 || number > MAX_EDITION) return null;
  const rest = `${text.slice(0, match.index)} ${text.slice(match.index + match[0].length)}`
    .replace(/[\s,;()]+/g, ' ')
    .trim();
  return { number, rest };
}
