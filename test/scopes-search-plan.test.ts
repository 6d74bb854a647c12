import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { encodeProductCursor } from '../src/catalog/product-cursor';
import { listProducts } from '../src/catalog/product-list';
import { prepareScopeSet } from '../src/db/scope-counts';
import type { Caller } from '../src/kernel/caller';
import { asActor, db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { countingDb, type RanStatement } from './helpers/round-trips';

/**
 * A category-scoped member's broad search (docs/teams.md, "Lists and search"; "What remains":
 * the scoped variant-only word): the list walks the word's documents or a sort order's index,
 * and each product it passes is judged by the scope before the search's checks (an FTS seek
 * each, and the family check of a word only variants carry), so a 10 % scope pays those checks
 * on the products it lists, not on the nine in ten it passes. Checked on the query plans (the
 * order SQLite runs the conditions in), and the lists against the unscoped ones.
 */
async function scopedCatalog() {
  const session = await makeSession();
  const catalog = await makeCatalog(session);
  const inside = await makeCategory(session, catalog.catalogId, { name: 'Inside' });
  const outside = await makeCategory(session, catalog.catalogId, { name: 'Outside' });
  const insideSkus: string[] = [];
  for (let i = 1; i <= 6; i++) {
    const sku = `SV-${i}`;
    const placed = i % 3 === 1 ? inside : outside;
    if (placed === inside) insideSkus.push(sku);
    const master = await makeProduct(session, catalog.catalogId, {
      sku,
      name: `Leuchte ${i}`,
      categoryIds: [placed.categoryId],
    });
    for (const v of [1, 2])
      await makeProduct(session, catalog.catalogId, {
        sku: `${sku}-V${v}`,
        name: 'Leuchte Variante',
        parentId: master.productId,
      });
  }
  const member: Caller = { ...asActor(session), productScope: { catalogIds: [], categoryIds: [inside.categoryId] } };
  return { session, catalog, member, insideSkus, inside };
}

/** Where in the statement's plan (rows in program order) the first row matching `pattern` is. */
async function planIndex(statement: RanStatement, pattern: RegExp): Promise<number> {
  const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
    .bind(...statement.params)
    .all<{ detail: string }>();
  return plan.results.findIndex((row) => pattern.test(row.detail));
}

// rank limit 1: every word of several documents is broad, as at 1M; drive limit 1: the scope
// (two masters) does not drive the list, as a 10 % subtree of 1M does not
const OPTIONS = { rankLimit: 1, driveLimit: 1 };
const ORDERS = [
  {},
  { sort: 'sku' },
  { sort: 'sku', order: 'desc' },
  { sort: 'updatedAt' },
  { sort: 'name', order: 'desc' },
] as const;

describe("a scoped member's broad search", () => {
  it('judges each product by the scope before the search checks it, in index order and in sort orders', async () => {
    const { catalog, member } = await scopedCatalog();
    const seen: { q: string; order: object; scopeAt: number; checkAt: number }[] = [];
    for (const [q, order] of [
      ['Variante', {}],
      ['Variante', { sort: 'sku' }],
      ['Leuchte', { sort: 'sku', order: 'desc' }],
    ] as const) {
      // in index order the first page checks no family (familyWindowRows): the second page does
      const cursor =
        'sort' in order
          ? undefined
          : (await listProducts(db(), member, { catalogId: catalog.catalogId, q, limit: 1 } as never, OPTIONS))
              .nextCursor!;
      const counting = countingDb();
      await listProducts(
        counting.db,
        member,
        { catalogId: catalog.catalogId, q, limit: 1, cursor, ...order } as never,
        OPTIONS,
      );
      const page = counting.statements.find((s) => s.sql.includes('ps.product_id') && /products_fts (f|c)/.test(s.sql));
      expect(page, `${q} ${JSON.stringify(order)}`).toBeDefined();
      const scopeAt = await planIndex(page!, /SEARCH ps /);
      const checkAt = await planIndex(page!, /SCAN c VIRTUAL TABLE/);
      expect(Math.min(scopeAt, checkAt), `${q} ${JSON.stringify(order)}`).toBeGreaterThanOrEqual(0);
      seen.push({ q, order, scopeAt, checkAt });
    }
    // the placements' seek (the scope) comes before the first FTS check in each plan
    expect(seen.map(({ q, order, scopeAt, checkAt }) => ({ q, order, scopeFirst: scopeAt < checkAt }))).toEqual(
      seen.map(({ q, order }) => ({ q, order, scopeFirst: true })),
    );
  });

  it('lists exactly the unscoped list of the products in scope, page by page, in every order', async () => {
    const { session, catalog, member, insideSkus } = await scopedCatalog();
    const all = async (caller: Caller, q: string, order: object) => {
      const skus: (string | null)[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 20; i++) {
        const page = await listProducts(
          db(),
          caller,
          { catalogId: catalog.catalogId, q, limit: 1, cursor, ...order } as never,
          OPTIONS,
        );
        skus.push(...page.items.map((p) => p.sku));
        if (!page.nextCursor) return skus;
        cursor = page.nextCursor;
      }
      throw new Error('no last page');
    };
    // first counted (no scope set), then read at once under the kept counters' condition
    for (const kept of [false, true]) {
      if (kept) await prepareScopeSet(db(), session.companyId, [...member.productScope!.categoryIds]);
      for (const q of ['', 'Variante', 'Leuchte'])
        for (const order of ORDERS) {
          const unscoped = await all(asActor(session), q, order);
          expect(unscoped).toHaveLength(6);
          const scoped = await all(member, q, order);
          expect({ kept, q, order, scoped }).toEqual({
            kept,
            q,
            order,
            scoped: unscoped.filter((s) => insideSkus.includes(s!)),
          });
        }
    }
  });

  it("reads a large scope's page at once under its set's kept counters, counting its placements only without them", async () => {
    const { session, catalog, member, inside } = await scopedCatalog();
    for (let i = 0; i < 24; i++)
      await makeProduct(session, catalog.catalogId, {
        sku: `SX-${i}`,
        name: 'Leuchte',
        categoryIds: [inside.categoryId],
      });
    const list = async (driveLimit: number, cursor?: string) => {
      const counting = countingDb();
      const page = await listProducts(
        counting.db,
        member,
        { catalogId: catalog.catalogId, limit: 50, cursor },
        { driveLimit },
      );
      const pages = counting.statements.filter((s) => s.sql.includes('"products".*'));
      return {
        skus: page.items.map((p) => p.sku),
        last: page.items.at(-1),
        next: page.nextCursor,
        counted: counting.statements.find((s) => s.sql.includes('AS c0')),
        guarded: pages.filter((s) => s.sql.includes('CASE WHEN')),
        pages,
      };
    };
    // no set yet: the guarded page reads nothing (the counters are NULL), the placements are
    // counted up to the drive limit (21 of 26), and the order is walked
    const counted = await list(20);
    expect(counted.skus).toHaveLength(26);
    expect(counted.counted?.rowsRead).toBeGreaterThanOrEqual(21);
    expect(counted.guarded.length).toBeGreaterThan(0);
    expect(counted.guarded.every((s) => s.rowsRead! < 5)).toBe(true);
    await prepareScopeSet(db(), session.companyId, [inside.categoryId]);
    // kept and large (26 > 20): no count, the guarded page is the page
    const kept = await list(20);
    expect(kept.skus).toEqual(counted.skus);
    expect(kept.counted).toBeUndefined();
    expect(kept.pages).toEqual(kept.guarded);
    // the end of a large scope's list: an empty page, then counted (large) and walked again (empty)
    const end = encodeProductCursor({ s: 'sku', o: 'asc', g: 'value', k: kept.last!.sku, i: kept.last!.productId });
    const last = await list(20, end);
    expect(last).toMatchObject({ skus: [], next: null });
    expect(last.counted).toBeDefined();
    // kept and small (26 <= 30): the guarded page reads only the counters, then the scope's
    // products are read as a set; the next list goes to the count at once
    const small = await list(30);
    expect(small.skus).toEqual(counted.skus);
    expect(small.guarded.length).toBeGreaterThan(0);
    expect(small.guarded.every((s) => s.rowsRead! < 5)).toBe(true);
    expect(small.counted?.rowsRead).toBeLessThan(5);
    const again = await list(30);
    expect(again.skus).toEqual(counted.skus);
    expect(again.guarded).toEqual([]);
    expect(again.counted).toBeDefined();
  });
});

describe("a scoped member's list of a catalog their subtrees are not in", () => {
  it('is empty at once, by the kept count of that catalog, reading none of its products', async () => {
    const { session, catalog, member, inside } = await scopedCatalog();
    const other = await makeCatalog(session);
    for (let i = 0; i < 6; i++) await makeProduct(session, other.catalogId, { sku: `O-${i}`, name: 'Leuchte' });
    await prepareScopeSet(db(), session.companyId, [inside.categoryId]);
    for (const input of [{}, { sort: 'name', order: 'desc' }, { q: 'Leuchte' }, { q: 'Leuchte', sort: 'sku' }]) {
      const counting = countingDb();
      const page = await listProducts(
        counting.db,
        member,
        { catalogId: other.catalogId, limit: 50, ...input } as never,
        // the set's two masters are "many" (above 1): counted over every catalog, as before, the
        // other catalog's order was walked, each product judged by the scope
        { rankLimit: 1, driveLimit: 1 },
      );
      expect(page.items, JSON.stringify(input)).toEqual([]);
      // no statement read the other catalog's products (the walks' rows are 0: none was run or read)
      const read = counting.statements.filter((s) => s.sql.includes('"products".*')).map((s) => s.rowsRead ?? 0);
      expect(Math.max(0, ...read), JSON.stringify(input)).toBeLessThan(3);
    }
    // the member's own catalog still lists its subtree
    const own = await listProducts(db(), member, { catalogId: catalog.catalogId, limit: 50 } as never, {
      driveLimit: 1,
    });
    expect(own.items.map((p) => p.sku).sort()).toEqual(['SV-1', 'SV-4']);
  });
});
