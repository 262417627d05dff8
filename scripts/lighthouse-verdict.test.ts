import { describe, expect, it } from 'vitest';
import { MAX_FCP_MS, MIN_SCORE, RUNS, verdictOf } from './lighthouse-verdict.ts';

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}

/** The verdict of all RUNS runs, as `npm run lighthouse` gave it before it could stop early. */
function fullVerdict(scores: number[], fcpMs: number[]): 'pass' | 'fail' {
  return median(scores) >= MIN_SCORE && median(fcpMs) <= MAX_FCP_MS ? 'pass' : 'fail';
}

describe('a Lighthouse page stops once its median of five is decided (issue 36)', () => {
  it('three passing runs decide a pass; two do not', () => {
    expect(verdictOf([100, 99], [900, 950])).toBeNull();
    expect(verdictOf([100, 99, 96], [900, 950, 1000])).toBe('pass');
  });

  it('a run that passes the score but paints late is not a pass', () => {
    expect(verdictOf([100, 100, 100], [900, 1900, 950])).toBeNull();
    expect(verdictOf([100, 100, 100, 100], [900, 1900, 950, 1000])).toBe('pass');
  });

  it('three low scores, or three late paints, decide a fail', () => {
    expect(verdictOf([90, 94, 80], [900, 900, 900])).toBe('fail');
    expect(verdictOf([100, 100, 100], [1900, 2000, 1801])).toBe('fail');
    expect(verdictOf([90, 100, 94], [900, 900, 900])).toBeNull();
  });

  it('a decided verdict is the one five runs give, whatever the runs not made would have been', () => {
    // Every sequence of five runs from a few telling values: wherever the early verdict is
    // given, the median of all five agrees.
    const runs = [
      [100, 900],
      [95, 1800],
      [94, 900],
      [100, 1801],
      [80, 2500],
    ] as const;
    let decidedEarly = 0;
    const sequence = (n: number): (readonly [number, number])[][] =>
      n === 0 ? [[]] : sequence(n - 1).flatMap((s) => runs.map((r) => [...s, r]));
    for (const five of sequence(RUNS)) {
      const scores = five.map(([score]) => score);
      const fcps = five.map(([, fcp]) => fcp);
      const whole = fullVerdict(scores, fcps);
      for (let taken = 1; taken <= RUNS; taken += 1) {
        const early = verdictOf(scores.slice(0, taken), fcps.slice(0, taken));
        if (early !== null) {
          if (taken < RUNS) decidedEarly += 1;
          expect(early, JSON.stringify(five.slice(0, taken))).toBe(whole);
          break;
        }
      }
    }
    expect(decidedEarly).toBeGreaterThan(0);
  });
});
