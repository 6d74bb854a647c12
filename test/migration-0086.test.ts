import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0086 (PRICE_FLAG, docs/data-model.md "Prices"): a nullable `flags` column on
 * product_prices. Rows written before it read as without flags and keep every other column.
 */
describe('migration 0086: product_prices.flags', () => {
  it('keeps the rows written before it, without flags, and stores flags after it', async () => {
    const { db, apply } = await migratedUpTo('0086_');
    const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
    await db.batch([
      run(`INSERT INTO companies (id, name) VALUES ('c86', 'Fracht GmbH')`),
      run(`INSERT INTO departments (id, company_id, name) VALUES ('d86', 'c86', 'D')`),
      run(`INSERT INTO catalogs (id, company_id, department_id, name) VALUES ('k86', 'c86', 'd86', 'K')`),
      run(`INSERT INTO products (id, company_id, catalog_id, sku, name) VALUES ('p86', 'c86', 'k86', 'S', 'P')`),
      run(`INSERT INTO product_prices (product_id, position, type, amount) VALUES ('p86', 0, 'nrp', '12.50')`),
    ]);
    await apply();
    await run(
      `INSERT INTO product_prices (product_id, position, type, amount, flags) VALUES ('p86', 1, 'net_list', '9', ?)`,
      '{"incl_freight":true}',
    ).run();
    const rows = (await run(`SELECT position, type, amount, flags FROM product_prices ORDER BY position`).all())
      .results;
    expect(rows).toEqual([
      { position: 0, type: 'nrp', amount: '12.50', flags: null },
      { position: 1, type: 'net_list', amount: '9', flags: '{"incl_freight":true}' },
    ]);
  });
});
