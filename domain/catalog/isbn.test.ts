import { describe, expect, it } from 'vitest';
import {
  formatIsbn13,
  isbn10CheckDigit,
  isbn10To13,
  isbn13CheckDigit,
  isbn13To10,
  isValidIsbn10,
  isValidIsbn13,
  normalizeIdentifier,
} from './isbn.ts';

describe('normalizeIdentifier', () => {
  it('strips hyphens and spaces and upper-cases the X check digit', () => {
    expect(normalizeIdentifier(' 0-8044-2957-x ')).toBe('080442957X');
    expect(normalizeIdentifier('978 0 306 40615 7')).toBe('9780306406157');
  });

  it('strips the typographic hyphens that pasted publisher data carries', () => {
    expect(normalizeIdentifier('978\u20110\u2010306\u201340615\u00ad7')).toBe('9780306406157');
  });
});

describe('check digits', () => {
  it('computes the ISBN-13 check digit of real books', () => {
    expect(isbn13CheckDigit('978030640615')).toBe('7');
    expect(isbn13CheckDigit('978-3-16-148410')).toBe('0');
    expect(isbn13CheckDigit('979109063607')).toBe('1');
  });

  it('computes the ISBN-10 check digit, including X for ten', () => {
    expect(isbn10CheckDigit('030640615')).toBe('2');
    expect(isbn10CheckDigit('080442957')).toBe('X');
    expect(isbn10CheckDigit('316148410')).toBe('X');
  });

  it('refuses inputs of the wrong length or with letters', () => {
    expect(() => isbn13CheckDigit('97803064061')).toThrow(RangeError);
    expect(() => isbn13CheckDigit('97803064061A')).toThrow(RangeError);
    expect(() => isbn10CheckDigit('0306406')).toThrow(RangeError);
  });
});

describe('validation', () => {
  it.each([
    '978-0-306-40615-7',
    '9783161484100',
    '978-0-13-110362-7',
    '979-10-90636-07-1',
  ])('accepts the real ISBN-13 %s', (isbn) => {
    expect(isValidIsbn13(isbn)).toBe(true);
  });

  it.each([
    '978-0-306-40615-8',
    '978030640615',
    '97803064061577',
    '978-0-306-4O615-7',
    '',
  ])('rejects %j as an ISBN-13', (isbn) => {
    expect(isValidIsbn13(isbn)).toBe(false);
  });

  it.each([
    '0-306-40615-2',
    '0-8044-2957-X',
    '080442957x',
    '3-16-148410-X',
  ])('accepts the real ISBN-10 %s', (isbn) => {
    expect(isValidIsbn10(isbn)).toBe(true);
  });

  it.each([
    '0-306-40615-3',
    'X-306-40615-2',
    '030640615',
    '0-306-40615-22',
  ])('rejects %j as an ISBN-10', (isbn) => {
    expect(isValidIsbn10(isbn)).toBe(false);
  });
});

describe('conversion between ISBN-10 and ISBN-13', () => {
  it('converts an ISBN-10 to its 978 ISBN-13', () => {
    expect(isbn10To13('0-306-40615-2')).toBe('9780306406157');
    expect(isbn10To13('0-8044-2957-X')).toBe('9780804429573');
  });

  it('converts a 978 ISBN-13 back to its ISBN-10, including an X check digit', () => {
    expect(isbn13To10('978-0-306-40615-7')).toBe('0306406152');
    expect(isbn13To10('978-3-16-148410-0')).toBe('316148410X');
  });

  it('round-trips every conversion', () => {
    for (const isbn10 of ['0131103628', '0596520689', '1402894627', '080442957X']) {
      const isbn13 = isbn10To13(isbn10);
      expect(isbn13).not.toBeNull();
      expect(isbn13To10(isbn13 as string)).toBe(isbn10);
    }
  });

  it('has no ISBN-10 for a 979 ISBN-13', () => {
    expect(isbn13To10('979-10-90636-07-1')).toBeNull();
  });

  it('returns null for invalid input instead of inventing a number', () => {
    expect(isbn10To13('0-306-40615-3')).toBeNull();
    expect(isbn13To10('978-0-306-40615-8')).toBeNull();
  });
});

describe('formatIsbn13', () => {
  it('hyphenates a valid ISBN-13 with the fixed display grouping', () => {
    expect(formatIsbn13('9780306406157')).toBe('978-0-3064-0615-7');
    expect(formatIsbn13('978-3-16-148410-0')).toBe('978-3-1614-8410-0');
  });

  it('leaves anything that is not a valid ISBN-13 untouched', () => {
    expect(formatIsbn13('0-306-40615-2')).toBe('0-306-40615-2');
    expect(formatIsbn13('not an isbn')).toBe('not an isbn');
  });
});
