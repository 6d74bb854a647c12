import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export const SUMMARY_DIR = join(process.cwd(), 'node_modules', '.cache', 'pim-test-summary');

/**
 * Records how many tests of this vitest run passed, failed and were skipped, so that
 * `scripts/test-summary.ts` can print one total for the unit and e2e runs together.
 */
export default class SummaryReporter implements Reporter {
  constructor(private readonly name: string) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) counts.failed++;
    }
    mkdirSync(SUMMARY_DIR, { recursive: true });
    writeFileSync(join(SUMMARY_DIR, `${this.name}.json`), JSON.stringify(counts));
  }
}
