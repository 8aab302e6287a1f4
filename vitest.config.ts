import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './tests/helpers/slow-first-sequencer.ts';

// Two projects (docs/decisions/027-a-suite-that-answers-in-minutes.md): pure units and components in
// worker threads, which start in milliseconds; the files that run the app on its databases in child
// processes (some start servers, stop them and watch signals), after one migrated database is made for
// all of them by the global setup. Two workers: most API tests wait on a database, SMTP or a timer.
export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['tests/helpers/fail-on-console.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    maxWorkers: 2,
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'tests/{unit,web}/**/*.test.{ts,tsx}'],
          pool: 'threads',
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/{api,process,security,reliability}/**/*.test.{ts,tsx}'],
          pool: 'forks',
          isolate: false,
          globalSetup: ['tests/helpers/db-template.ts', 'tests/helpers/server-bundle.ts'],
          setupFiles: ['tests/helpers/fail-on-console.ts', 'tests/helpers/one-query-at-a-time.ts'],
        },
      },
    ],
  },
});
