import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0008 (variant identifiers in the search index, leaner storage) on a database holding
 * data: apply every migration before it, write rows through the old schema, apply 0008, and
 * check that every row is kept and that the index answers for masters and variants alike.
 */
const company = 'c0000000-0000-7000-8000-000000000008';
const catalog = 'ca000000-0000-7000-8000-000000000008';
const pid = (i: number) => `p0000000-0000-7000-8000-${String(i).padStart(12, '0')}`;

async function seedOldSchema(db: D1Database) {
  const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
  const statements = [
    run('INSERT INTO companies (id, name) VALUES (?, ?)', company, 'Migrated GmbH'),
    run(`INSERT INTO departments (id, company_id, name) VALUES ('d8', ?, 'D')`, company),
    run(`INSERT INTO catalogs (id, company_id, department_id, name) VALUES (?, ?, 'd8', 'Cat')`, catalog, company),
  ];
  for (let i = 0; i < 20; i++) {
    const parent = i % 4 === 3 ? pid(i - 1) : null; // every fourth product is a variant
    statements.push(
      run(
        `INSERT INTO products (id, company_id, catalog_id, parent_id, sku, name, gtin, manufacturer_pid, keywords) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        pid(i),
        company,
        catalog,
        parent,
        `MIG-${i}`,
        `Migrationsprodukt ${i}`,
        `400000000${String(i).padStart(4, '0')}`,
        `MPN-${i}`,
        parent ? 'Variantenwort' : null,
      ),
      run(
        `INSERT INTO media (id, company_id, element_id, purpose, file_name, content_type, size, storage_key, sha256, sort_order, created_at)
         VALUES (?, ?, ?, 'normal', ?, 'image/jpeg', ?, ?, ?, ?, '2026-01-03T00:00:00.000Z')`,
        `m0000000-0000-7000-8000-${String(i).padStart(12, '0')}`,
        company,
        pid(i),
        `MIG-${i}.jpg`,
        1000 + i,
        `media/${company}/MIG-${i}.jpg`,
        i % 2 ? null : 'ab'.repeat(32),
        i % 3,
      ),
    );
  }
  await db.batch(statements);
}

const rows = async (db: D1Database, sql: string) => (await db.prepare(sql).all()).results;

describe('migration 0008_search_storage', () => {
  it('keeps every row, rebuilds media WITHOUT ROWID and indexes existing variants by their identifiers', async () => {
    const { db, apply } = await migratedUpTo('0008_');
    await seedOldSchema(db);
    const products = await rows(db, 'SELECT * FROM products ORDER BY id');
    const media = await rows(db, 'SELECT * FROM media ORDER BY id');
    expect(media).toHaveLength(20);

    await apply();
    expect(await rows(db, 'SELECT * FROM products ORDER BY id')).toEqual(products);
    expect(await rows(db, 'SELECT * FROM media ORDER BY id')).toEqual(media);
    const schema = await rows(
      db,
      `SELECT name, sql FROM sqlite_schema WHERE name IN ('media', 'media_element_idx', 'products_catalog_master_sku_idx')`,
    );
    expect(schema.find((t) => t.name === 'media')?.sql).toMatch(/WITHOUT ROWID$/);
    expect(schema.map((t) => t.name).sort()).toEqual(['media', 'media_element_idx']);

    const hits = async (q: string) =>
      (
        await db
          .prepare(
            `SELECT p.sku FROM products_fts f JOIN products p ON p.rowid = f.rowid WHERE products_fts MATCH ? ORDER BY p.sku`,
          )
          .bind(q)
          .all<{ sku: string }>()
      ).results.map((r) => r.sku);
    expect(await hits('"mig 3"')).toEqual(['MIG-3']); // a variant's SKU
    expect(await hits('"4000000000007"')).toEqual(['MIG-7']); // a variant's GTIN
    expect(await hits('"mpn 11"')).toEqual(['MIG-11']); // a variant's manufacturer part number
    expect(await hits('"migrationsprodukt 3"')).toEqual([]); // a variant's name is not indexed
    expect(await hits('variantenwort')).toEqual([]); // nor its keywords
    expect(await hits('"migrationsprodukt 2"')).toEqual(['MIG-2']);

    // The new triggers keep both kinds of document right: update and delete a variant and a master.
    await db.batch([
      db.prepare(`UPDATE products SET sku = 'MIG-3-NEU', name = 'egal' WHERE id = ?`).bind(pid(3)),
      db.prepare(`UPDATE products SET name = 'Umbenannt' WHERE id = ?`).bind(pid(2)),
      db.prepare('DELETE FROM products WHERE id = ?').bind(pid(7)),
    ]);
    expect(await hits('"mig 3"*')).toEqual(['MIG-3-NEU']);
    expect(await hits('egal')).toEqual([]);
    expect(await hits('umbenannt')).toEqual(['MIG-2']);
    expect(await hits('"4000000000007"')).toEqual([]);
    const indexed = await db
      .prepare(`SELECT count(*) AS n FROM products_fts WHERE products_fts MATCH 'mig'`)
      .first('n');
    expect(indexed).toBe(19);
  });
});
