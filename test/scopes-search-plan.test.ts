import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
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
const ORDERS = [{}, { sort: 'sku' }, { sort: 'sku', order: 'desc' }, { sort: 'updatedAt' }] as const;

describe("a scoped member's broad search", () => {
  it('judges each product by the scope before the search checks it, in index order and in sort orders', async () => {
    const { catalog, member } = await scopedCatalog();
    const seen: { q: string; order: object; scopeAt: number; checkAt: number }[] = [];
    for (const [q, order] of [
      ['Variante', {}],
      ['Variante', { sort: 'sku' }],
      ['Leuchte', { sort: 'sku', order: 'desc' }],
    ] as const) {
      const counting = countingDb();
      await listProducts(
        counting.db,
        member,
        { catalogId: catalog.catalogId, q, limit: 1, ...order } as never,
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
    for (const q of ['Variante', 'Leuchte'])
      for (const order of ORDERS) {
        const unscoped = await all(asActor(session), q, order);
        expect(unscoped).toHaveLength(6);
        const scoped = await all(member, q, order);
        expect({ q, order, scoped }).toEqual({ q, order, scoped: unscoped.filter((s) => insideSkus.includes(s!)) });
      }
  });

  it("reads whether the scope drives the list from its set's kept counters, counting its placements only without them", async () => {
    const { session, catalog, member, inside } = await scopedCatalog();
    for (let i = 0; i < 24; i++)
      await makeProduct(session, catalog.catalogId, {
        sku: `SX-${i}`,
        name: 'Leuchte',
        categoryIds: [inside.categoryId],
      });
    const count = async () => {
      const counting = countingDb();
      const page = await listProducts(
        counting.db,
        member,
        { catalogId: catalog.catalogId, limit: 50 },
        { driveLimit: 20 },
      );
      const counted = counting.statements.find((s) => s.sql.includes('AS c0'));
      expect(counted?.rowsRead).toBeDefined();
      return { skus: page.items.map((p) => p.sku), rowsRead: counted!.rowsRead! };
    };
    // no set yet: the placements are counted up to the drive limit (21 of 26)
    const counted = await count();
    expect(counted.skus).toHaveLength(26);
    expect(counted.rowsRead).toBeGreaterThanOrEqual(21);
    await prepareScopeSet(db(), session.companyId, [inside.categoryId]);
    // kept: the set's row and its catalog's counter, no placement
    const kept = await count();
    expect(kept.skus).toEqual(counted.skus);
    expect(kept.rowsRead).toBeLessThan(5);
  });
});
