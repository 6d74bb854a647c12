import { applyD1Migrations, env } from 'cloudflare:test';
import { createDb } from '../../src/db/client';
import { seedReferenceData } from '../../src/classification/reference-data';

// Each test file gets the schema and the classification reference data (not tenant data), in
// the directory (cell-1) and in every other cell (docs/scaling.md section 5: one schema, and
// reference data every cell can read).
for (const d1 of [env.DB, env.CELL_2, env.CELL_3]) {
  await applyD1Migrations(d1, env.TEST_MIGRATIONS);
  await seedReferenceData(createDb(d1));
}
