import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The browser files' order (issue 36). A shuffled run (`--sequence.shuffle`, as CI runs them)
// puts the files in an order drawn from the run's seed, and shuffles each file's tests; either
// way the files that take longest start first. Two files run at once: when the hostile-input
// suite (145-210 s) drew a place near the end, the other worker sat idle for most of it, and a
// shuffled run took 570 s for 925 s of files.

/** Files started first, in this order, whatever the shuffle. */
export const LONGEST_FIRST = [
  'tests/e2e/hostile-input.test.ts',
  'tests/e2e/hostile-input-operations.test.ts',
];

/** A small seeded generator (mulberry32): the same seed, the same order. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `items` in an order drawn from `seed` (Fisher-Yates). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const next = random(seed);
  const order = [...items];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j] as T, order[i] as T];
  }
  return order;
}

/** `files` with the longest (LONGEST_FIRST) moved to the front, the rest in the order given. */
export function longestFirst<T>(files: readonly T[], pathOf: (file: T) => string): T[] {
  const rank = (file: T) => {
    const at = LONGEST_FIRST.findIndex((long) => pathOf(file).endsWith(long));
    return at === -1 ? LONGEST_FIRST.length : at;
  };
  return [...files].sort((a, b) => rank(a) - rank(b));
}

export default class ShuffledLongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { shuffle, seed } = this.ctx.config.sequence;
    const drawn = shuffle ? shuffled(files, seed) : await super.sort(files);
    return longestFirst(drawn, (file) => file.moduleId);
  }
}
