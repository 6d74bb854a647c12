import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { listProducts } from '../src/catalog/product-list';
import { makeCatalog, makeProduct, makeSession, db } from './helpers/factories';
import { call } from './helpers/http';

/**
 * The upsert's product inserts keep the search index set-based (migration 0093,
 * src/catalog/upsert/write/search-index.ts, docs/search.md "Bulk inserts"): the index and the
 * search heads they leave must be exactly what `products_fts_insert` leaves, row by row. Two
 * catalogs get the same products and the same head; one gets the new products through
 * UpsertProducts, the other the same rows copied in by plain INSERTs (the trigger path), and
 * their index entries (every word, column and position of every document) and heads are compared.
 */
const d1 = () => env.DB;

/** A catalog with four masters with the word, one without, and a head of three built by a broad search. */
async function catalogWithHead(session: Awaited<ReturnType<typeof makeSession>>) {
  const catalog = await makeCatalog(session.tenant, { language: 'deu', languages: ['eng'] });
  for (const [sku, name] of [
    ['S-BETA', 'Beta Schalter'],
    ['S-DELTA', 'Delta Schalter'],
    ['S-KAPPA', 'Kappa Schalter'],
    ['S-ZETA', 'Zeta Schalter'],
    ['S-EPS', 'Epsilon Dose'],
  ])
    await makeProduct(session.tenant, catalog.catalogId, { sku, name });
  // rank limit 1: the word is broad, so the search by name builds its head (3 masters)
  await listProducts(db(), session, { catalogId: catalog.catalogId, q: 'schalter', sort: 'name', limit: 2 } as never, {
    rankLimit: 1,
    headSize: 3,
  });
  return catalog;
}

const headsOf = async (catalogId: string) =>
  (
    await d1()
      .prepare(
        `SELECT h.phrase, p.sku, h.name FROM search_heads h JOIN products p ON p.id = h.product_id
         WHERE h.catalog_id = ? ORDER BY h.phrase, p.sku`,
      )
      .bind(catalogId)
      .all()
  ).results;

/** Every entry of the index for the catalog's documents: product, language (0: its own), column, position, word. */
const indexOf = async (catalogId: string) =>
  (
    await d1()
      .prepare(
        `SELECT p.sku, t.doc >> 36 AS lang, t.col, t.offset, t.term FROM products_fts_terms t
         JOIN products p ON p.rowid = (t.doc & 68719476735) WHERE p.catalog_id = ?
         ORDER BY p.sku, lang, t.col, t.offset, t.term`,
      )
      .bind(catalogId)
      .all()
  ).results;

/**
 * Copies the products `skus` of catalog `from` (and their translations) into `to` with plain
 * INSERTs, masters before variants: `products_fts_insert` and the translation triggers index them
 * row by row. A copied row's parent is the product of `to` with its parent's SKU.
 */
async function copyByTriggers(from: string, to: string, skus: string[]) {
  const columns = (await d1().prepare('PRAGMA table_info(products)').all<{ name: string }>()).results.map(
    (c) => c.name,
  );
  const picks = columns.map((c) =>
    c === 'id'
      ? `'copy-' || a.id`
      : c === 'catalog_id'
        ? '?2'
        : c === 'parent_id'
          ? `(SELECT b.id FROM products b WHERE b.catalog_id = ?2 AND b.sku = (SELECT x.sku FROM products x WHERE x.id = a.parent_id))`
          : `a.${c}`,
  );
  const insert = (variants: boolean) =>
    d1()
      .prepare(
        `INSERT INTO products (${columns.join(', ')}) SELECT ${picks.join(', ')} FROM products a
         WHERE a.catalog_id = ?1 AND a.sku IN (SELECT value FROM json_each(?3))
           AND a.parent_id IS ${variants ? 'NOT ' : ''}NULL ORDER BY a.rowid`,
      )
      .bind(from, to, JSON.stringify(skus));
  await d1().batch([
    insert(false),
    insert(true),
    d1()
      .prepare(
        `INSERT INTO translations (element_id, field, lang, value)
         SELECT 'copy-' || t.element_id, t.field, t.lang, t.value FROM translations t JOIN products a ON a.id = t.element_id
         WHERE a.catalog_id = ?1 AND a.sku IN (SELECT value FROM json_each(?2))`,
      )
      .bind(from, JSON.stringify(skus)),
  ]);
}

describe('search index of bulk product inserts', () => {
  it('leaves the index and the search heads an upsert batch writes exactly as the per-row triggers leave them', async () => {
    const session = await makeSession();
    const bulk = await catalogWithHead(session);
    const rowByRow = await catalogWithHead(session);
    expect(await headsOf(bulk.catalogId)).toEqual(await headsOf(rowByRow.catalogId));

    const items = [
      { sku: 'N-ALPHA', name: 'Alpha Schalter', keywords: 'Automat', gtin: '4006381333931', manufacturerPid: 'MP-1' },
      { sku: 'N-OMEGA', name: 'Omega Schalter' },
      { sku: 'N-GAMMA', name: 'Gamma Leiter', variants: [{ sku: 'N-GAMMA-1', name: 'Gamma Schalter eins' }] },
      { sku: 'N-CHI', name: 'Chi Dose', translations: { eng: { name: 'Chi Schalter', keywords: 'switch' } } },
      { sku: 'N-NONAME', keywords: 'schalter ohne Namen' },
      // an existing master gets a variant with the word: its family matches now
      { sku: 'S-EPS', variants: [{ sku: 'S-EPS-1', name: 'Epsilon Schalter eins' }] },
      // a master of the head gets a variant: its entry is removed and written again
      { sku: 'S-BETA', variants: [{ sku: 'S-BETA-1', name: 'Beta eins' }] },
    ];
    const upsert = await call('POST', '/api/Catalog/UpsertProducts', {
      cookie: session.cookie,
      headers: { Origin: 'http://pim.test' },
      body: { departmentId: session.departmentId, catalogId: bulk.catalogId, items },
    });
    expect(upsert.status).toBe(200);
    expect(upsert.json.counts).toEqual({ created: 8, updated: 0, unchanged: 2, error: 0 });
    await copyByTriggers(bulk.catalogId, rowByRow.catalogId, [
      'N-ALPHA',
      'N-OMEGA',
      'N-GAMMA',
      'N-GAMMA-1',
      'N-CHI',
      'N-NONAME',
      'S-EPS-1',
      'S-BETA-1',
    ]);

    // the head (bound: Kappa Schalter) takes the new masters before the bound whose family matches
    const heads = await headsOf(bulk.catalogId);
    expect(heads.map((h) => h.sku)).toEqual(['N-ALPHA', 'N-CHI', 'N-GAMMA', 'S-BETA', 'S-DELTA', 'S-EPS', 'S-KAPPA']);
    expect(heads).toEqual(await headsOf(rowByRow.catalogId));

    const index = await indexOf(bulk.catalogId);
    // every new product has its own document, N-CHI also its English one
    const documents = new Set(index.map((e) => `${e.sku}/${e.lang}`));
    for (const sku of ['N-ALPHA', 'N-OMEGA', 'N-GAMMA', 'N-GAMMA-1', 'N-CHI', 'N-NONAME', 'S-EPS-1', 'S-BETA-1'])
      expect(documents.has(`${sku}/0`), sku).toBe(true);
    expect([...documents].filter((d) => !d.endsWith('/0'))).toEqual(['N-CHI/5575']);
    expect(index).toEqual(await indexOf(rowByRow.catalogId));

    // the search finds them, through the index and the head
    const found = await listProducts(db(), session, { catalogId: bulk.catalogId, q: 'automat', limit: 10 } as never);
    expect(found.items.map((p) => p.sku)).toEqual(['N-ALPHA']);
  });

  it('leaves no deferral behind: a product written one at a time after an upsert batch is indexed by the trigger', async () => {
    const session = await makeSession();
    const catalog = await catalogWithHead(session);
    const upsert = await call('POST', '/api/Catalog/UpsertProducts', {
      cookie: session.cookie,
      headers: { Origin: 'http://pim.test' },
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        items: [{ sku: 'U-1', name: 'Ypsilon Dose' }],
      },
    });
    expect(upsert.status).toBe(200);
    expect((await d1().prepare('SELECT count(*) AS n FROM search_index_defer').first())?.n).toBe(0);
    await makeProduct(session.tenant, catalog.catalogId, { sku: 'L-1', name: 'Alpha Lambda Schalter' });
    const index = await indexOf(catalog.catalogId);
    expect(index.filter((e) => e.sku === 'L-1').map((e) => e.term)).toEqual(
      expect.arrayContaining(['lambda', 'schalter']),
    );
    expect(index.filter((e) => e.sku === 'U-1').map((e) => e.term)).toEqual(
      expect.arrayContaining(['ypsilon', 'dose']),
    );
    // and enters the head (before its bound, Kappa Schalter) through the trigger
    expect((await headsOf(catalog.catalogId)).map((h) => h.sku)).toEqual(['L-1', 'S-BETA', 'S-DELTA', 'S-KAPPA']);
  });
});
