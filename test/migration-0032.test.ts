import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0032 (variants' names and keywords in the search index, in every language) on a
 * database holding data: apply every migration before it, write masters, variants and their
 * translations through the old triggers, apply 0032, and check that the existing variants are
 * found by their own and translated names, and that the new triggers remove exactly what they
 * indexed (no document of a deleted variant is left).
 */
const company = 'c0000000-0000-7000-8000-000000000032';
const catalog = 'ca000000-0000-7000-8000-000000000032';
const pid = (i: number) => `p0000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
const SPAN = 68719476736;

async function seedOldSchema(db: D1Database) {
  const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
  const product = (i: number, parent: number | null, name: string, keywords: string | null) =>
    run(
      'INSERT INTO products (id, company_id, catalog_id, parent_id, sku, name, keywords) VALUES (?, ?, ?, ?, ?, ?, ?)',
      pid(i),
      company,
      catalog,
      parent === null ? null : pid(parent),
      `MIG-${i}`,
      name,
      keywords,
    );
  const translation = (i: number, field: string, lang: string, value: string) =>
    run('INSERT INTO translations (element_id, field, lang, value) VALUES (?, ?, ?, ?)', pid(i), field, lang, value);
  await db.batch([
    run('INSERT INTO companies (id, name) VALUES (?, ?)', company, 'Migrated GmbH'),
    run(`INSERT INTO departments (id, company_id, name) VALUES ('d32', ?, 'D')`, company),
    run(`INSERT INTO catalogs (id, company_id, department_id, name) VALUES (?, ?, 'd32', 'Cat')`, catalog, company),
    product(1, null, 'Leuchte', 'Licht'),
    product(2, 1, 'Leuchte blau', 'Marineblau'),
    product(3, 1, 'Leuchte rot', null),
    translation(1, 'name', 'eng', 'Lamp'),
    translation(2, 'name', 'eng', 'Lamp navy'),
    translation(2, 'keywords', 'eng', 'seaside'),
    translation(3, 'name', 'fra', 'Lampe rouge'),
  ]);
}

describe('migration 0032_search_variant_names', () => {
  it("indexes existing variants' names and translated names; the new triggers keep and remove them", async () => {
    const { db, apply } = await migratedUpTo('0032_');
    await seedOldSchema(db);
    // products of the documents that match, variants listed by their own SKU
    const hits = async (q: string) =>
      (
        await db
          .prepare(
            `SELECT DISTINCT p.sku FROM products_fts f JOIN products p ON p.rowid = f.rowid % ${SPAN} WHERE products_fts MATCH ? ORDER BY p.sku`,
          )
          .bind(q)
          .all<{ sku: string }>()
      ).results.map((r) => r.sku);
    expect(await hits('blau')).toEqual([]);
    expect(await hits('navy')).toEqual([]);

    await apply();
    expect(await hits('blau')).toEqual(['MIG-2']);
    expect(await hits('marineblau')).toEqual(['MIG-2']);
    expect(await hits('navy')).toEqual(['MIG-2']);
    expect(await hits('seaside')).toEqual(['MIG-2']);
    expect(await hits('rouge')).toEqual(['MIG-3']);
    expect(await hits('leuchte')).toEqual(['MIG-1', 'MIG-2', 'MIG-3']);
    expect(await hits('lamp')).toEqual(['MIG-1', 'MIG-2']);
    expect(await hits('"mig 3"')).toEqual(['MIG-3']); // identifiers stay

    await db.batch([
      db.prepare(`UPDATE products SET name = 'Leuchte grün' WHERE id = ?`).bind(pid(2)),
      db.prepare(`UPDATE translations SET value = 'Lampe pourpre' WHERE element_id = ? AND lang = 'fra'`).bind(pid(3)),
    ]);
    expect(await hits('blau')).toEqual([]);
    expect(await hits('grün')).toEqual(['MIG-2']);
    expect(await hits('rouge')).toEqual([]);
    expect(await hits('pourpre')).toEqual(['MIG-3']);

    const rowids = (
      await db.prepare('SELECT rowid AS r FROM products WHERE id IN (?, ?)').bind(pid(2), pid(3)).all<{ r: number }>()
    ).results.map((r) => r.r);
    await db.batch([db.prepare('DELETE FROM products WHERE id IN (?, ?)').bind(pid(2), pid(3))]);
    const left = await db
      .prepare(`SELECT count(*) AS n FROM products_fts_terms WHERE doc % ${SPAN} IN (?, ?)`)
      .bind(...rowids)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect(await hits('leuchte')).toEqual(['MIG-1']);
    expect(await hits('lamp')).toEqual(['MIG-1']);
  });
});
