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
