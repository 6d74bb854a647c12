import { applyD1Migrations, env } from 'cloudflare:test';
import { seedReferenceData } from '../../src/classification/reference-data';
import { databaseOf } from '../../src/db/binding';
import { createDb } from '../../src/db/client';
import { syncReplica } from '../../src/db/simulated-replica';

// Both copies get the schema; reference data is written through the wrapper (so it is in the
// replication log) and the replica starts in sync, as a real one would before the test's writes.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.DB_REPLICA_SIM!, env.TEST_MIGRATIONS);
await seedReferenceData(createDb(databaseOf(env)));
await syncReplica(env.DB, env.DB_REPLICA_SIM!);
// The other cells (no simulated replica: the lag suite's companies live in cell-1).
for (const d1 of [env.CELL_2, env.CELL_3]) {
  await applyD1Migrations(d1, env.TEST_MIGRATIONS);
  await seedReferenceData(createDb(d1));
}
