import { describe, expect, it } from 'vitest';
import { LONGEST_FIRST, longestFirst, shuffled } from '../e2e/sequencer.ts';

// Issue 36: the browser files run in an order drawn from the run's seed, the longest first.

const files = Array.from({ length: 49 }, (_, i) => `/repo/tests/e2e/journey-${i}.test.ts`);

describe('the browser files’ order', () => {
  it('is the same for the same seed, another for another, and keeps every file once', () => {
    const order = shuffled(files, 4242);
    expect(shuffled(files, 4242)).toEqual(order);
    expect(shuffled(files, 4243)).not.toEqual(order);
    expect(order).not.toEqual(files);
    expect([...order].sort()).toEqual([...files].sort());
  });

  it('starts the longest files first and keeps the drawn order of the rest', () => {
    const long = `/repo/${LONGEST_FIRST[0]}`;
    const drawn = shuffled([...files, long], 7);
    const order = longestFirst(drawn, (file) => file);
    expect(order[0]).toBe(long);
    expect(order.slice(1)).toEqual(drawn.filter((file) => file !== long));
  });
});
