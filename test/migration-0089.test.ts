import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0089 (a catalog's price formulas, docs/data-model.md "Prices"): `catalog_formulas`,
 * one row per catalog and FORMULA_ID, deleted with its catalog. Catalogs written before it have
 * no formulas and keep every row.
 */
describe('migration 0089: catalog_formulas', () => {
  it('keeps one formula per catalog and id, and deletes them with their catalog', async () => {
    const { db, apply } = await migratedUpTo('0089_');
    const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
    await db.batch([
      run(`INSERT INTO companies (id, name) VALUES ('c89', 'Kabel GmbH')`),
      run(`INSERT INTO departments (id, company_id, name) VALUES ('d89', 'c89', 'D')`),
      run(`INSERT INTO catalogs (id, company_id, department_id, name) VALUES ('k89', 'c89', 'd89', 'K')`),
      run(`INSERT INTO catalogs (id, company_id, department_id, name) VALUES ('l89', 'c89', 'd89', 'L')`),
    ]);
    await apply();
    const insert = (catalog: string, id: string, position: number) =>
      run(
        `INSERT INTO catalog_formulas (catalog_id, formula_id, company_id, position, formula) VALUES (?, ?, 'c89', ?, ?)`,
        catalog,
        id,
        position,
        `{"name":"FORMULA","children":[{"name":"FORMULA_ID","text":"${id}"}]}`,
      );
    await db.batch([insert('k89', 'F1', 1), insert('k89', 'F2', 2), insert('l89', 'F1', 1)]);
    await expect(insert('k89', 'F1', 3).run()).rejects.toThrow(/UNIQUE|PRIMARY KEY/);
    await run(`DELETE FROM catalogs WHERE id = 'k89'`).run();
    const rows = (await run('SELECT catalog_id, formula_id FROM catalog_formulas').all()).results;
    expect(rows).toEqual([{ catalog_id: 'l89', formula_id: 'F1' }]);
    expect((await run(`SELECT count(*) AS n FROM catalogs`).first())!.n).toBe(1);
  });
});
