import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0019 (content languages) on a database holding data: companies get the languages
 * their catalogs are in (default: the oldest catalog's), a company without catalogs German, and
 * each catalog publishes its own language; migration 0025 then records no gaps (one language).
 */
describe('migration 0019_languages', () => {
  it("gives each company its catalogs' languages and each catalog its own", async () => {
    const { db, apply } = await migratedUpTo('0019_');
    const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
    await db.batch([
      run(`INSERT INTO companies (id, name) VALUES ('m1', 'Two languages'), ('m2', 'No catalogs')`),
      run(`INSERT INTO departments (id, company_id, name) VALUES ('d1', 'm1', 'D')`),
      run(
        `INSERT INTO catalogs (id, company_id, department_id, name, language, created_at) VALUES
          ('c-new', 'm1', 'd1', 'Shop EN', 'eng', '2026-02-01T00:00:00.000Z'),
          ('c-old', 'm1', 'd1', 'Katalog', 'deu', '2026-01-01T00:00:00.000Z'),
          ('c-fr', 'm1', 'd1', 'Boutique', 'fra', '2026-03-01T00:00:00.000Z')`,
      ),
      run(`INSERT INTO products (id, company_id, catalog_id, sku, name) VALUES ('p1', 'm1', 'c-old', 'S1', 'Kabel')`),
    ]);
    await apply('all');

    const companies = await db.prepare('SELECT id, languages, default_language FROM companies ORDER BY id').all();
    const m1 = companies.results[0] as { languages: string; default_language: string };
    expect(m1.default_language).toBe('deu');
    expect(JSON.parse(m1.languages).sort()).toEqual(['deu', 'eng', 'fra']);
    expect(companies.results[1]).toMatchObject({ id: 'm2', languages: '["deu"]', default_language: 'deu' });
    const catalogs = await db.prepare('SELECT id, languages FROM catalogs ORDER BY id').all();
    expect(catalogs.results).toEqual([
      { id: 'c-fr', languages: '["fra"]' },
      { id: 'c-new', languages: '["eng"]' },
      { id: 'c-old', languages: '["deu"]' },
    ]);
    const gaps = await db.prepare('SELECT count(*) AS n FROM translation_gaps').first<{ n: number }>();
    expect(gaps?.n).toBe(0);
    // Publishing English in the German catalog records the product's gap (trigger of 0025).
    await db.prepare(`UPDATE catalogs SET languages = '["deu","eng"]' WHERE id = 'c-old'`).run();
    const after = await db.prepare('SELECT catalog_id, lang, product_id FROM translation_gaps').all();
    expect(after.results).toEqual([{ catalog_id: 'c-old', lang: 'eng', product_id: 'p1' }]);
  });
});
