// Which way a stroke on the reader's page turns it (issue 19: swipe turns pages on a phone).
// A swipe is quick and mostly sideways; anything else (a scroll, a slow drag to select, a
// tap) turns nothing.

export const SWIPE = {
  /** The shortest sideways stroke that turns a page, in CSS pixels. */
  minDistance: 50,
  /** Sideways must outweigh up-and-down by this much. */
  ratio: 1.5,
  /** Longer than this is a drag, not a swipe. */
  maxMs: 800,
} as const;

/** 'next' for a stroke to the left (as a page is turned), 'previous' to the right. */
export function swipeTurn(dx: number, dy: number, ms: number): 'next' | 'previous' | null {
  if (ms > SWIPE.maxMs || Math.abs(dx) < SWIPE.minDistance) return null;
  if (Math.abs(dx) < Math.abs(dy) * SWIPE.ratio) return null;
  return dx < 0 ? 'next' : 'previous';
}
