// The instructor's notes to a classroom (issue 14, Classroom: "the instructor's notes to the
// class"): short plain text, written, edited and deleted by the section's instructors, read by
// its students.

/** A note is short: at most this many characters, once trimmed. */
export const NOTE_MAX_LENGTH = 500;

export type NoteProblem = 'classroom.note.error.empty' | 'classroom.note.error.tooLong';

/** The note as it is kept: trimmed, with Windows line ends made plain. */
export function noteText(raw: string): string {
  return raw.replace(/\r\n?/g, '\n').trim();
}

/** What keeps a note from being kept, as a message key, or null when it may be. */
export function noteProblem(raw: string): NoteProblem | null {
  const text = noteText(raw);
  if (text === '') return 'classroom.note.error.empty';
  if ([...text].length > NOTE_MAX_LENGTH) return 'classroom.note.error.tooLong';
  return null;
}
