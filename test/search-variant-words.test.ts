import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { runBatch } from '../src/db/client';
import { listProducts } from '../src/catalog/product-list';
import { deleteProduct } from '../src/catalog/products';
import { writeTranslationStatements } from '../src/model/translation-store';
import { asActor, db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { countingDb } from './helpers/round-trips';

/**
 * A word only variants carry finds their masters in every plan (issue 32 part 6, docs/search.md
 * "Variants", migration 0057): with a rank limit of 1 every word of several documents is
 * common, as a word of more than 5,000 variants is at 1M, so each search here takes a broad
 * plan (index order, a sort order's walk, a category's placements, a filter's few products,
 * the search heads by name) and must list exactly the masters the selective plan lists.
 */
async function familyCatalog() {
  const session = await makeSession();
  const catalog = await makeCatalog(session, { language: 'deu', languages: ['deu', 'eng', 'fra'] });
  const shelf = await makeCategory(session, catalog.catalogId, { name: 'Regal' });
  const translate = (productId: string, language: string, fields: Record<string, string | null>) =>
    runBatch(db(), writeTranslationStatements(db(), productId, language, fields));
  const master = (sku: string, name: string, categoryIds: string[] = []) =>
    makeProduct(session, catalog.catalogId, { sku, name, categoryIds });
  const variant = (parent: { productId: string }, sku: string, name: string) =>
    makeProduct(session, catalog.catalogId, { sku, name, parentId: parent.productId });

  const m1 = await master('M-1', 'Leuchte Alpha', [shelf.categoryId]);
  await variant(m1, 'M-1-B', 'Leuchte blau'); // the word in one variant only
  await master('M-2', 'Leuchte blau Beta'); // in the master's own name
  const m3 = await master('M-3', 'Leuchte Gamma');
  await variant(m3, 'M-3-B', 'Leuchte blau');
  await variant(m3, 'M-3-BM', 'Leuchte blau matt'); // two variants: the master once
  const m4 = await master('M-4', 'Leuchte Delta', [shelf.categoryId]);
  await variant(m4, 'M-4-R', 'Leuchte rot');
  const m5 = await master('M-5', 'Leuchte Epsilon');
  const m5v = await variant(m5, 'M-5-N', 'Leuchte dunkel');
  await translate(m5v.productId, 'eng', { name: 'Lamp navy blau' }); // only a variant's English name
  const m6 = await master('M-6', 'Leuchte Ceta');
  const skus = async (q: string, extra: Record<string, unknown> = {}, options: Record<string, number> = {}) =>
    (
      await listProducts(db(), session, { catalogId: catalog.catalogId, q, limit: 50, ...extra } as never, {
        rankLimit: 1,
        ...options,
      })
    ).items.map((p) => p.sku);
  /** Every page of a search, `limit` per page. */
  const paged = async (q: string, extra: Record<string, unknown>, limit: number) => {
    const seen: (string | null)[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const page = await listProducts(
        db(),
        session,
        { catalogId: catalog.catalogId, q, limit, cursor, ...extra } as never,
        { rankLimit: 1, headSize: 3 },
      );
      seen.push(...page.items.map((p) => p.sku!));
      if (!page.nextCursor) return seen;
      cursor = page.nextCursor;
    }
    throw new Error('no last page');
  };
  return { session, catalog, shelf, translate, m1, m3, m4, m5, m5v, m6, skus, paged };
}

const ORDERS = [
  {},
  { sort: 'sku' },
  { sort: 'sku', order: 'desc' },
  { sort: 'name' },
  { sort: 'name', order: 'desc' },
  { sort: 'updatedAt' },
];
const sorted = (list: (string | null)[]) => [...list].sort();

describe('a word only variants carry, in a broad search', () => {
  it('lists their masters, once each, in every order and plan, as the selective plan does', async () => {
    const { skus } = await familyCatalog();
    const want = ['M-1', 'M-2', 'M-3', 'M-5'];
    expect(sorted(await skus('blau', {}, { rankLimit: 5000 }))).toEqual(want); // the selective plan
    for (const extra of ORDERS) {
      const got = await skus('blau', extra);
      expect(sorted(got), JSON.stringify(extra)).toEqual(want);
      expect(new Set(got).size, JSON.stringify(extra)).toBe(got.length);
      // two words, both common, of one variant's document
      expect(sorted(await skus('leuchte blau', extra)), JSON.stringify(extra)).toEqual(['M-1', 'M-2', 'M-3']);
      expect(await skus('blau matt', extra), JSON.stringify(extra)).toEqual(['M-3']);
    }
    expect(await skus('blau', { sort: 'sku' })).toEqual(want);
    expect(await skus('blau', { sort: 'sku', order: 'desc' })).toEqual([...want].reverse());
  });

  it('keeps to one language when asked', async () => {
    const { skus } = await familyCatalog();
    for (const extra of ORDERS) {
      expect(sorted(await skus('blau', { ...extra, searchLanguage: 'deu' })), JSON.stringify(extra)).toEqual([
        'M-1',
        'M-2',
        'M-3',
      ]);
      expect(await skus('navy', { ...extra, searchLanguage: 'eng' }), JSON.stringify(extra)).toEqual(['M-5']);
      expect(await skus('blau', { ...extra, searchLanguage: 'eng' }), JSON.stringify(extra)).toEqual(['M-5']);
      expect(await skus('blau', { ...extra, searchLanguage: 'fra' }), JSON.stringify(extra)).toEqual([]);
    }
  });

  it('lists each master once across pages, however many documents of its family match', async () => {
    const { paged } = await familyCatalog();
    for (const extra of [...ORDERS, { searchLanguage: 'deu' }] as Record<string, string>[]) {
      const seen = await paged('blau', extra, 1);
      expect(sorted(seen), JSON.stringify(extra)).toEqual(
        extra.searchLanguage ? ['M-1', 'M-2', 'M-3'] : ['M-1', 'M-2', 'M-3', 'M-5'],
      );
      expect(new Set(seen).size, JSON.stringify(extra)).toBe(seen.length);
    }
    // index order: a family at its first matching document (M-3's first variant, not its second)
    expect(await paged('blau', {}, 2)).toEqual(['M-1', 'M-2', 'M-3', 'M-5']);
  });

  it('pages a window of the walk in index order, and walks as before when the window holds too few masters', async () => {
    const { session, catalog, paged } = await familyCatalog();
    // M-8's 70 variants all carry the word: a page of 1 (windows of 2 x 4 and 2 x 32 documents) holds only M-8
    const m8 = await makeProduct(session, catalog.catalogId, { sku: 'M-8', name: 'Leuchte Theta' });
    for (let i = 0; i < 70; i++)
      await makeProduct(session, catalog.catalogId, { sku: `M-8-${i}`, name: 'Leuchte blau', parentId: m8.productId });
    await makeProduct(session, catalog.catalogId, { sku: 'M-9', name: 'Leuchte blau Iota' });
    const traced = countingDb();
    const pages: string[][] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const page = await listProducts(
        traced.db,
        session,
        { catalogId: catalog.catalogId, q: 'blau', limit: 1, cursor } as never,
        { rankLimit: 1 },
      );
      pages.push(page.items.map((p) => p.sku!));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    // each master once, at its first matching document (M-5 by its variant's English name, a
    // translated document: after every own one)
    expect(pages.flat()).toEqual(['M-1', 'M-2', 'M-3', 'M-8', 'M-9', 'M-5']);
    expect(await paged('blau', {}, 3)).toEqual(['M-1', 'M-2', 'M-3', 'M-8', 'M-9', 'M-5']);
    // the windows served the pages they could; the page at M-8 (its 70 documents, then M-9) walked
    const windows = traced.statements.filter((s) => s.sql.includes('GROUP BY pkey')).length;
    const walks = traced.statements.filter((s) => /^SELECT "products"\.\*, f\.rowid/.test(s.sql)).length;
    expect(windows).toBeGreaterThanOrEqual(pages.length);
    expect(walks).toBeGreaterThan(0);
    expect(walks).toBeLessThan(pages.length);
  });

  it('narrows a category and a filter naming few products by the family too', async () => {
    const { shelf, skus } = await familyCatalog();
    for (const extra of ORDERS) {
      // the category's placements walked (SKU order), or its few products checked in order
      expect(await skus('blau', { ...extra, categoryId: shelf.categoryId }), JSON.stringify(extra)).toEqual(['M-1']);
      expect(
        await skus('blau', { ...extra, categoryId: shelf.categoryId }, { driveLimit: 1 }),
        JSON.stringify(extra),
      ).toEqual(['M-1']);
    }
  });

  it('lists a master whose variant was indexed before it once, at its first document', async () => {
    const { session, catalog, skus, paged } = await familyCatalog();
    // an older product becomes the variant of a newer master: its document precedes the master's
    const older = await makeProduct(session, catalog.catalogId, { sku: 'M-7-OLD', name: 'Sonder blau' });
    const newer = await makeProduct(session, catalog.catalogId, { sku: 'M-7', name: 'Sonder blau Kit' });
    await env.DB.prepare('UPDATE products SET parent_id = ? WHERE id = ?').bind(newer.productId, older.productId).run();
    expect(sorted(await skus('sonder'))).toEqual(['M-7']);
    expect(await paged('sonder', {}, 1)).toEqual(['M-7']);
    expect(await paged('sonder blau', { sort: 'name' }, 1)).toEqual(['M-7']);
  });

  it('keeps the search heads exact when a variant gains, changes, loses or takes the word', async () => {
    const { session, catalog, m4, m5v, m6, translate, paged } = await familyCatalog();
    const byName = () => paged('blau', { sort: 'name' }, 2);
    const walked = async () => (await paged('blau', { sort: 'name', order: 'desc' }, 50)).reverse();
    const heads = async () =>
      (
        await env.DB.prepare('SELECT product_id FROM search_heads WHERE catalog_id = ? AND phrase = ?')
          .bind(catalog.catalogId, '"blau"')
          .all<{ product_id: string }>()
      ).results.length;
    expect(await byName()).toEqual(await walked());
    expect(await heads()).toBe(3); // head size 3: built by the first search by name, bound 'Leuchte Epsilon'
    // a new variant of a master inside the bound brings its master in
    const gained = await makeProduct(session, catalog.catalogId, {
      sku: 'M-4-B',
      name: 'Leuchte blau',
      parentId: m4.productId,
    });
    expect(await byName()).toEqual(await walked());
    expect(await byName()).toContain('M-4');
    // renamed: the master leaves
    await env.DB.prepare('UPDATE products SET name = ? WHERE id = ?').bind('Leuchte grün', gained.productId).run();
    expect(await byName()).not.toContain('M-4');
    expect(await byName()).toEqual(await walked());
    // a translated name of a variant brings its master in; removed, the master leaves
    const m6v = await makeProduct(session, catalog.catalogId, {
      sku: 'M-6-V',
      name: 'Leuchte',
      parentId: m6.productId,
    });
    await translate(m6v.productId, 'fra', { name: 'Lampe blau' });
    expect(await byName()).toContain('M-6');
    expect(await byName()).toEqual(await walked());
    await translate(m6v.productId, 'fra', { name: null });
    expect(await byName()).not.toContain('M-6');
    // a variant moved to another master takes its master's membership with it
    await env.DB.prepare('UPDATE products SET parent_id = ? WHERE id = ?').bind(m6.productId, m5v.productId).run();
    expect(await byName()).toContain('M-6');
    expect(await byName()).not.toContain('M-5');
    expect(await byName()).toEqual(await walked());
    // deleted, its master leaves
    await deleteProduct({ db: db(), files: env.FILES }, asActor(session), {
      departmentId: session.departmentId,
      productId: m5v.productId,
    });
    expect(await byName()).not.toContain('M-6');
    expect(await byName()).toEqual(await walked());
  });
});
