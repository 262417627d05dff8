import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      '{domain,db,server,web,api,i18n,tests/integration,tests/contract}/**/*.test.{ts,tsx}',
    ],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    globalSetup: ['./tests/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
