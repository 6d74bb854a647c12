import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0065 (the codes in use per catalog, docs/shops.md "What remains"): the price types
 * and feature-block systems the catalogs' products already use are counted per catalog, and the
 * triggers keep counting the writes after it.
 */
describe('migration 0065: catalog_codes_in_use', () => {
  it('counts the existing rows per catalog and code, then follows new writes', async () => {
    const { db, apply } = await migratedUpTo('0065_');
    const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
    const product = (id: string, catalog: string, parent: string | null = null) =>
      run(
        `INSERT INTO products (id, company_id, catalog_id, sku, name, parent_id) VALUES (?, 'c65', ?, ?, 'P', ?)`,
        id,
        catalog,
        `SKU-${id}`,
        parent,
      );
    const price = (productId: string, position: number, type: string) =>
      run(`INSERT INTO product_prices (product_id, position, type) VALUES (?, ?, ?)`, productId, position, type);
    const block = (productId: string, position: number, system: string) =>
      run(
        `INSERT INTO product_feature_blocks (product_id, position, system, features) VALUES (?, ?, ?, '[]')`,
        productId,
        position,
        system,
      );
    await db.batch([
      run(`INSERT INTO companies (id, name) VALUES ('c65', 'Migrated GmbH')`),
      run(`INSERT INTO departments (id, company_id, name) VALUES ('d65', 'c65', 'D')`),
      run(`INSERT INTO catalogs (id, company_id, department_id, name) VALUES ('k1', 'c65', 'd65', 'One')`),
      run(`INSERT INTO catalogs (id, company_id, department_id, name) VALUES ('k2', 'c65', 'd65', 'Two')`),
      product('a', 'k1'),
      product('b', 'k1'),
      product('v', 'k1', 'b'),
      product('x', 'k2'),
      price('a', 0, 'net_list'),
      price('a', 1, 'nrp'),
      price('v', 0, 'net_list'),
      price('x', 0, 'net_list'),
      block('a', 0, 'UNSPSC'),
      block('b', 0, 'UNSPSC'),
    ]);
    await apply();
    const codes = async () =>
      (
        await db
          .prepare(`SELECT catalog_id, list, code, uses FROM catalog_codes_in_use ORDER BY catalog_id, list, code`)
          .all()
      ).results;
    expect(await codes()).toEqual([
      { catalog_id: 'k1', list: 'featureSystems', code: 'UNSPSC', uses: 2 },
      { catalog_id: 'k1', list: 'priceTypes', code: 'net_list', uses: 2 },
      { catalog_id: 'k1', list: 'priceTypes', code: 'nrp', uses: 1 },
      { catalog_id: 'k2', list: 'priceTypes', code: 'net_list', uses: 1 },
    ]);
    await db.batch([
      run(`UPDATE product_prices SET type = 'gross_list' WHERE product_id = 'a' AND position = 1`),
      run(`DELETE FROM product_feature_blocks WHERE product_id = 'a'`),
      run(`DELETE FROM products WHERE id = 'x'`),
      block('v', 0, 'ETIM'),
    ]);
    expect(await codes()).toEqual([
      { catalog_id: 'k1', list: 'featureSystems', code: 'ETIM', uses: 1 },
      { catalog_id: 'k1', list: 'featureSystems', code: 'UNSPSC', uses: 1 },
      { catalog_id: 'k1', list: 'priceTypes', code: 'gross_list', uses: 1 },
      { catalog_id: 'k1', list: 'priceTypes', code: 'net_list', uses: 2 },
    ]);
  });
});
