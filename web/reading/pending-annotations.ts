import type { AnnotationKind, HighlightColour } from '#domain/reading/annotation-rules.ts';
import type { Annotation } from '#domain/reading/annotations.ts';

// Highlights, notes and bookmarks made while offline (issue 16: "positions, highlights and
// notes made offline sync when back online without losing any"). Each change waits on the
// device, in order, as the call it will be; what the reader sees is the server's list with
// the waiting changes applied. A highlight made offline has a temporary id below zero until
// the server gives it its own; a change to it, or its removal, folds into the waiting call.

export type NewAnnotation = {
  kind: AnnotationKind;
  part: number;
  start: number;
  end: number;
  colour?: HighlightColour;
};

export type PendingChange =
  | {
      op: 'add';
      id: number;
      input: NewAnnotation;
      exact: string;
      at: string;
      note: string | null;
      /** Its name for the server: sent again after a lost answer, it is not made twice. */
      key?: string;
    }
  | { op: 'change'; id: number; change: { colour?: HighlightColour; note?: string | null } }
  | { op: 'remove'; id: number };

/** The annotation a waiting 'add' stands for, as the reader shows it until it is saved. */
export function localAnnotation(add: Extract<PendingChange, { op: 'add' }>): Annotation {
  return {
    id: add.id,
    kind: add.input.kind,
    colour: add.input.kind === 'highlight' ? (add.input.colour ?? 'yellow') : null,
    note: add.note,
    part: add.input.part,
    exact: add.exact,
    located: { start: add.input.start, end: add.input.end, exact: true },
    createdAt: add.at,
    updatedAt: add.at,
  };
}

/** The waiting changes with one more, folded into a waiting 'add' when it is about one. */
export function withChange(
  pending: readonly PendingChange[],
  change: PendingChange,
): PendingChange[] {
  if (change.op === 'add' || change.id > 0) return [...pending, change];
  // About a highlight not saved yet: its 'add' changes, or goes.
  if (change.op === 'remove') return pending.filter((item) => item.id !== change.id);
  return pending.map((item) =>
    item.op === 'add' && item.id === change.id
      ? {
          ...item,
          input: change.change.colour
            ? { ...item.input, colour: change.change.colour }
            : item.input,
          note: change.change.note === undefined ? item.note : change.change.note,
        }
      : item,
  );
}

/** The server's list as the reader is to see it: the waiting changes applied, in order. */
export function withPending(
  list: readonly Annotation[],
  pending: readonly PendingChange[],
  now: string,
): Annotation[] {
  let result = [...list];
  for (const item of pending) {
    if (item.op === 'add') result.push(localAnnotation(item));
    else if (item.op === 'remove') result = result.filter((a) => a.id !== item.id);
    else
      result = result.map((a) =>
        a.id === item.id
          ? {
              ...a,
              colour: item.change.colour ?? a.colour,
              note: item.change.note === undefined ? a.note : item.change.note,
              updatedAt: now,
            }
          : a,
      );
  }
  return result;
}

/** A temporary id for a highlight made offline: below zero, never one the server gives. */
export function temporaryId(pending: readonly PendingChange[]): number {
  return Math.min(0, ...pending.map((item) => item.id)) - 1;
}
