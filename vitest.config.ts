import { defineConfig } from 'vitest/config';

/** What every project of the suite shares. */
export const shared = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // Each integration test file gets its own database and app; two cores run two files at a time well.
  maxWorkers: 2,
  pool: 'forks' as const,
  reporters: ['default'],
};

/**
 * Three tiers, cut by what a test needs (docs/decisions/0012-test-tiers.md):
 * - `unit` (test/unit/): no I/O (no database, no HTTP server, no child process, no file written; committed files may be
 *   read). No global setup, so it starts at once; `npm run test:unit`, seconds.
 * - `integration` (every other folder of test/, named by capability): the real service over HTTP on a real PostgreSQL,
 *   which its global setup starts once (embedded, or DATABASE_URL's server); local servers, sockets, files, processes.
 * - `eval` (test/eval/): how well search_endpoints ranks phrasings it never learnt from, with floors; a few minutes of CPU,
 *   no database, so CI runs it once.
 * `npm test` runs all three. The `repo` project (test/repo/) is no tier: it checks the repository (its layers, import
 * cycles, links and waits), and `npm run check` runs it.
 */
export default defineConfig({
  test: {
    ...shared,
    projects: [
      {
        extends: true,
        // No I/O, no mocks, no globals: its files may share a worker's modules (the registry, the ranker's model) rather
        // than import them again each.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // Each file starts its own app on its own database, so its files may share a worker's modules too: importing
          // the service once a worker rather than once a file is about a third of the tier's CPU.
          isolate: false,
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**', 'test/eval/**', 'test/repo/**', '**/node_modules/**'],
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
      { extends: true, test: { name: 'eval', include: ['test/eval/**/*.test.ts'] } },
      // Not a tier: checks of the repository itself (layers, import cycles, links, fixed sleeps), run by `npm run check`.
      { extends: true, test: { name: 'repo', include: ['test/repo/**/*.test.ts'] } },
    ],
  },
});
