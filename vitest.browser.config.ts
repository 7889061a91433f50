import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

/**
 * The tests that drive a real browser (Debian's chromium through playwright-core): not part of
 * `npm test`, which needs nothing installed outside npm; `npm run test:browser` runs them, and
 * .ci/run installs chromium and runs them as their own step.
 */
export default defineConfig({
  test: {
    ...shared,
    globalSetup: ['test/helpers/global-setup.ts'],
    include: ['test/**/*.browser.ts'],
  },
});
