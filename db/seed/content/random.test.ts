import { describe, expect, it } from 'vitest';
import { createRandom } from './random.ts';

describe('createRandom', () => {
  it('replays the same sequence for the same seed', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const seqA = Array.from({ length: 20 }, () => a.next());
    const seqB = Array.from({ length: 20 }, () => b.next());
    expect(seqA).toEqual(seqB);
  });

  it('gives a different sequence for a different seed', () => {
    expect(createRandom(1).next()).not.toBe(createRandom(2).next());
  });

  it('keeps next() within [0, 1)', () => {
    const r = createRandom(7);
    for (let i = 0; i < 10_000; i++) {
      const x = r.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });

  it('reaches both ends of an inclusive int range and nothing outside it', () => {
    const r = createRandom(3);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) seen.add(r.int(-2, 2));
    expect([...seen].sort()).toEqual([-1, -2, 0, 1, 2]);
  });

  it('refuses an int range that is reversed or fractional', () => {
    const r = createRandom(3);
    expect(() => r.int(5, 1)).toThrow(RangeError);
    expect(() => r.int(0.5, 2)).toThrow(RangeError);
  });

  it('picks only members of the array and refuses an empty one', () => {
    const r = createRandom(9);
    const items = ['a', 'b', 'c'] as const;
    for (let i = 0; i < 100; i++) expect(items).toContain(r.pick(items));
    expect(() => r.pick([])).toThrow(RangeError);
  });

  it('returns a chance() rate close to the requested probability', () => {
    const r = createRandom(11);
    let hits = 0;
    for (let i = 0; i < 10_000; i++) if (r.chance(0.3)) hits++;
    expect(hits / 10_000).toBeGreaterThan(0.27);
    expect(hits / 10_000).toBeLessThan(0.33);
  });

  it('shuffles into a permutation without touching the input', () => {
    const input = Array.from({ length: 30 }, (_, i) => i);
    const copy = [...input];
    const shuffled = createRandom(5).shuffle(input);
    expect(input).toEqual(copy);
    expect(shuffled).not.toEqual(input);
    expect([...shuffled].sort((x, y) => x - y)).toEqual(input);
  });
});
