import { env } from 'cloudflare:test';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runBatch } from '../src/db/client';
import { listProducts } from '../src/catalog/product-list';
import { deleteProduct } from '../src/catalog/products';
import { writeTranslationStatements } from '../src/model/translation-store';
import { searchMatch } from '../src/catalog/search-plan';
import { productFilterWhere } from '../src/catalog/product-filter';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { send } from './oauth-helpers';

/**
 * Search in every language (migration 0024, src/catalog/search-scope.ts, docs/search.md
 * "Languages"): a master's translated name and keywords are indexed per language, kept current
 * by triggers on `translations`; `searchLanguage=` limits a search to one language.
 */
async function threeLanguages() {
  const session = await makeSession();
  const catalog = await makeCatalog(session, { language: 'deu', languages: ['deu', 'eng', 'fra'] });
  const translate = (productId: string, language: string, fields: Record<string, string | null>) =>
    runBatch(db(), writeTranslationStatements(db(), productId, language, fields));
  const mcb = await makeProduct(session, catalog.catalogId, { sku: 'L-1', name: 'Leitungsschutzschalter B16' });
  await translate(mcb.productId, 'eng', { name: 'Circuit breaker B16', keywords: 'miniature' });
  await translate(mcb.productId, 'fra', { name: 'Disjoncteur B16' });
  const rcd = await makeProduct(session, catalog.catalogId, { sku: 'L-2', name: 'Fehlerstromschalter' });
  await translate(rcd.productId, 'eng', { name: 'Residual current breaker' });
  const skus = async (q: string, extra: Record<string, unknown> = {}, rankLimit?: number) =>
    (
      await listProducts(db(), session, { catalogId: catalog.catalogId, q, limit: 50, ...extra } as never, {
        rankLimit,
      })
    ).items.map((p) => p.sku);
  return { session, catalog, translate, mcb, rcd, skus };
}

describe('search in every language', () => {
  it('finds a product by words of any of its languages, and by one language when asked', async () => {
    const { skus } = await threeLanguages();
    expect(await skus('circuit')).toEqual(['L-1']);
    expect(await skus('disjonct')).toEqual(['L-1']);
    expect(await skus('leitungsschutz')).toEqual(['L-1']);
    expect(await skus('miniature breaker')).toEqual(['L-1']); // keywords and name of one language
    expect((await skus('breaker')).sort()).toEqual(['L-1', 'L-2']);
    // limited to one language: the catalog's default is the products' own fields (identifiers too)
    expect(await skus('breaker', { searchLanguage: 'fra' })).toEqual([]);
    expect(await skus('disjoncteur', { searchLanguage: 'fra' })).toEqual(['L-1']);
    expect(await skus('disjoncteur', { searchLanguage: 'eng' })).toEqual([]);
    expect(await skus('leitungsschutzschalter', { searchLanguage: 'eng' })).toEqual([]);
    expect(await skus('leitungsschutzschalter', { searchLanguage: 'deu' })).toEqual(['L-1']);
    expect(await skus('L-1', { searchLanguage: 'deu' })).toEqual(['L-1']);
    // words of two languages in one search match no single language: nothing
    expect(await skus('circuit disjoncteur')).toEqual([]);
  });

  it('lists a broad search once per product in every plan and order, any language or one', async () => {
    const { session, catalog, skus } = await threeLanguages();
    // rank limit 1: "breaker" (two products) and "b16" are common, as a word of every product at 1M
    for (const extra of [{}, { sort: 'sku' }, { sort: 'name' }, { sort: 'name', order: 'desc' }]) {
      const all = await skus('breaker', extra, 1);
      expect(all.sort(), JSON.stringify(extra)).toEqual(['L-1', 'L-2']);
      expect(await skus('b16', extra, 1), JSON.stringify(extra)).toEqual(['L-1']);
      expect((await skus('breaker', { ...extra, searchLanguage: 'eng' }, 1)).sort()).toEqual(['L-1', 'L-2']);
      expect(await skus('breaker', { ...extra, searchLanguage: 'fra' }, 1)).toEqual([]);
    }
    // index order, page by page: each product once, however many of its languages match
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await listProducts(
        db(),
        session,
        { catalogId: catalog.catalogId, q: 'b16', limit: 1, cursor } as never,
        { rankLimit: 1 },
      );
      seen.push(...page.items.map((p) => p.sku!));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(['L-1']);
  });

  it('keeps the index current on every write of a translation and on delete', async () => {
    const { session, translate, mcb, skus } = await threeLanguages();
    await translate(mcb.productId, 'eng', { name: 'Overcurrent switch' });
    expect(await skus('circuit')).toEqual([]);
    expect(await skus('overcurrent')).toEqual(['L-1']);
    expect(await skus('miniature')).toEqual(['L-1']); // the keywords of that language stay
    await translate(mcb.productId, 'eng', { keywords: null });
    expect(await skus('miniature')).toEqual([]);
    expect(await skus('overcurrent')).toEqual(['L-1']);
    const rowid = (
      await env.DB.prepare('SELECT rowid AS r FROM products WHERE id = ?').bind(mcb.productId).first<{ r: number }>()
    )?.r;
    expect(rowid).toBeGreaterThan(0);
    const docsOf = async () =>
      (
        await env.DB.prepare('SELECT count(*) AS n FROM products_fts_terms WHERE doc % 68719476736 = ?')
          .bind(rowid)
          .first<{ n: number }>()
      )?.n;
    expect(await docsOf()).toBeGreaterThan(0);
    await deleteProduct({ db: db(), files: env.FILES }, asActor(session), {
      departmentId: session.departmentId,
      productId: mcb.productId,
    });
    expect(await skus('disjoncteur')).toEqual([]);
    // no document of the product is left in the index (own, English, French)
    expect(await docsOf()).toBe(0);
  });

  it('selects the same products for mass edit as the list, with a language too', async () => {
    const { session, catalog } = await threeLanguages();
    const ids = async (q: string, searchLanguage?: string) => {
      const where = productFilterWhere(session, catalog.catalogId, { q, searchLanguage }, await searchMatch(db(), q));
      const rows = await db().all<{ sku: string }>(sql`SELECT sku FROM products WHERE ${where} ORDER BY sku`);
      return rows.map((r) => r.sku);
    };
    expect(await ids('breaker')).toEqual(['L-1', 'L-2']);
    expect(await ids('breaker', 'fra')).toEqual([]);
    expect(await ids('disjoncteur', 'fra')).toEqual(['L-1']);
    expect(await ids('leitungsschutzschalter', 'deu')).toEqual(['L-1']);
    expect(await ids('leitungsschutzschalter', 'eng')).toEqual([]);
  });

  it("finds a master by a word of its variant's name in any language, in one language when asked, and forgets it on change and delete", async () => {
    const { session, catalog, translate, mcb, skus } = await threeLanguages();
    const variant = await makeProduct(session, catalog.catalogId, {
      sku: 'L-1-BL',
      name: 'Leitungsschutzschalter blau',
      parentId: mcb.productId,
    });
    await translate(variant.productId, 'eng', { name: 'Circuit breaker navy', keywords: 'marine' });
    await translate(variant.productId, 'fra', { name: 'Disjoncteur bleu' });
    // a word only the variant has lists its master once, in the variant's language
    expect(await skus('blau')).toEqual(['L-1']);
    expect(await skus('navy')).toEqual(['L-1']);
    expect(await skus('circuit navy')).toEqual(['L-1']); // master's word + variant's word: the variant's document has both
    expect(await skus('marine')).toEqual(['L-1']);
    expect(await skus('bleu')).toEqual(['L-1']);
    expect(await skus('navy', { searchLanguage: 'eng' })).toEqual(['L-1']);
    expect(await skus('navy', { searchLanguage: 'fra' })).toEqual([]);
    expect(await skus('navy', { searchLanguage: 'deu' })).toEqual([]);
    expect(await skus('blau', { searchLanguage: 'deu' })).toEqual(['L-1']);
    expect(await skus('blau', { searchLanguage: 'eng' })).toEqual([]);
    expect(await skus('circuit', { searchLanguage: 'eng', sort: 'sku' })).toEqual(['L-1']); // master and variant: once
    // mass edit selects the same masters
    const ids = async (q: string, searchLanguage?: string) => {
      const where = productFilterWhere(session, catalog.catalogId, { q, searchLanguage }, await searchMatch(db(), q));
      return (await db().all<{ sku: string }>(sql`SELECT sku FROM products WHERE ${where} ORDER BY sku`)).map(
        (r) => r.sku,
      );
    };
    expect(await ids('navy')).toEqual(['L-1']);
    expect(await ids('navy', 'eng')).toEqual(['L-1']);
    expect(await ids('navy', 'fra')).toEqual([]);
    expect(await ids('blau', 'deu')).toEqual(['L-1']);
    // a changed translation and a renamed variant re-index; a deleted variant leaves no document
    await translate(variant.productId, 'eng', { name: 'Circuit breaker teal' });
    expect(await skus('navy')).toEqual([]);
    expect(await skus('teal', { searchLanguage: 'eng' })).toEqual(['L-1']);
    await env.DB.prepare("UPDATE products SET name = 'Leitungsschutzschalter grün' WHERE id = ?")
      .bind(variant.productId)
      .run();
    expect(await skus('blau')).toEqual([]);
    expect(await skus('grün')).toEqual(['L-1']);
    const rowid = (
      await env.DB.prepare('SELECT rowid AS r FROM products WHERE id = ?')
        .bind(variant.productId)
        .first<{ r: number }>()
    )?.r;
    await deleteProduct({ db: db(), files: env.FILES }, asActor(session), {
      departmentId: session.departmentId,
      productId: variant.productId,
    });
    expect(await skus('teal')).toEqual([]);
    expect(await skus('bleu')).toEqual([]);
    expect(await skus('disjoncteur', { searchLanguage: 'fra' })).toEqual(['L-1']); // the master's own French name stays
    const left = await env.DB.prepare('SELECT count(*) AS n FROM products_fts_terms WHERE doc % 68719476736 = ?')
      .bind(rowid)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it('reads in a broad search only the translated languages that hold the word, and still a language the catalog no longer publishes', async () => {
    const { session, catalog, translate, mcb, skus } = await threeLanguages();
    const variant = await makeProduct(session, catalog.catalogId, {
      sku: 'L-1-BL',
      name: 'Blau',
      parentId: mcb.productId,
    });
    await translate(variant.productId, 'fra', { name: 'Bleu marine' });
    // a translation in a language the catalog does not publish (published once, or written before)
    const other = await makeProduct(session, catalog.catalogId, { sku: 'L-3', name: 'Schalter' });
    await translate(other.productId, 'ita', { name: 'Interruttore' });
    // rank limit 1: every word is broad, so each master (and its variants) is checked per language
    const orders = [
      {},
      { sort: 'sku' },
      { sort: 'sku', order: 'desc' },
      { sort: 'name' },
      { sort: 'name', order: 'desc' },
    ];
    for (const extra of orders) {
      const at = JSON.stringify(extra);
      expect(await skus('disjoncteur', extra, 1), at).toEqual(['L-1']); // French only: English is skipped
      expect(await skus('marine', extra, 1), at).toEqual(['L-1']); // only a variant's French name
      expect(await skus('interruttore', extra, 1), at).toEqual(['L-3']); // Italian, not published
      expect(await skus('circuit', extra, 1), at).toEqual(['L-1']); // English only
      expect(await skus('leitungsschutzschalter', extra, 1), at).toEqual(['L-1']); // the own document only
    }
  });

  it('takes searchLanguage= on GetProducts: 400 for a code that is no language or not enabled', async () => {
    const { session, catalog } = await threeLanguages();
    const get = (query: string) =>
      send('GET', `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&${query}`, { cookie: session.cookie });
    const ok = await get('q=disjoncteur&searchLanguage=fra');
    expect(ok.status).toBe(200);
    expect(ok.json.items.map((p: { sku: string }) => p.sku)).toEqual(['L-1']);
    const bad = await get('q=disjoncteur&searchLanguage=xx');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('searchLanguage');
    const unknown = await get('q=disjoncteur&searchLanguage=qqq');
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toContain('searchLanguage');
    const notEnabled = await get('q=disjoncteur&searchLanguage=ita');
    expect(notEnabled.status).toBe(400);
    expect(notEnabled.json.error).toContain('searchLanguage: Italian (ita) is not enabled');
  });
});
