import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file gets its own database and app; two cores run two files at a time well.
    maxWorkers: 2,
    pool: 'forks',
    reporters: ['default'],
  },
});
