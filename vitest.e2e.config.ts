import { defineConfig } from 'vitest/config';
import ShuffledLongestFirst from './tests/e2e/sequencer.ts';

// Browser journeys against the built server (NODE_ENV=production) in Debian's Chromium. Each
// journey makes its own users (tests/e2e/fixtures.ts, decision 015), so files run at the same
// time and in any order (`--sequence.shuffle` to try one): two at once (E2E_WORKERS), each
// with its own Chromium, beside the one server, on the 2-core machines we run on.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['./tests/e2e/server-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: Number(process.env.E2E_WORKERS ?? 2),
    // Shuffled or not, the longest files start first (tests/e2e/sequencer.ts).
    sequence: { sequencer: ShuffledLongestFirst },
    // Issue 36: no journey file past 150 s (the slowest, reader, takes 70-80 s beside another
    // file). The hostile-input suite is thousands of HTTP requests on a server of its own, one
    // seeded database: 190 s alone, 300 s beside the journeys.
    reporters: [
      'default',
      [
        './tests/file-time-guard.ts',
        {
          limitSeconds: 150,
          suite: 'browser',
          exceptions: {
            'tests/e2e/hostile-input.test.ts': 420,
            // Issue 39's campus tools, the same way: its own server and seeded database.
            'tests/e2e/hostile-input-operations.test.ts': 420,
          },
        },
      ],
    ],
  },
});
