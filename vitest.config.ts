import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'tests/{unit,api,process,web,security,reliability}/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['tests/helpers/fail-on-console.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
  },
});
