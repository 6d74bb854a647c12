import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { listProducts } from '../src/catalog/product-list';
import { createDb } from '../src/db/client';
import { createClassification, deleteClassification } from '../src/classification/links';
import { asActor, classifyAsMcb, db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';

/**
 * Filter plans (src/catalog/product-list.ts `drivenIds`, docs/search.md "Filter plans"): a
 * filter whose index-backed condition names few products reads those and sorts them in memory;
 * the same filter with that switched off walks the sort order's index. Both must list the same
 * products in the same order, page by page, in every order and direction.
 */
async function mixedCatalog() {
  const session = await makeSession();
  const catalog = await makeCatalog(session);
  const top = await makeCategory(session, catalog.catalogId, { name: 'Top' });
  const child = await makeCategory(session, catalog.catalogId, { name: 'Child', parentId: top.categoryId });
  const names = ['beta', 'Alpha', 'alpha', null, 'Gamma', 'delta', 'Beta', 'epsilon', null, 'zeta', 'Eta', 'theta'];
  for (const [n, name] of names.entries()) {
    const product = await makeProduct(session, catalog.catalogId, {
      sku: n % 5 === 4 ? null : `FP-${String((n * 7) % 12).padStart(2, '0')}`,
      name,
      status: (['active', 'draft', 'discontinued'] as const)[n % 3],
      gtin: n % 2 === 0 ? '4006209123454' : undefined,
      price: n % 4 === 0 ? undefined : '1.50',
      categoryIds: n % 3 === 0 ? [top.categoryId] : n % 3 === 1 ? [child.categoryId] : [],
    });
    if (n % 4 !== 1) await classifyAsMcb(session, product.productId);
  }
  return { session, catalog, top, child };
}

describe('filter plans', () => {
  it('lists the few products a filter names exactly as the index walk does, in every order, page by page', async () => {
    const { session, catalog, top, child } = await mixedCatalog();
    const filters: Record<string, unknown>[] = [
      { categoryId: top.categoryId },
      { categoryId: top.categoryId, subtree: true },
      { categoryId: child.categoryId, status: 'draft' },
      { status: 'draft' },
      { status: 'discontinued', missing: ['price'] },
      { missing: ['gtin'] },
      { missing: ['gtin', 'price'] },
      { missing: ['price'], categoryId: top.categoryId, subtree: true },
      { classCode: 'EC000042' },
      { classCode: 'EC000042', status: 'draft' },
      { classCode: 'EC000042', categoryId: child.categoryId, missing: ['gtin'] },
      { classCode: 'EC999999' },
    ];
    const walk = async (input: Record<string, unknown>, driveLimit: number, placements = true) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 50; i++) {
        const page = await listProducts(
          db(),
          session,
          { catalogId: catalog.catalogId, limit: 2, cursor, ...input } as never,
          // rank limit 1: a search for a word of several products is broad, as a common word at 1M
          { driveLimit, rankLimit: 1, placements },
        );
        ids.push(...page.items.map((p) => p.productId));
        if (!page.nextCursor) return ids;
        cursor = page.nextCursor;
      }
      throw new Error('no last page');
    };
    // Without a search and with a broad one (the SKU word "FP" of most products), in every sort
    // order both ways and, for the search, in its index order (no sort).
    const orderings: Record<string, unknown>[] = [
      ...['sku', 'name', 'updatedAt'].flatMap((sort) =>
        [{}, { q: 'FP' }].flatMap((search) => [
          { ...search, sort, order: 'asc' },
          { ...search, sort, order: 'desc' },
        ]),
      ),
      { q: 'FP' },
    ];
    let nonEmpty = 0;
    for (const filter of filters)
      for (const ordering of orderings) {
        const input = { ...filter, ...ordering };
        // the sort order's index walked, each product checked (no placements): what every other plan must list
        const walked = await walk(input, 0, false);
        expect(await walk(input, 5000, false), JSON.stringify(input)).toEqual(walked);
        // a category in SKU order from its placements, whether or not it names few products
        expect(await walk(input, 5000), JSON.stringify(input)).toEqual(walked);
        expect(await walk(input, 0), JSON.stringify(input)).toEqual(walked);
        if (walked.length > 0) nonEmpty++;
      }
    expect(nonEmpty).toBeGreaterThan(60);
    // hundreds of listings page by page: 10-15 s on a quiet machine, past 30 s on a loaded one
  }, 180_000);

  it("answers 404 for another company's catalog although its page is read beside the catalog's lookup", async () => {
    const { session, catalog, top } = await mixedCatalog();
    const stranger = await makeSession();
    const inputs: Record<string, unknown>[] = [
      {},
      { categoryId: top.categoryId },
      { status: 'draft', sort: 'name', order: 'desc' },
      { q: 'FP', status: 'draft' },
      { cursor: 'not-a-cursor' },
    ];
    const list = (caller: typeof session, input: Record<string, unknown>) =>
      listProducts(db(), caller, { catalogId: catalog.catalogId, limit: 2, ...input } as never, { rankLimit: 1 });
    for (const input of inputs)
      await expect(list(stranger, input), JSON.stringify(input)).rejects.toMatchObject({ code: 'not_found' });
    // the owner: the same lists answer, a cursor that is none or of another order is a 400
    expect((await list(session, { categoryId: top.categoryId })).items.length).toBeGreaterThan(0);
    await expect(list(session, { cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: 'bad_request' });
    const byName = await list(session, { sort: 'name' });
    await expect(list(session, { sort: 'sku', cursor: byName.nextCursor })).rejects.toMatchObject({
      code: 'bad_request',
    });
    expect((await list(session, { sort: 'name', cursor: byName.nextCursor })).items.length).toBeGreaterThan(0);
  });

  it('looks the products of a joined set (a filter, search hits) up by id, never by a range of a sort index', async () => {
    const { session, catalog, top } = await mixedCatalog();
    const statements: string[] = [];
    // A D1 binding that records the statements run through it.
    const recording = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === 'prepare')
          return (query: string) => {
            statements.push(query);
            return target.prepare(query);
          };
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const list = (input: Record<string, unknown>) =>
      listProducts(createDb(recording), session, { catalogId: catalog.catalogId, limit: 1, ...input } as never, {
        rankLimit: 1,
      });
    for (const sort of ['sku', 'name', 'updatedAt']) {
      const inputs = [
        { categoryId: top.categoryId, sort },
        { missing: ['gtin'], sort },
        { classCode: 'EC000042', sort },
        { q: 'FP', status: 'draft', sort },
        { q: 'FP', missing: ['price'] },
        { q: 'FP-0', sort },
      ];
      for (const input of inputs) {
        const first = await list(input);
        expect(first.nextCursor, JSON.stringify(input)).not.toBeNull();
        await list({ ...input, cursor: first.nextCursor });
      }
    }
    const joined = statements.filter((s) => s.includes(' h CROSS JOIN '));
    expect(joined.length).toBeGreaterThanOrEqual(26);
    // a category in SKU order (without a search and with a broad one) walks its placements in the
    // order of their index (category_id, sku), first page and after a cursor: no sort of its products
    const placed = statements.filter((s) => s.includes('product_categories pc CROSS JOIN'));
    expect(placed.length).toBeGreaterThanOrEqual(2);
    for (const statement of placed) {
      const params = Array.from(statement.matchAll(/\?/g), () => null);
      const plan = (
        await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement}`)
          .bind(...params)
          .all<{ detail: string }>()
      ).results.map((r) => r.detail);
      expect(plan.join('\n'), statement).toMatch(
        /SEARCH pc USING COVERING INDEX product_categories_category_idx \(category_id=\? AND sku/,
      );
      expect(plan.join('\n'), statement).not.toMatch(/TEMP B-TREE/);
    }
    for (const statement of joined) {
      // the plan does not depend on the values (no ANALYZE statistics): bind NULLs
      const params = Array.from(statement.matchAll(/\?/g), () => null);
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement}`)
        .bind(...params)
        .all<{ detail: string }>();
      const lookups = plan.results.map((r) => r.detail).filter((d) => /^SEARCH products\b/.test(d));
      for (const lookup of lookups)
        expect(lookup, statement).not.toMatch(/ AND (sku|\(name,id\)|\(updated_at,id\))[<>]|\(rowid[<>]/);
    }
  });

  it('answers a class code no link names without scanning the links, and counts links on every write', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const product = await makeProduct(session, catalog.catalogId, { sku: 'CU-1' });
    // a known ETIM class no other test of this file uses (each test file has its own database)
    const code = 'EC000057';
    const uses = async () =>
      (
        await env.DB.prepare('SELECT links FROM classification_class_use WHERE code = ?')
          .bind(code)
          .first<{ links: number }>()
      )?.links ?? 0;
    const statements: string[] = [];
    const recording = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === 'prepare')
          return (query: string) => {
            statements.push(query);
            return target.prepare(query);
          };
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const list = async () =>
      (
        await listProducts(createDb(recording), session, {
          catalogId: catalog.catalogId,
          classCode: code,
          limit: 5,
        } as never)
      ).items.map((p) => p.sku);
    const scans = () => statements.filter((s) => s.includes('classification_link_classes lc CROSS JOIN')).length;
    expect(await list()).toEqual([]);
    expect(scans()).toBe(0);
    const link = await createClassification(db(), asActor(session), {
      elementId: product.productId,
      name: 'Test class',
      classificationGroups: 1,
      classes: [{ group: 'ETIM', code }],
      features: [],
    });
    expect(await uses()).toBe(1);
    expect(await list()).toEqual(['CU-1']);
    expect(scans()).toBe(1);
    await deleteClassification(db(), asActor(session), link.linkId);
    expect(await uses()).toBe(0);
    expect(await list()).toEqual([]);
    expect(scans()).toBe(1);
  });

  it('leaves the condition its few products are out of their WHERE (a category, a class code), checking every other one', async () => {
    const { session, catalog, top, child } = await mixedCatalog();
    const statements: string[] = [];
    const recording = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === 'prepare')
          return (query: string) => {
            statements.push(query);
            return target.prepare(query);
          };
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const skus = async (input: Record<string, unknown>, driveLimit?: number) =>
      (
        await listProducts(
          createDb(recording),
          session,
          { catalogId: catalog.catalogId, limit: 50, sort: 'sku', ...input } as never,
          { rankLimit: 1, driveLimit },
        )
      ).items.map((p) => p.sku);
    const pageOf = () =>
      statements.filter((s) => s.includes(' h CROSS JOIN ') || s.includes('product_categories pc CROSS JOIN')).at(-1) ??
      '';
    const categoryCheck = 'pc.product_id = "products"."id"';
    const classCheck = 'l.element_id = "products"."id"';
    for (const input of [{ categoryId: top.categoryId }, { categoryId: top.categoryId, q: 'FP' }]) {
      // in SKU order from the category's placements, small or not
      const driven = await skus(input);
      expect(driven.length, JSON.stringify(input)).toBeGreaterThan(0);
      expect(pageOf(), JSON.stringify(input)).toContain('product_categories pc CROSS JOIN');
      expect(pageOf(), JSON.stringify(input)).not.toContain(categoryCheck);
      expect(await skus(input, 0)).toEqual(driven);
      expect(pageOf(), JSON.stringify(input)).not.toContain(categoryCheck);
      // in name order, the few products read and sorted, the category not checked again
      const byName = await skus({ ...input, sort: 'name' });
      expect(pageOf(), JSON.stringify(input)).toContain(' h CROSS JOIN ');
      expect(pageOf(), JSON.stringify(input)).not.toContain(categoryCheck);
      expect(await skus({ ...input, sort: 'name' }, 0)).toEqual(byName); // the walk checks the category per product
    }
    // the category drives (4 products, fewer than the 6 without GTIN): the class code stays checked per product
    const both = { classCode: 'EC000042', categoryId: child.categoryId, missing: ['gtin'] };
    const driven = await skus(both);
    expect(pageOf()).toContain(classCheck);
    expect(pageOf()).not.toContain(categoryCheck);
    expect(await skus(both, 0)).toEqual(driven);
    // alone, the class code drives (scanned): its check is left out
    const classOnly = await skus({ classCode: 'EC000042' });
    expect(classOnly.length).toBeGreaterThan(0);
    expect(pageOf()).not.toContain(classCheck);
    expect(await skus({ classCode: 'EC000042' }, 0)).toEqual(classOnly);
  });
});
