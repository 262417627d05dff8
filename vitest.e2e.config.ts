import { defineConfig } from 'vitest/config';

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
  },
});
