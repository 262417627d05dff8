import { defineConfig } from 'vitest/config';

// Resilience under real failures (issue 13): each file starts its own PostgreSQL cluster and
// the built server (`npm run build` first), then stops the database or kills the server under
// load. One file at a time: they share the machine's two cores and their timings matter.
export default defineConfig({
  test: {
    include: ['tests/resilience/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: 'forks',
    // Issue 36: no resilience file past 240 s (kill -9 mid-checkout takes 75 s).
    reporters: [
      'default',
      ['./tests/file-time-guard.ts', { limitSeconds: 240, suite: 'resilience' }],
    ],
  },
});
