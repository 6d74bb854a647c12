import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SummaryReporter from '../test/reporters/summary-reporter.ts';

/** Component-level logic of the web application (parsing, cursors, validation, i18n) in plain Node. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', new SummaryReporter('web')],
  },
});
