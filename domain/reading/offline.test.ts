import { describe, expect, it } from 'vitest';
import { offlineParts } from './offline.ts';

// Spec 1 §3 product drm offlinePercent; issue 16: "Offline reading up to the book's offline
// percentage: a service worker keeps that share of the book".

describe('offlineParts: the share of a book a device keeps for reading offline', () => {
  const chapters = [100, 200, 300, 400]; // 1,000 characters

  it('keeps whole parts from where the reader is, forward, within the percentage', () => {
    expect(offlineParts(chapters, 50, 1)).toEqual([1, 2]); // 500 of 500
    // 499: part 2 (300) no longer fits after part 1; what is left (299) takes part 0 (100).
    expect(offlineParts(chapters, 49.99, 1)).toEqual([0, 1]);
    expect(offlineParts(chapters, 100, 0)).toEqual([0, 1, 2, 3]);
  });

  it('then goes back from where the reader is with what is left', () => {
    // 70 % = 700: parts 2 and 3 (700) from part 2; nothing left for part 1.
    expect(offlineParts(chapters, 70, 2)).toEqual([2, 3]);
    // 80 % = 800: parts 2, 3 (700) and back to part 0 (100)? Part 1 (200) does not fit: stop.
    expect(offlineParts(chapters, 80, 2)).toEqual([2, 3]);
    // 90 % = 900: parts 2, 3, then part 1 (200): 900.
    expect(offlineParts(chapters, 90, 2)).toEqual([1, 2, 3]);
  });

  it('keeps nothing when the part the reader is in does not fit, or without a percentage', () => {
    expect(offlineParts(chapters, 30, 3)).toEqual([]); // 300 < 400
    expect(offlineParts(chapters, null, 0)).toEqual([]);
    expect(offlineParts(chapters, 0, 0)).toEqual([]);
    expect(offlineParts([], 100, 0)).toEqual([]);
  });

  it('counts a fixed-layout book in pages, and a place outside the book as its nearest end', () => {
    expect(offlineParts([1, 1, 1, 1, 1, 1, 1], 50, 0)).toEqual([0, 1, 2]); // 3 of 7 pages
    expect(offlineParts(chapters, 40, 99)).toEqual([3]);
    expect(offlineParts(chapters, 10, -5)).toEqual([0]);
  });
});
