import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0059 (category links in the sync record, docs/shops.md "Category images"): the
 * masters placed in a category with a link by URL become stale (revision past the fingerprint's),
 * so the next sync run recomputes their fingerprints with the links; masters in categories with
 * only files or no media, variants, and every other column stay as they were.
 */
describe('migration 0059: products in categories with links are stale', () => {
  it('bumps the revision of the masters placed in a category with a URL link, and of nothing else', async () => {
    const { db, apply } = await migratedUpTo('0059_');
    const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
    const product = (id: string, parent: string | null) =>
      run(
        `INSERT INTO products (id, company_id, catalog_id, sku, name, parent_id, revision, fingerprint, fingerprint_revision)
         VALUES (?, 'c59', 'k59', ?, 'P', ?, 3, 'fp', 3)`,
        id,
        `SKU-${id}`,
        parent,
      );
    const category = (id: string) =>
      run(`INSERT INTO categories (id, company_id, catalog_id, name) VALUES (?, 'c59', 'k59', ?)`, id, id);
    const medium = (id: string, element: string, url: string | null) =>
      run(
        `INSERT INTO media (id, element_id, file_name, content_type, size, storage_key, url)
         VALUES (?, ?, 'f.jpg', 'image/jpeg', 0, ?, ?)`,
        id,
        element,
        `key-${id}`,
        url,
      );
    await db.batch([
      run(`INSERT INTO companies (id, name) VALUES ('c59', 'Migrated GmbH')`),
      run(`INSERT INTO departments (id, company_id, name) VALUES ('d59', 'c59', 'D')`),
      run(`INSERT INTO catalogs (id, company_id, department_id, name) VALUES ('k59', 'c59', 'd59', 'Cat')`),
      category('with-link'),
      category('with-file'),
      category('bare'),
      product('m1', null),
      product('m2', null),
      product('m3', null),
      product('v1', 'm1'),
      run(`INSERT INTO product_categories (product_id, category_id) VALUES ('m1', 'with-link')`),
      run(`INSERT INTO product_categories (product_id, category_id) VALUES ('v1', 'with-link')`),
      run(`INSERT INTO product_categories (product_id, category_id) VALUES ('m2', 'with-file')`),
      run(`INSERT INTO product_categories (product_id, category_id) VALUES ('m3', 'bare')`),
      medium('a', 'with-link', 'https://cdn.example.com/a.jpg'),
      medium('b', 'with-file', null),
      // A product's own link does not make it stale: its fingerprint always covered it.
      medium('c', 'm3', 'https://cdn.example.com/c.jpg'),
    ]);
    await apply();
    const rows = await db
      .prepare(
        `SELECT id, revision, fingerprint, fingerprint_revision FROM products WHERE company_id = 'c59' ORDER BY id`,
      )
      .all();
    expect(rows.results).toEqual([
      { id: 'm1', revision: 4, fingerprint: 'fp', fingerprint_revision: 3 },
      { id: 'm2', revision: 3, fingerprint: 'fp', fingerprint_revision: 3 },
      { id: 'm3', revision: 3, fingerprint: 'fp', fingerprint_revision: 3 },
      { id: 'v1', revision: 3, fingerprint: 'fp', fingerprint_revision: 3 },
    ]);
  });
});
