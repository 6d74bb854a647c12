import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { listProducts } from '../src/catalog/product-list';
import { deleteProduct, updateProduct } from '../src/catalog/products';
import { runBatch } from '../src/db/client';
import { writeTranslationStatements } from '../src/model/translation-store';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';

/**
 * Search heads (src/catalog/search-heads.ts, migration 0022, docs/search.md "Broad search by
 * name"): a broad search sorted by name ascending reads the head of its phrase, then walks the
 * name index past the bound. With a rank limit of 1 a word of several products is broad, and with
 * a head of 3 products every page crosses the head, its bound and the walk beyond. The expected
 * order is the name walk read backwards (descending never uses a head).
 */
async function catalogWithWord() {
  const session = await makeSession();
  const catalog = await makeCatalog(session);
  const made = new Map<string, string>();
  // Names with and without the word, ties that differ in case, empty names, out of name order.
  const rows: [string, string | null, string | null][] = [
    ['H-01', 'Zeta Klemme', 'schalter'],
    ['H-02', 'beta Schalter', null],
    ['H-03', 'Alpha Klemme', null],
    ['H-04', 'Beta schalter', null],
    ['H-05', null, 'schalter'],
    ['H-06', 'alpha Schalter', null],
    ['H-07', 'Gamma Klemme', null],
    ['H-08', 'delta Schalter', null],
    ['H-09', null, null],
    ['H-10', 'Eta Schalter', null],
    ['H-11', 'Aa Klemme', null],
    ['H-12', 'theta Schalter', null],
  ];
  for (const [sku, name, keywords] of rows) {
    const p = await makeProduct(session, catalog.catalogId, { sku, name, keywords });
    made.set(sku, p.productId);
  }
  const skusOf = async (input: Record<string, unknown>, limit: number, headSize = 3) => {
    const skus: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 100; i++) {
      const page = await listProducts(
        db(),
        session,
        { catalogId: catalog.catalogId, limit, cursor, ...input } as never,
        { rankLimit: 1, headSize },
      );
      skus.push(...page.items.map((p) => p.sku!));
      if (!page.nextCursor) return skus;
      cursor = page.nextCursor;
    }
    throw new Error('no last page');
  };
  /** The walk's order, descending, reversed: what ascending must list. */
  const expected = async (input: Record<string, unknown>) =>
    (await skusOf({ ...input, sort: 'name', order: 'desc' }, 50)).reverse();
  const headRows = async () =>
    (
      await env.DB.prepare('SELECT name FROM search_heads WHERE catalog_id = ? ORDER BY name, product_id')
        .bind(catalog.catalogId)
        .all<{ name: string }>()
    ).results.map((r) => r.name);
  return { session, catalog, made, skusOf, expected, headRows };
}

describe('search heads', () => {
  it('lists a broad search by name from its head and past its bound exactly as the name walk, page by page', async () => {
    const { skusOf, expected, headRows } = await catalogWithWord();
    const want = await expected({ q: 'schalter' });
    // the product without a name first, then the names with the word (or its keyword) by name, case-insensitively
    expect(want).toEqual(['H-05', 'H-06', 'H-02', 'H-04', 'H-08', 'H-10', 'H-12', 'H-01']);
    for (const limit of [1, 2, 5])
      expect(await skusOf({ q: 'schalter', sort: 'name' }, limit), `${limit}`).toEqual(want);
    // the head holds the first three matches with a name, in name order
    expect(await headRows()).toEqual(['alpha Schalter', 'beta Schalter', 'Beta schalter']);
    // a filter and a second word are checked on the head's products
    expect(await skusOf({ q: 'schalter', sort: 'name', status: 'active' }, 2)).toEqual(want);
    expect(await skusOf({ q: 'schalter beta', sort: 'name' }, 1)).toEqual(await expected({ q: 'schalter beta' }));
  });

  it('keeps a head exact on every write of a master, in the same batch', async () => {
    const { session, catalog, made, skusOf, expected, headRows } = await catalogWithWord();
    await skusOf({ q: 'schalter', sort: 'name' }, 2); // builds the head
    const tenant = asActor(session);
    const base = { departmentId: session.departmentId, catalogId: catalog.catalogId };
    // a new match before the bound enters the head; one without the word does not
    await makeProduct(session, catalog.catalogId, { sku: 'H-20', name: 'Aardvark Schalter' });
    await makeProduct(session, catalog.catalogId, { sku: 'H-21', name: 'Aaa Klemme' });
    expect(await headRows()).toEqual(['Aardvark Schalter', 'alpha Schalter', 'beta Schalter', 'Beta schalter']);
    // a rename that drops the word leaves it; a keyword that adds it (within the bound) enters it
    await updateProduct(db(), tenant, { ...base, productId: made.get('H-02')!, sku: 'H-02', name: 'beta Klemme' });
    await updateProduct(db(), tenant, {
      ...base,
      productId: made.get('H-03')!,
      sku: 'H-03',
      name: 'Alpha Klemme',
      keywords: 'Schalter',
    });
    expect(await headRows()).toEqual(['Aardvark Schalter', 'Alpha Klemme', 'alpha Schalter', 'Beta schalter']);
    // a delete leaves it
    await deleteProduct({ db: db(), files: env.FILES }, tenant, {
      departmentId: session.departmentId,
      productId: made.get('H-06')!,
    });
    expect(await headRows()).toEqual(['Aardvark Schalter', 'Alpha Klemme', 'Beta schalter']);
    // a match beyond the bound stays out of the head and is found by the walk past it
    await makeProduct(session, catalog.catalogId, { sku: 'H-22', name: 'Omega Schalter' });
    expect(await headRows()).toHaveLength(3);
    const want = await expected({ q: 'schalter' });
    expect(want).toEqual(['H-05', 'H-20', 'H-03', 'H-04', 'H-08', 'H-10', 'H-22', 'H-12', 'H-01']);
    for (const limit of [1, 3]) expect(await skusOf({ q: 'schalter', sort: 'name' }, limit), `${limit}`).toEqual(want);
  });

  it('holds every match when there are fewer than its size, and is the catalog’s own', async () => {
    const { session, catalog, skusOf, expected, headRows } = await catalogWithWord();
    expect(await skusOf({ q: 'schalter', sort: 'name' }, 2, 100)).toEqual(await expected({ q: 'schalter' }));
    expect(await headRows()).toHaveLength(7);
    // a match sorting last still enters a complete head
    await makeProduct(session, catalog.catalogId, { sku: 'H-30', name: 'Zz Schalter' });
    expect((await headRows()).at(-1)).toBe('Zz Schalter');
    // another catalog of the same company: its own head, none of these products
    const other = await makeCatalog(session);
    await makeProduct(session, other.catalogId, { sku: 'O-1', name: 'Other Schalter' });
    await makeProduct(session, other.catalogId, { sku: 'O-2', name: 'Other Schalter 2' });
    const page = await listProducts(
      db(),
      session,
      { catalogId: other.catalogId, q: 'schalter', sort: 'name', limit: 10 } as never,
      { rankLimit: 1 },
    );
    expect(page.items.map((p) => p.sku)).toEqual(['O-1', 'O-2']);
  });

  it('holds a master whose translated name or keywords match, kept by the triggers on translations', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session, { language: 'deu', languages: ['deu', 'eng'] });
    for (const [sku, name] of [
      ['T-1', 'Beta Schalter'],
      ['T-2', 'Gamma Schalter'],
    ])
      await makeProduct(session, catalog.catalogId, { sku, name });
    const clamp = await makeProduct(session, catalog.catalogId, { sku: 'T-3', name: 'Alpha Klemme' });
    const list = async () =>
      (
        await listProducts(
          db(),
          session,
          { catalogId: catalog.catalogId, q: 'schalter', sort: 'name', limit: 10 } as never,
          { rankLimit: 1, headSize: 2 },
        )
      ).items.map((p) => p.sku);
    expect(await list()).toEqual(['T-1', 'T-2']);
    // an English name with the word: the product enters the head (it sorts first) and is listed
    await runBatch(db(), writeTranslationStatements(db(), clamp.productId, 'eng', { name: 'Alpha Schalter' }));
    const heads = async () =>
      (
        await env.DB.prepare('SELECT name FROM search_heads WHERE catalog_id = ? ORDER BY name')
          .bind(catalog.catalogId)
          .all<{ name: string }>()
      ).results.map((r) => r.name);
    expect(await heads()).toEqual(['Alpha Klemme', 'Beta Schalter', 'Gamma Schalter']);
    expect(await list()).toEqual(['T-3', 'T-1', 'T-2']);
    const english = await listProducts(
      db(),
      session,
      { catalogId: catalog.catalogId, q: 'schalter', sort: 'name', limit: 10, searchLanguage: 'eng' } as never,
      { rankLimit: 1 },
    );
    expect(english.items.map((p) => p.sku)).toEqual(['T-3']);
    await runBatch(db(), writeTranslationStatements(db(), clamp.productId, 'eng', { name: null }));
    expect(await heads()).toEqual(['Beta Schalter', 'Gamma Schalter']);
    expect(await list()).toEqual(['T-1', 'T-2']);
  });
});
