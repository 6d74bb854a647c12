import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0092 (docs/completeness.md, issue 32): the view `completeness_checks` scores a
 * channel's field requirement on the order details (a variant without its own value has its
 * master's), and a change of one of the four columns rescores the product through the update
 * trigger. Before it, such a rule was never met and such a change rescored nothing.
 */
describe('migration 0092: completeness of order details', () => {
  it('scores quantityMin on products written before it, a variant by its master, and rescores on a change', async () => {
    const { db, apply } = await migratedUpTo('0092_');
    const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
    await db.batch([
      run(`INSERT INTO companies (id, name) VALUES ('c92', 'Kabel GmbH')`),
      run(`INSERT INTO departments (id, company_id, name) VALUES ('d92', 'c92', 'D')`),
      run(`INSERT INTO catalogs (id, company_id, department_id, name) VALUES ('k92', 'c92', 'd92', 'K')`),
      run(
        `INSERT INTO products (id, company_id, catalog_id, sku, unit, quantity_min) VALUES ('p-min', 'c92', 'k92', 'BOX', 'BX', '2.5')`,
      ),
      run(
        `INSERT INTO products (id, company_id, catalog_id, sku, parent_id) VALUES ('p-var', 'c92', 'k92', 'BOX-R', 'p-min')`,
      ),
      run(`INSERT INTO products (id, company_id, catalog_id, sku, unit) VALUES ('p-bare', 'c92', 'k92', 'BARE', 'BX')`),
      run(
        `INSERT INTO channel_rules (company_id, channel_key, lang, position, kind, target, label)
         VALUES ('c92', 1, 'deu', 0, 'field', 'quantityMin', 'quantityMin')`,
      ),
    ]);
    const checks = async () =>
      (
        await run(
          `SELECT p.sku, v.ok FROM completeness_checks v JOIN products p ON p.rowid = v.product_key
           WHERE p.company_id = 'c92' ORDER BY p.sku`,
        ).all()
      ).results;
    expect(await checks()).toEqual([
      { sku: 'BARE', ok: 0 },
      { sku: 'BOX', ok: 0 },
      { sku: 'BOX-R', ok: 0 },
    ]);

    await apply();
    expect(await checks()).toEqual([
      { sku: 'BARE', ok: 0 },
      { sku: 'BOX', ok: 1 },
      { sku: 'BOX-R', ok: 1 },
    ]);
    await run(`UPDATE products SET quantity_min = '10' WHERE id = 'p-bare'`).run();
    const scored = (
      await run(
        `SELECT c.score, c.missing FROM completeness c JOIN products p ON p.rowid = c.product_key WHERE p.id = 'p-bare'`,
      ).all()
    ).results;
    expect(scored).toEqual([{ score: 100, missing: null }]);
  });
});
