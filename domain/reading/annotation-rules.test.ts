import { describe, expect, it } from 'vitest';
import { sameAnnotation } from './annotation-rules.ts';

describe('sameAnnotation (issue 16: nothing highlighted or bookmarked twice)', () => {
  const list = [
    { id: 1, kind: 'highlight' as const, part: 2, located: { start: 10, end: 40 } },
    { id: 2, kind: 'bookmark' as const, part: 3, located: { start: 0, end: 60 } },
    { id: 3, kind: 'highlight' as const, part: 4, located: null },
  ];
  it('a highlight of exactly the same words', () => {
    expect(sameAnnotation(list, 'highlight', { part: 2, start: 10, end: 40 })?.id).toBe(1);
    expect(sameAnnotation(list, 'highlight', { part: 2, start: 10, end: 41 })).toBeUndefined();
    expect(sameAnnotation(list, 'highlight', { part: 1, start: 10, end: 40 })).toBeUndefined();
  });
  it('a bookmark of the same place, whatever words it holds', () => {
    expect(sameAnnotation(list, 'bookmark', { part: 3, start: 0, end: 58 })?.id).toBe(2);
    expect(sameAnnotation(list, 'bookmark', { part: 3, start: 1, end: 60 })).toBeUndefined();
    // A highlight is not a bookmark, and a lost one is not here at all.
    expect(sameAnnotation(list, 'bookmark', { part: 2, start: 10, end: 40 })).toBeUndefined();
    expect(sameAnnotation(list, 'highlight', { part: 4, start: 0, end: 5 })).toBeUndefined();
  });
});
