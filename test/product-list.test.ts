import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { classifyAsMcb, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;
interface Item {
  productId: string;
  sku: string | null;
  name: string | null;
  updatedAt: string;
}

async function get(session: Session, query: string) {
  return call('GET', `/api/Catalog/GetProducts?${query}`, { cookie: session.cookie });
}

/** Walks every page of a list and returns the items in order. */
async function walk(session: Session, query: string, limit: number): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await get(session, `${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    items.push(...res.json.items);
    cursor = res.json.nextCursor;
    if (!cursor) return items;
  }
  throw new Error('no last page');
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** SQLite's NOCASE folds ASCII letters only. */
const nocase = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The expected ascending order: products without a value first (by id), then by value and id. */
function expectedAsc(items: Item[], key: (i: Item) => string | null, fold = (s: string) => s): string[] {
  return [...items]
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      if (ka === null || kb === null) return ka === kb ? cmp(a.productId, b.productId) : ka === null ? -1 : 1;
      return cmp(fold(ka), fold(kb)) || cmp(a.productId, b.productId);
    })
    .map((i) => i.productId);
}

async function catalogWithTiesAndNulls(session: Session) {
  const catalog = await makeCatalog(session);
  const specs: { sku?: string | null; name?: string | null }[] = [
    { sku: null, name: 'alpha' },
    { sku: 'B-2', name: 'Alpha' },
    { sku: 'a-1', name: 'ALPHA' },
    { sku: null, name: null },
    { sku: 'B-10', name: null },
    { sku: 'Z-9', name: 'Zeta' },
    { sku: 'C-3', name: 'beta' },
    { sku: null, name: 'Beta' },
    { sku: 'D-4', name: 'Ähre' },
    { sku: 'E-5', name: 'alpha' },
    { sku: 'F-6', name: 'gamma' },
  ];
  for (const spec of specs) await makeProduct(session, catalog.catalogId, { sku: spec.sku, name: spec.name });
  // Same last-change time for half of them: ties broken by id.
  await env.DB.prepare(
    `UPDATE products SET updated_at = '2026-01-01T00:00:00.000Z' WHERE catalog_id = ? AND rowid % 2 = 0`,
  )
    .bind(catalog.catalogId)
    .run();
  const all = (await get(session, `catalogId=${catalog.catalogId}&limit=500`)).json.items as Item[];
  expect(all).toHaveLength(specs.length);
  return { catalog, all };
}

describe('GetProducts sort orders', () => {
  it('pages through every order, both directions, without duplicates or gaps, with ties and empty values', async () => {
    const session = await makeSession();
    const { catalog, all } = await catalogWithTiesAndNulls(session);
    const orders: [string, string[]][] = [
      ['sku', expectedAsc(all, (i) => i.sku)],
      ['name', expectedAsc(all, (i) => i.name, nocase)],
      ['updatedAt', expectedAsc(all, (i) => i.updatedAt)],
    ];
    for (const [sort, asc] of orders) {
      for (const limit of [1, 2, 5]) {
        const up = await walk(session, `catalogId=${catalog.catalogId}&sort=${sort}&order=asc`, limit);
        expect(
          up.map((i) => i.productId),
          `${sort} asc by ${limit}`,
        ).toEqual(asc);
        const down = await walk(session, `catalogId=${catalog.catalogId}&sort=${sort}&order=desc`, limit);
        expect(
          down.map((i) => i.productId),
          `${sort} desc by ${limit}`,
        ).toEqual([...asc].reverse());
      }
    }
    // The default is SKU ascending.
    expect(all.map((i) => i.productId)).toEqual(orders[0]![1]);
  });

  it('binds a cursor to its order and refuses a foreign or forged one', async () => {
    const session = await makeSession();
    const { catalog } = await catalogWithTiesAndNulls(session);
    const first = await get(session, `catalogId=${catalog.catalogId}&sort=name&limit=2`);
    const cursor = first.json.nextCursor as string;
    for (const other of ['sort=sku', 'sort=name&order=desc', 'sort=updatedAt']) {
      const res = await get(session, `catalogId=${catalog.catalogId}&${other}&limit=2&cursor=${cursor}`);
      expect(res.status, other).toBe(400);
      expect(res.json.error).toBe('cursor belongs to another sort order; start again without cursor');
    }
    const forged = btoa(JSON.stringify({ s: 'name', o: 'asc', g: 'value', k: 5, i: 'x' }));
    const res = await get(session, `catalogId=${catalog.catalogId}&sort=name&cursor=${encodeURIComponent(forged)}`);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('cursor is not valid');
    const badSort = await get(session, `catalogId=${catalog.catalogId}&sort=price`);
    expect(badSort.status).toBe(400);
    expect(badSort.json.error).toMatch(/^sort: /);
  });
});

describe('GetProducts filters', () => {
  it('filters by status, category (with and without subtree), class code and missing fields', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const top = await makeCategory(session, catalog.catalogId, { name: 'Top' });
    const child = await makeCategory(session, catalog.catalogId, { name: 'Child', parentId: top.categoryId });
    const grandchild = await makeCategory(session, catalog.catalogId, {
      name: 'Grandchild',
      parentId: child.categoryId,
    });
    const p = async (sku: string, extra: Record<string, unknown> = {}) =>
      (await makeProduct(session, catalog.catalogId, { sku, ...extra })).productId;
    await p('F-TOP', { categoryIds: [top.categoryId], gtin: '4006209123454', price: '1.00' });
    const inGrandchild = await p('F-GC', { categoryIds: [grandchild.categoryId], status: 'draft', price: '2.00' });
    await p('F-NONE', { status: 'discontinued', gtin: '4006209123461' });
    await classifyAsMcb(session, inGrandchild);
    const skus = async (query: string) => {
      const res = await get(session, `catalogId=${catalog.catalogId}&${query}`);
      expect(res.status, `${query}: ${JSON.stringify(res.json)}`).toBe(200);
      return res.json.items.map((i: Item) => i.sku);
    };
    expect(await skus(`categoryId=${top.categoryId}`)).toEqual(['F-TOP']);
    expect(await skus(`categoryId=${top.categoryId}&subtree=true`)).toEqual(['F-GC', 'F-TOP']);
    expect(await skus(`categoryId=${child.categoryId}&subtree=true`)).toEqual(['F-GC']);
    expect(await skus(`categoryId=${child.categoryId}&subtree=false`)).toEqual([]);
    expect(await skus('status=draft')).toEqual(['F-GC']);
    expect(await skus('status=discontinued')).toEqual(['F-NONE']);
    expect(await skus('classCode=EC000042')).toEqual(['F-GC']);
    expect(await skus('classCode=EC999999')).toEqual([]);
    expect(await skus('missing=gtin')).toEqual(['F-GC']);
    expect(await skus('missing=price')).toEqual(['F-NONE']);
    expect(await skus('missing=classification')).toEqual(['F-NONE', 'F-TOP']);
    expect(await skus('missing=gtin,classification')).toEqual([]);
    expect(await skus(`missing=classification&categoryId=${top.categoryId}&subtree=true&status=active`)).toEqual([
      'F-TOP',
    ]);
    expect(await skus(`q=F-GC&categoryId=${top.categoryId}&subtree=true`)).toEqual(['F-GC']);
    expect(await skus(`q=F-NONE&categoryId=${top.categoryId}&subtree=true`)).toEqual([]);
  });

  it('answers 400 naming the parameter for a bad filter value', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    for (const [query, field] of [
      ['status=gone', 'status'],
      ['missing=gtin,colour', 'missing'],
      ['subtree=yes', 'subtree'],
      ['classCode=%27%3B', 'classCode'],
      ['categoryId=nope', 'categoryId'],
    ]) {
      const res = await get(session, `catalogId=${catalog.catalogId}&${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.error, query).toMatch(new RegExp(`^${field}`));
    }
  });
});
