import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/reporters/summary-reporter';

/**
 * End-to-end tests in Node against a real `wrangler dev` (started by the global setup with a
 * fresh local state and the demo seed): browsers, OAuth clients, MCP clients, xmllint.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['./test/e2e/global-setup.ts'],
    reporters: ['default', new SummaryReporter('e2e')],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
