import { describe, expect, it } from 'vitest';
import type { Annotation } from '#domain/reading/annotations.ts';
import { type PendingChange, temporaryId, withChange, withPending } from './pending-annotations.ts';

// Issue 16: "positions, highlights and notes made offline sync when back online without losing
// any". What waits on the device, and what the reader sees meanwhile.

const saved: Annotation = {
  id: 7,
  kind: 'highlight',
  colour: 'yellow',
  note: null,
  part: 0,
  exact: 'The cell',
  located: { start: 0, end: 8, exact: true },
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};
const add = (id: number): PendingChange => ({
  op: 'add',
  id,
  input: { kind: 'highlight', part: 1, start: 4, end: 12, colour: 'blue' },
  exact: 'mitochon',
  at: '2026-11-29T10:00:00.000Z',
  note: null,
});
const now = '2026-11-29T11:00:00.000Z';

describe('changes made offline', () => {
  it('a highlight made offline is shown at once, with a temporary id below zero', () => {
    const id = temporaryId([]);
    expect(id).toBe(-1);
    const pending = withChange([], add(id));
    expect(temporaryId(pending)).toBe(-2);
    expect(withPending([saved], pending, now)).toEqual([
      saved,
      {
        id: -1,
        kind: 'highlight',
        colour: 'blue',
        note: null,
        part: 1,
        exact: 'mitochon',
        located: { start: 4, end: 12, exact: true },
        createdAt: '2026-11-29T10:00:00.000Z',
        updatedAt: '2026-11-29T10:00:00.000Z',
      },
    ]);
  });

  it('a note on it, or its removal, folds into the waiting highlight: one call, or none', () => {
    const noted = withChange([add(-1)], { op: 'change', id: -1, change: { note: 'Exam' } });
    expect(noted).toEqual([{ ...add(-1), note: 'Exam' }]);
    const recoloured = withChange(noted, { op: 'change', id: -1, change: { colour: 'pink' } });
    expect(recoloured[0]).toMatchObject({ note: 'Exam', input: { colour: 'pink' } });
    expect(withChange(recoloured, { op: 'remove', id: -1 })).toEqual([]);
  });

  it('changes to saved ones wait in order and are shown applied', () => {
    const pending = withChange(withChange([], { op: 'change', id: 7, change: { note: 'Why?' } }), {
      op: 'remove',
      id: 8,
    });
    expect(pending.map((item) => item.op)).toEqual(['change', 'remove']);
    const other = { ...saved, id: 8 };
    expect(withPending([saved, other], pending, now)).toEqual([
      { ...saved, note: 'Why?', updatedAt: now },
    ]);
  });
});
