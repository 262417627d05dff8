import { describe, expect, it } from 'vitest';
import { courseCodeOf, editionOf, parseSearchTerms } from './search-terms.ts';

describe('search terms (spec 1 §5, spec 2 §2 Search)', () => {
  it('an empty or blank term is refused', () => {
    expect(parseSearchTerms('')).toEqual({ ok: false, reason: 'empty' });
    expect(parseSearchTerms('   ')).toEqual({ ok: false, reason: 'empty' });
    expect(parseSearchTerms(null)).toEqual({ ok: false, reason: 'empty' });
  });

  it('more than 1000 characters is refused', () => {
    expect(parseSearchTerms('a'.repeat(1001))).toEqual({ ok: false, reason: 'tooLong' });
    expect(parseSearchTerms('a'.repeat(1000)).ok).toBe(true);
  });

  it('an ISBN with hyphens also looks up its digits, and an ISBN-10 its ISBN-13', () => {
    const parsed = parseSearchTerms('0-306-40615-2');
    expect(parsed).toMatchObject({
      ok: true,
      text: '0-306-40615-2',
      identifiers: ['0306406152', '9780306406157'],
      course: null,
      edition: null,
    });
  });

  it('an ISBN-13 also looks up its ISBN-10', () => {
    expect(parseSearchTerms('978-0-306-40615-7')).toMatchObject({
      identifiers: ['9780306406157', '0306406152'],
    });
  });

  it('words are not identifiers', () => {
    expect(parseSearchTerms('  organic   chemistry ')).toEqual({
      ok: true,
      text: 'organic chemistry',
      identifiers: [],
      course: null,
      edition: null,
      words: 'organic chemistry',
    });
  });
});

describe('course codes in a search (issue 19: Find by course)', () => {
  it("issue 19: 'BIO 101', 'BIO101', 'bio-101' and 'Biology 101' are course BIO 101", () => {
    expect(courseCodeOf('BIO 101')).toEqual({ subject: 'BIO', number: '101' });
    expect(courseCodeOf('BIO101')).toEqual({ subject: 'BIO', number: '101' });
    expect(courseCodeOf('bio-101')).toEqual({ subject: 'bio', number: '101' });
    expect(courseCodeOf('  Biology   101 ')).toEqual({ subject: 'Biology', number: '101' });
    expect(parseSearchTerms('BIO101')).toMatchObject({
      ok: true,
      course: { subject: 'BIO', number: '101' },
      edition: null,
    });
  });

  it('issue 19: a department of several words, and a lettered course number', () => {
    expect(courseCodeOf('Computer Science 120')).toEqual({
      subject: 'Computer Science',
      number: '120',
    });
    expect(courseCodeOf('chem 110l')).toEqual({ subject: 'chem', number: '110L' });
    expect(courseCodeOf('Biologie 101')).toEqual({ subject: 'Biologie', number: '101' });
  });

  it('issue 19: titles, ISBNs, bare numbers and editions are not course codes', () => {
    for (const text of [
      'Principles of Biology',
      '101',
      '9780306406157',
      'Cell Biology 11th edition',
      'A very long title of many words 101',
      'BIO 1',
      'BIO 10101',
    ]) {
      expect(courseCodeOf(text)).toBeNull();
    }
  });
});

describe('edition words in a search (issue 19)', () => {
  it("issue 19: 'Cell Biology 11th edition' asks for edition 11 of 'Cell Biology'", () => {
    expect(parseSearchTerms('Cell Biology 11th edition')).toMatchObject({
      ok: true,
      text: 'Cell Biology 11th edition',
      edition: 11,
      words: 'Cell Biology',
      course: null,
    });
  });

  it("issue 19: '2nd ed.', 'second edition', '3rd Ed', 'edition 4', French '2e édition'", () => {
    expect(editionOf('2nd ed.')).toEqual({ number: 2, rest: '' });
    expect(editionOf('Anatomy, second edition')).toEqual({ number: 2, rest: 'Anatomy' });
    expect(editionOf('Organic Chemistry 3rd Ed')).toEqual({ number: 3, rest: 'Organic Chemistry' });
    expect(editionOf('Physics edition 4')).toEqual({ number: 4, rest: 'Physics' });
    expect(editionOf('Biologie cellulaire 2e édition')).toEqual({
      number: 2,
      rest: 'Biologie cellulaire',
    });
    expect(editionOf('Chimie, troisième éd.')).toEqual({ number: 3, rest: 'Chimie' });
    expect(editionOf('Microeconomics (5th edn)')).toEqual({ number: 5, rest: 'Microeconomics' });
  });

  it('issue 19: an ordinal alone, or edition inside another word, is part of the title', () => {
    expect(editionOf('21st Century Economics')).toBeNull();
    expect(editionOf('The Second Sex')).toBeNull();
    expect(editionOf('3 editorial essays')).toBeNull();
    expect(editionOf('Special edition')).toBeNull();
    expect(editionOf('0th edition')).toBeNull();
    expect(parseSearchTerms('21st Century Economics')).toMatchObject({
      edition: null,
      words: '21st Century Economics',
    });
  });
});
