import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDb } from '../src/db/client';
import { categoriesOfCatalog } from '../src/catalog/upsert/resolve/upsert-lookups';
import { withMarkedRescore } from '../src/db/score-refresh';
import { completenessDefer, completenessDirty, productPrices } from '../src/db/schema';
import { db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';

/**
 * Import throughput (docs/import.md "Throughput"): the upsert of an import batch marks the
 * products it wrote for the completeness rescore in one statement (migration 0072,
 * `withMarkedRescore`) instead of a `_deferred` trigger per row written, and the batch's
 * category lookup reads categories by primary key, not every category of the company.
 */
describe('marked bulk writes (migration 0072)', () => {
  it('fires the per-row marking triggers only while completeness_defer holds 1, none while it holds 2', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const master = await makeProduct(session, catalog.catalogId, { sku: 'M-1' });
    const rowid = async (id: string) =>
      (await env.DB.prepare('SELECT rowid AS k FROM products WHERE id = ?').bind(id).first<{ k: number }>())!.k;
    const price = (position: number) =>
      db().insert(productPrices).values({ productId: master.productId, position, type: 'nrp', amount: '1.00' });
    const dirty = async () => (await db().select().from(completenessDirty)).map((r) => r.productKey);
    try {
      await db().batch([db().insert(completenessDefer).values({ id: 2 }), price(10)]);
      expect(await dirty()).toEqual([]);
      await db().batch([db().update(completenessDefer).set({ id: 1 }), price(11)]);
      expect(await dirty()).toEqual([await rowid(master.productId)]);
    } finally {
      await db().batch([db().delete(completenessDirty), db().delete(completenessDefer)]);
    }
  });

  it('marks the written products, their variants and the holders of their GTINs, then rescores and clears', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const other = await makeCatalog(session, { name: 'Other' });
    const master = await makeProduct(session, catalog.catalogId, { sku: 'M-2', gtin: '4006381333931' });
    const holder = await makeProduct(session, other.catalogId, { sku: 'H-2', gtin: '4006381333931' });
    const old = await makeProduct(session, other.catalogId, { sku: 'O-2', gtin: '4006381333948' });
    const variant = await makeProduct(session, catalog.catalogId, { sku: 'V-2', parentId: master.productId });
    const unrelated = await makeProduct(session, catalog.catalogId, { sku: 'U-2' });
    const keys = new Map<number, string>();
    for (const p of [master, variant, holder, old, unrelated])
      keys.set(
        (await env.DB.prepare('SELECT rowid AS k FROM products WHERE id = ?').bind(p.productId).first<{ k: number }>())!
          .k,
        p.productId,
      );
    // What the batch marks, copied as it is marked (the batch clears completeness_dirty at its end).
    await env.DB.exec('CREATE TABLE marked_probe (product_key INTEGER PRIMARY KEY)');
    await env.DB.exec(
      'CREATE TRIGGER marked_probe_copy AFTER INSERT ON completeness_dirty BEGIN INSERT OR IGNORE INTO marked_probe VALUES (NEW.product_key); END',
    );
    const marked = async () => {
      await env.DB.exec('DELETE FROM marked_probe');
      await db().batch(
        withMarkedRescore(db(), {
          own: [db().insert(productPrices).values({ productId: master.productId, position: 20, type: 'nrp' })],
          productIds: [master.productId],
          companyId: session.companyId,
          oldGtins: ['4006381333948'],
          rest: [],
        }) as never,
      );
      await db().delete(productPrices).where(eq(productPrices.productId, master.productId));
      const rows = await env.DB.prepare('SELECT product_key AS k FROM marked_probe').all<{ k: number }>();
      return rows.results.map((r) => keys.get(r.k)).sort();
    };
    try {
      // Without a gtinUnique rule the written product and its variant (the per-row triggers' set).
      expect(await marked()).toEqual([master.productId, variant.productId].sort());
      await env.DB.prepare(
        "INSERT INTO channel_rules (company_id, channel_key, lang, position, kind, target, label) VALUES (?, 0, 'deu', 0, 'gtinUnique', 'gtin', 'quality.gtinUnique')",
      )
        .bind(session.companyId)
        .run();
      // With one: also the holders of its GTIN, now and before the write, in any catalog of the company.
      expect(await marked()).toEqual([master.productId, variant.productId, holder.productId, old.productId].sort());
    } finally {
      await env.DB.exec('DROP TRIGGER marked_probe_copy');
      await env.DB.exec('DROP TABLE marked_probe');
    }
    expect(await db().select().from(completenessDefer)).toEqual([]);
    expect(await db().select().from(completenessDirty)).toEqual([]);
  });

  it("looks a batch's categories up by id, within the catalog and company only", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const other = await makeCatalog(session, { name: 'Other' });
    const mine = await makeCategory(session, catalog.catalogId, { name: 'Mine' });
    const theirs = await makeCategory(session, other.catalogId, { name: 'Theirs' });
    const stranger = await makeSession();
    const strangers = await makeCatalog(stranger);
    const foreign = await makeCategory(stranger, strangers.catalogId, { name: 'Foreign' });
    const ids = [mine.categoryId, theirs.categoryId, foreign.categoryId, 'no-such-category'];
    expect([...(await categoriesOfCatalog(db(), { ...session, catalogId: catalog.catalogId }, ids))]).toEqual([
      mine.categoryId,
    ]);

    // The plan: the primary key of the ids, not categories_company_idx (all of a company's categories per batch).
    const seen: { sql: string; params: unknown[] }[] = [];
    const probe = new Proxy(env.DB, {
      get(target, key) {
        if (key === 'prepare')
          return (sql: string) => {
            const statement = target.prepare(sql);
            return new Proxy(statement, {
              get(s, k) {
                if (k === 'bind')
                  return (...params: unknown[]) => {
                    seen.push({ sql, params });
                    return s.bind(...params);
                  };
                const value = Reflect.get(s, k);
                return typeof value === 'function' ? value.bind(s) : value;
              },
            });
          };
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await categoriesOfCatalog(createDb(probe), { ...session, catalogId: catalog.catalogId }, ids);
    const query = seen.find((q) => q.sql.includes('"categories"'))!;
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join(' | ');
    expect(details).toContain('sqlite_autoindex_categories_1 (id=?)');
    expect(details).not.toContain('categories_company_idx');
  });
});
