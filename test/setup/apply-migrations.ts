import { applyD1Migrations, env } from 'cloudflare:test';
import { createDb } from '../../src/db/client';
import { seedReferenceData } from '../../src/classification/reference-data';

// Each test file gets the schema and the classification reference data (not tenant data).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await seedReferenceData(createDb(env.DB));
