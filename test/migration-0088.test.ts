import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0088 (docs/history.md "What a version stores", docs/teams.md "The changes feed"):
 * nullable `catalog_id` and `master_id` on history_versions. Rows written before it keep every
 * column and read as recording neither (no backfill); rows after it store both.
 */
describe('migration 0088: history_versions.catalog_id and master_id', () => {
  it('keeps the versions written before it, with no place recorded, and stores one after it', async () => {
    const { db, apply } = await migratedUpTo('0088_');
    const version = (id: string) =>
      db
        .prepare(
          `INSERT INTO history_versions (id, company_id, element_id, element_kind, action, user_id, surface, changes)
           VALUES (?, 'c88', 'p88', 'product', 'delete', 'u88', 'web', '[["sku","S",null]]')`,
        )
        .bind(id);
    await version('v1').run();
    await apply();
    await db
      .prepare(
        `INSERT INTO history_versions (id, company_id, element_id, element_kind, action, user_id, surface, changes, catalog_id, master_id)
         VALUES ('v2', 'c88', 'p88', 'product', 'update', 'u88', 'web', '[]', 'k88', 'p88')`,
      )
      .run();
    const rows = (
      await db.prepare(`SELECT id, action, changes, catalog_id, master_id FROM history_versions ORDER BY id`).all()
    ).results;
    expect(rows).toEqual([
      { id: 'v1', action: 'delete', changes: '[["sku","S",null]]', catalog_id: null, master_id: null },
      { id: 'v2', action: 'update', changes: '[]', catalog_id: 'k88', master_id: 'p88' },
    ]);
  });
});
