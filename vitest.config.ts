import { defineConfig } from 'vitest/config';

/**
 * Two projects. `unit`: pure functions, no I/O beyond reading checked-in files, no global setup, so one file runs
 * alone in seconds (`npx vitest run --project unit`). `integration`: everything that starts a server, opens
 * DuckDB or writes files (test/integration, test/fuzz, test/browser), after the global setup has generated and
 * built the two demos. `npx vitest run` (and `npm test`) runs both.
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    env: { TZ: 'UTC' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], pool: 'threads', isolate: false } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/fuzz/**/*.test.ts', 'test/browser/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
