import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0004 (search and storage) on a database holding data: apply every migration before
 * it, write rows through the old schema, apply 0004, and compare every rebuilt table row by row.
 */
const REBUILT: Record<string, string> = {
  attribute_values: 'element_id, attribute_id',
  classification_link_features: 'link_id, "group", code',
  classification_link_classes: 'link_id, "group"',
  product_categories: 'product_id, category_id',
  memberships: 'user_id, company_id',
};

const ids = {
  company: 'c0000000-0000-7000-8000-000000000001',
  dept: 'd0000000-0000-7000-8000-000000000001',
  user: 'u0000000-0000-7000-8000-000000000001',
  catalog: 'ca000000-0000-7000-8000-000000000001',
  cat: 'cb000000-0000-7000-8000-000000000001',
  attr: 'a0000000-0000-7000-8000-000000000001',
};

async function seedOldSchema(db: D1Database) {
  const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
  const statements = [
    run('INSERT INTO companies (id, name) VALUES (?, ?)', ids.company, 'Migrated GmbH'),
    run('INSERT INTO departments (id, company_id, name) VALUES (?, ?, ?)', ids.dept, ids.company, 'D'),
    run(
      `INSERT INTO users (id, email, name, password_hash, password_salt, security_stamp) VALUES (?, 'm@x.test', 'M', 'h', 's', 'st')`,
      ids.user,
    ),
    run(
      `INSERT INTO memberships (user_id, company_id, role, default_department_id, created_at) VALUES (?, ?, 'admin', ?, '2026-01-01T00:00:00.000Z')`,
      ids.user,
      ids.company,
      ids.dept,
    ),
    run(
      'INSERT INTO catalogs (id, company_id, department_id, name) VALUES (?, ?, ?, ?)',
      ids.catalog,
      ids.company,
      ids.dept,
      'Cat',
    ),
    run(
      'INSERT INTO categories (id, company_id, catalog_id, name) VALUES (?, ?, ?, ?)',
      ids.cat,
      ids.company,
      ids.catalog,
      'Kat',
    ),
    run(
      `INSERT INTO attributes (id, company_id, code, name, type) VALUES (?, ?, 'w', 'W', 'number')`,
      ids.attr,
      ids.company,
    ),
  ];
  for (let i = 0; i < 30; i++) {
    const id = `p0000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
    const parent = i % 5 === 4 ? `p0000000-0000-7000-8000-${String(i - 1).padStart(12, '0')}` : null;
    const link = `l0000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
    statements.push(
      run(
        `INSERT INTO products (id, company_id, catalog_id, parent_id, sku, name, gtin, manufacturer_pid, keywords) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        id,
        ids.company,
        ids.catalog,
        parent,
        `MIG-${i}`,
        `Migrationsprodukt Größe ${i}`,
        null,
        `MPN-${i}`,
        i === 0 ? 'Sonderposten' : null,
      ),
      run(
        `INSERT INTO attribute_values (element_id, attribute_id, company_id, value, number_value, updated_at) VALUES (?, ?, ?, ?, ?, '2026-01-02T00:00:00.000Z')`,
        id,
        ids.attr,
        ids.company,
        String(i),
        i,
      ),
      run(
        `INSERT INTO classification_links (link_id, company_id, element_id, name, classification_groups) VALUES (?, ?, ?, 'L', 1)`,
        link,
        ids.company,
        id,
      ),
      run(
        `INSERT INTO classification_link_classes (link_id, "group", system, code) VALUES (?, 'ETIM', 'ETIM-9.0', 'EC000042')`,
        link,
      ),
      run(
        `INSERT INTO classification_link_features (link_id, "group", code, value, unit) VALUES (?, 'ETIM', 'EF000008', '230', 'VLT'), (?, 'ETIM', 'EF000001', '-25..55', 'CEL')`,
        link,
        link,
      ),
    );
    if (!parent)
      statements.push(
        run(
          'INSERT INTO product_categories (product_id, category_id, company_id) VALUES (?, ?, ?)',
          id,
          ids.cat,
          ids.company,
        ),
      );
  }
  await db.batch(statements);
}

async function snapshot(db: D1Database) {
  const tables: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(REBUILT))
    tables[table] = (await db.prepare(`SELECT * FROM ${table} ORDER BY ${key}`).all()).results;
  tables.products = (await db.prepare('SELECT * FROM products ORDER BY id').all()).results;
  return tables;
}

describe('migration 0004_search_storage', () => {
  it('keeps every row, rebuilds composite-key tables WITHOUT ROWID and indexes existing masters for search', async () => {
    const { db, apply } = await migratedUpTo('0004_');
    await seedOldSchema(db);
    const before = await snapshot(db);
    expect(before.attribute_values).toHaveLength(30);

    await apply();
    expect(await snapshot(db)).toEqual(before);

    const schema = (
      await db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'table'`).all<{ name: string; sql: string }>()
    ).results;
    for (const table of Object.keys(REBUILT))
      expect(schema.find((t) => t.name === table)?.sql, table).toMatch(/WITHOUT ROWID$/);
    const indexes = (
      await db
        .prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_%'`)
        .all<{ name: string }>()
    ).results.map((r) => r.name);
    expect(indexes).toEqual(
      expect.arrayContaining([
        'product_categories_category_idx',
        'memberships_company_idx',
        'products_list_name_idx',
        'products_list_updated_idx',
      ]),
    );
    expect(indexes).not.toContain('attribute_values_attribute_idx');

    // Existing masters are searchable at once; variants are not indexed.
    const hits = async (q: string) =>
      (
        await db
          .prepare(
            `SELECT p.sku FROM products_fts f JOIN products p ON p.rowid = f.rowid WHERE products_fts MATCH ? ORDER BY p.sku`,
          )
          .bind(q)
          .all<{ sku: string }>()
      ).results.map((r) => r.sku);
    expect(await hits('sonderposten')).toEqual(['MIG-0']);
    expect(await hits('"grosse"')).toEqual([]);
    expect(await hits('"große 3"')).toEqual(['MIG-3']);
    expect(await hits('"mig 4"')).toEqual([]); // MIG-4 is a variant
    expect(await hits('"mpn 28"')).toEqual(['MIG-28']);
  });
});
