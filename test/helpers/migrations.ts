import { applyD1Migrations, env } from 'cloudflare:test';
import { expect } from 'vitest';

/**
 * A migration tried on data written through the schema before it: `prefix` names it (`0047_`).
 * Applies every migration before it to the empty migration-test database and answers that
 * database, and `apply(through)` for the migration itself (`'one'`) or it and every later one
 * (`'all'`).
 */
export async function migratedUpTo(prefix: string) {
  const db = env.MIGRATION_TEST_DB;
  const all = env.TEST_MIGRATIONS;
  const index = all.findIndex((m) => m.name.startsWith(prefix));
  expect(index, `migration ${prefix}`).toBeGreaterThan(0);
  await applyD1Migrations(db, all.slice(0, index));
  const apply = (through: 'one' | 'all' = 'one') =>
    applyD1Migrations(db, all.slice(0, through === 'one' ? index + 1 : all.length));
  return { db, apply };
}
