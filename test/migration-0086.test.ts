import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0086 (PRICE_FLAG and PRICE_FORMULA, docs/data-model.md "Prices"): nullable `flags` and
 * `formula` columns on product_prices. Rows written before it read as without either and keep
 * every other column.
 */
describe('migration 0086: product_prices.flags and formula', () => {
  it('keeps the rows written before it, without flags or formula, and stores both after it', async () => {
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
      `INSERT INTO product_prices (product_id, position, type, flags, formula) VALUES ('p86', 1, 'net_list', ?, ?)`,
      '{"incl_freight":true}',
      '{"id":"F1"}',
    ).run();
    const rows = (
      await run(`SELECT position, type, amount, flags, formula FROM product_prices ORDER BY position`).all()
    ).results;
    expect(rows).toEqual([
      { position: 0, type: 'nrp', amount: '12.50', flags: null, formula: null },
      { position: 1, type: 'net_list', amount: null, flags: '{"incl_freight":true}', formula: '{"id":"F1"}' },
    ]);
  });
});
