import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0047 (placements carry their product's SKU; a leaner classification-link index and
 * table) on a database holding data: apply every migration before it, place products (one
 * without a SKU) and classify one through the old schema, apply 0047, and check the copies, the
 * triggers that keep them for every later write, and that the links kept everything but their
 * timestamps.
 */
const company = 'c0000000-0000-7000-8000-000000000047';
const catalog = 'ca000000-0000-7000-8000-000000000047';
const pid = (i: number) => `p0000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
const cat = (i: number) => `cb000000-0000-7000-8000-${String(i).padStart(12, '0')}`;

async function seedOldSchema(db: D1Database) {
  const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
  const product = (i: number, sku: string | null) =>
    run(
      'INSERT INTO products (id, company_id, catalog_id, sku, name) VALUES (?, ?, ?, ?, ?)',
      pid(i),
      company,
      catalog,
      sku,
      `P${i}`,
    );
  const category = (i: number) =>
    run(
      'INSERT INTO categories (id, company_id, catalog_id, name) VALUES (?, ?, ?, ?)',
      cat(i),
      company,
      catalog,
      `C${i}`,
    );
  const place = (p: number, c: number) =>
    run('INSERT INTO product_categories (product_id, category_id) VALUES (?, ?)', pid(p), cat(c));
  await db.batch([
    run('INSERT INTO companies (id, name) VALUES (?, ?)', company, 'Migrated GmbH'),
    run(`INSERT INTO departments (id, company_id, name) VALUES ('d47', ?, 'D')`, company),
    run(`INSERT INTO catalogs (id, company_id, department_id, name) VALUES (?, ?, 'd47', 'Cat')`, catalog, company),
    category(1),
    category(2),
    product(1, 'MIG-B'),
    product(2, 'MIG-A'),
    product(3, null),
    place(1, 1),
    place(2, 1),
    place(3, 1),
    place(1, 2),
    run(
      `INSERT INTO classification_links (link_id, company_id, element_id, name, classification_groups)
        VALUES ('l47', ?, ?, 'Circuit breaker', 1)`,
      company,
      pid(1),
    ),
  ]);
}

describe('migration 0047_placement_sku', () => {
  it("copies each product's SKU to its placements, keeps the copy on every write and drops the links' timestamps", async () => {
    const { db, apply } = await migratedUpTo('0047_');
    await seedOldSchema(db);
    await apply();

    // A category's placements in SKU order, read from the index alone (no product row, no sort).
    const inOrder = async (category: number) =>
      (
        await db
          .prepare('SELECT product_id AS p, sku FROM product_categories WHERE category_id = ? ORDER BY sku, product_id')
          .bind(cat(category))
          .all<{ p: string; sku: string | null }>()
      ).results;
    expect(await inOrder(1)).toEqual([
      { p: pid(3), sku: null },
      { p: pid(2), sku: 'MIG-A' },
      { p: pid(1), sku: 'MIG-B' },
    ]);
    expect(await inOrder(2)).toEqual([{ p: pid(1), sku: 'MIG-B' }]);
    const plan = await db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT product_id, sku FROM product_categories WHERE category_id = ? AND sku > ? ORDER BY sku`,
      )
      .bind(cat(1), 'MIG-A')
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join('\n')).toMatch(
      /USING COVERING INDEX product_categories_category_idx \(category_id=\? AND sku>\?\)/,
    );

    // A new SKU reaches every placement of the product in the same statement; a placement
    // written without the SKU (as every writer does) gets it; one written with a wrong one is corrected.
    await db.batch([
      db.prepare('UPDATE products SET sku = ? WHERE id = ?').bind('MIG-0', pid(1)),
      db.prepare('UPDATE products SET sku = ? WHERE id = ?').bind('MIG-C', pid(3)),
      db
        .prepare('INSERT INTO products (id, company_id, catalog_id, sku, name) VALUES (?, ?, ?, ?, ?)')
        .bind(pid(4), company, catalog, 'MIG-AA', 'P4'),
      db.prepare('INSERT INTO product_categories (product_id, category_id) VALUES (?, ?)').bind(pid(4), cat(1)),
      db
        .prepare('INSERT INTO product_categories (product_id, category_id, sku) VALUES (?, ?, ?)')
        .bind(pid(2), cat(2), 'WRONG'),
    ]);
    expect(await inOrder(1)).toEqual([
      { p: pid(1), sku: 'MIG-0' },
      { p: pid(2), sku: 'MIG-A' },
      { p: pid(4), sku: 'MIG-AA' },
      { p: pid(3), sku: 'MIG-C' },
    ]);
    expect(await inOrder(2)).toEqual([
      { p: pid(1), sku: 'MIG-0' },
      { p: pid(2), sku: 'MIG-A' },
    ]);
    await db.prepare('UPDATE product_categories SET sku = ? WHERE product_id = ?').bind('WRONG', pid(2)).run();
    expect((await inOrder(1)).find((r) => r.p === pid(2))?.sku).toBe('MIG-A');
    await db.prepare('UPDATE products SET sku = NULL WHERE id = ?').bind(pid(4)).run();
    expect((await inOrder(1))[0]).toEqual({ p: pid(4), sku: null });

    // The link keeps every column but its timestamps; its company index holds the company alone.
    const link = await db.prepare(`SELECT * FROM classification_links WHERE link_id = 'l47'`).first();
    expect(link).toEqual({
      id: expect.any(Number),
      link_id: 'l47',
      company_id: company,
      element_id: pid(1),
      name: 'Circuit breaker',
      classification_groups: 1,
    });
    const columns = await db
      .prepare(`SELECT name FROM pragma_index_info('classification_links_company_idx') ORDER BY seqno`)
      .all<{ name: string }>();
    expect(columns.results.map((c) => c.name)).toEqual(['company_id']);
    // ListClassificationLinkIds pages a company's links in row-key order along it, no sort
    const listPlan = await db
      .prepare(
        'EXPLAIN QUERY PLAN SELECT id, link_id, name FROM classification_links WHERE company_id = ? AND id > ? ORDER BY id LIMIT 51',
      )
      .bind(company, 0)
      .all<{ detail: string }>();
    expect(listPlan.results.map((r) => r.detail)).toEqual([
      'SEARCH classification_links USING INDEX classification_links_company_idx (company_id=? AND rowid>?)',
    ]);
  });
});
