import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0091 (docs/data-model.md "Order details", issue 32): nullable `content_unit`,
 * `content_per_unit`, `quantity_min` and `quantity_interval` on products. Products written before
 * it keep every column and have none of them (BMEcat's defaults); rows after it store them as text.
 */
describe('migration 0091: products order details', () => {
  it('keeps the products written before it, without order details, and stores them as written after it', async () => {
    const { db, apply } = await migratedUpTo('0091_');
    const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
    await db.batch([
      run(`INSERT INTO companies (id, name) VALUES ('c91', 'Kabel GmbH')`),
      run(`INSERT INTO departments (id, company_id, name) VALUES ('d91', 'c91', 'D')`),
      run(`INSERT INTO catalogs (id, company_id, department_id, name) VALUES ('k91', 'c91', 'd91', 'K')`),
      run(
        `INSERT INTO products (id, company_id, catalog_id, sku, unit, price_quantity) VALUES ('p1', 'c91', 'k91', 'ALT', 'C62', 1)`,
      ),
    ]);
    await apply();
    await run(
      `INSERT INTO products (id, company_id, catalog_id, sku, unit, content_unit, content_per_unit, quantity_min, quantity_interval)
       VALUES ('p2', 'c91', 'k91', 'BOX', 'BX', 'C62', '6.0', '10', '2.5')`,
    ).run();
    const rows = (
      await run(
        `SELECT sku, unit, price_quantity, content_unit, content_per_unit, quantity_min, quantity_interval FROM products ORDER BY id`,
      ).all()
    ).results;
    expect(rows).toEqual([
      {
        sku: 'ALT',
        unit: 'C62',
        price_quantity: 1,
        content_unit: null,
        content_per_unit: null,
        quantity_min: null,
        quantity_interval: null,
      },
      {
        sku: 'BOX',
        unit: 'BX',
        price_quantity: null,
        content_unit: 'C62',
        content_per_unit: '6.0',
        quantity_min: '10',
        quantity_interval: '2.5',
      },
    ]);
  });
});
