import { defineConfig } from 'vitest/config';
import { testSuites, testWorkers } from './tests/suites.ts';

const suites = testSuites();

// `npm test` runs both projects; CI runs `--project database` again on PostgreSQL.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: testWorkers(),
    reporters: [
      'default',
      [
        './tests/file-time-guard.ts',
        { limitSeconds: 60, suite: process.env.DATABASE_URL ? 'postgresql' : 'pglite' },
      ],
    ],
    projects: [
      { extends: true, test: { name: 'unit', include: suites.unit } },
      {
        extends: true,
        test: {
          name: 'database',
          include: suites.database,
          globalSetup: ['./tests/global-setup.ts'],
          setupFiles: ['./tests/worker-database.ts'],
        },
      },
    ],
  },
});
