import { describe, expect, it } from 'vitest';
import { SWIPE, swipeTurn } from './swipe.ts';

describe('swipeTurn (issue 19: swipe turns pages in the reader)', () => {
  it('a quick stroke to the left is the next page, to the right the previous one', () => {
    expect(swipeTurn(-120, 10, 200)).toBe('next');
    expect(swipeTurn(120, -10, 200)).toBe('previous');
  });

  it('a tap, a scroll or a slow drag turns nothing', () => {
    expect(swipeTurn(-10, 0, 100)).toBeNull();
    expect(swipeTurn(-80, 200, 200)).toBeNull();
    expect(swipeTurn(-200, 0, SWIPE.maxMs + 1)).toBeNull();
  });
});
