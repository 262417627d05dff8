import { describe, expect, it } from 'vitest';
import { NOTE_MAX_LENGTH, noteProblem, noteText } from './classroom-note.ts';

describe('an instructor’s note to the class (issue 14, Classroom)', () => {
  it('is kept trimmed, with plain line ends', () => {
    expect(noteText('  Read chapter 2.\r\nQuiz on Friday.  ')).toBe(
      'Read chapter 2.\nQuiz on Friday.',
    );
  });

  it('may not be blank', () => {
    expect(noteProblem('')).toBe('classroom.note.error.empty');
    expect(noteProblem(' \n\t ')).toBe('classroom.note.error.empty');
  });

  it(`is short: ${NOTE_MAX_LENGTH} characters pass, one more does not`, () => {
    expect(noteProblem('a'.repeat(NOTE_MAX_LENGTH))).toBeNull();
    expect(noteProblem(`  ${'a'.repeat(NOTE_MAX_LENGTH)}  `)).toBeNull();
    expect(noteProblem('a'.repeat(NOTE_MAX_LENGTH + 1))).toBe('classroom.note.error.tooLong');
  });

  it('counts characters, not UTF-16 units: an accented or emoji note is not cut short', () => {
    expect(noteProblem('é'.repeat(NOTE_MAX_LENGTH))).toBeNull();
    expect(noteProblem('📚'.repeat(NOTE_MAX_LENGTH))).toBeNull();
    expect(noteProblem('📚'.repeat(NOTE_MAX_LENGTH + 1))).toBe('classroom.note.error.tooLong');
  });
});
