import { defineConfig } from 'vitest/config';

// Browser journeys against the built server (NODE_ENV=production) in Debian's Chromium.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['./tests/e2e/server-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
