import { applyD1Migrations, env } from 'cloudflare:test';
import { seedReferenceData } from '../../src/classification/reference-data';
import { cellDatabase, cellNames } from '../../src/db/cells';
import { createDb } from '../../src/db/client';
import { syncReplica } from '../../src/db/simulated-replica';
import { replicaPairs } from './lag-cells';

// Every cell and its lagging copy get the schema; reference data is written through the wrapper
// (so it is in the cell's replication log) and each replica starts in sync, as a real one would
// before the test's writes.
for (const { primary, replica } of replicaPairs()) {
  await applyD1Migrations(primary, env.TEST_MIGRATIONS);
  await applyD1Migrations(replica, env.TEST_MIGRATIONS);
}
for (const cell of cellNames(env)) await seedReferenceData(createDb(cellDatabase(env, cell)));
for (const { primary, replica } of replicaPairs()) await syncReplica(primary, replica);
