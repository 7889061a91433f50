import { defineConfig } from 'vitest/config';

/** What every project of the suite shares. */
export const shared = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // Each HTTP test file gets its own database and app; two cores run two files at a time well.
  maxWorkers: 2,
  pool: 'forks' as const,
  reporters: ['default'],
};

/**
 * Three projects: `unit` (test/unit: the gateway and its guards with their dependencies passed in,
 * no database, no HTTP; seconds), `http` (everything else but eval: the real service over HTTP on a
 * real PostgreSQL, which its global setup starts) and `eval` (test/eval: how well search_endpoints
 * ranks phrasings it never learnt from, with floors; a few minutes of CPU, no database). `npm test`
 * runs all three; `npm test -- --project unit` runs the fast tier alone.
 */
export default defineConfig({
  test: {
    ...shared,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'eval', include: ['test/eval/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'http',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**', 'test/eval/**', '**/node_modules/**'],
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
    ],
  },
});
