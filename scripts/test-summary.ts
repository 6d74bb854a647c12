/**
 * Prints the combined result of the unit, connector, shops, web and e2e vitest runs as one plain line,
 * "N passed, N failed, N skipped", and exits non-zero if any test failed.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(process.cwd(), 'node_modules', '.cache', 'pim-test-summary');
const total = { passed: 0, failed: 0, skipped: 0 };
for (const name of ['unit', 'connector', 'shops', 'web', 'e2e']) {
  const file = join(dir, `${name}.json`);
  if (!existsSync(file)) {
    console.error(`no results of the ${name} run`);
    total.failed++;
    continue;
  }
  const counts = JSON.parse(readFileSync(file, 'utf8')) as typeof total;
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
rmSync(dir, { recursive: true, force: true });
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
