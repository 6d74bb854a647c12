/**
 * Operator: moves a company to another tenant cell (docs/scaling.md section 5).
 *
 *   npm run cells:move -- --company <companyId> --to cell-3 [--persist-to DIR]
 *
 * Runs against the local state (as the seed does). The company's writes are paused (503 with
 * Retry-After) while its rows are copied and verified; its reads go on from the old cell.
 */
import { moveCompany } from '../src/db/cell-move';
import { argValue, localBindings } from './lib/platform';

const companyId = argValue('--company');
const to = argValue('--to');
if (!companyId || !to) {
  console.error('usage: npm run cells:move -- --company <companyId> --to cell-<n> [--persist-to DIR]');
  process.exit(2);
}
const proxy = await localBindings();
try {
  console.log(JSON.stringify(await moveCompany(proxy.env, companyId, to), null, 2));
} finally {
  await proxy.dispose();
}
