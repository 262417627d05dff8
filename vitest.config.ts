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
      // Unit files keep no state between them (shuffled three times to check): one module
      // graph for the files of a worker, not one each, 34 s to 9 s (issue 36). The database
      // files keep their isolation: the product caches outlive a file.
      { extends: true, test: { name: 'unit', include: suites.unit, isolate: false } },
      {
        extends: true,
        test: {
          name: 'database',
          include: suites.database,
          globalSetup: ['./tests/global-setup.ts'],
          setupFiles: ['./tests/worker-database.ts', './tests/fresh-caches.ts'],
          isolate: false,
        },
      },
    ],
  },
});
