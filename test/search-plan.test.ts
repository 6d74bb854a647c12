import { describe, expect, it } from 'vitest';
import { listProducts } from '../src/catalog/product-list';
import { planSearch } from '../src/catalog/search-plan';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';

/**
 * Search plans (src/catalog/search-plan.ts, docs/search.md): with a small rank limit, a word
 * every product has is "common" and the plans switch exactly as they do on a million products.
 */
async function catalogOfSwitches() {
  const session = await makeSession();
  const catalog = await makeCatalog(session);
  // Every product has "Schalter" and "Typ"; the numbers are rare. Created out of SKU order.
  for (const n of [7, 3, 12, 5, 1, 70])
    await makeProduct(session, catalog.catalogId, {
      sku: `SW-${String(n).padStart(3, '0')}`,
      name: `Schalter Typ ${n}`,
    });
  const list = (q: string, extra: Record<string, unknown> = {}, rankLimit = 3) =>
    listProducts(db(), session, { catalogId: catalog.catalogId, q, limit: 50, ...extra }, { rankLimit });
  const skus = async (q: string, extra: Record<string, unknown> = {}, rankLimit = 3) =>
    (await list(q, extra, rankLimit)).items.map((p) => p.sku);
  return { session, catalog, list, skus };
}

describe('search plans', () => {
  it('matches a common whole word exactly and a rare word as a prefix', async () => {
    await catalogOfSwitches();
    const plan = await planSearch(db(), 'Typ 7', 3);
    expect(plan).not.toBeNull();
    // "Typ" is in every product here (more than 3): whole word, checked per candidate.
    expect(plan!.checks).toContain('"Typ"');
    expect(plan!.match).toContain('"7"*');
    expect(plan!.selective).toBe(true);
  });

  it('answers a common word plus a rare one from the rare one, ranked, with the same results as one MATCH', async () => {
    const { skus } = await catalogOfSwitches();
    expect((await skus('Typ 7')).sort()).toEqual(['SW-007', 'SW-070']);
    expect(await skus('Typ 12')).toEqual(['SW-012']);
    expect(await skus('schalter typ 5')).toEqual(['SW-005']);
    expect(await skus('Typ 7', {}, 5000)).toEqual(await skus('Typ 7'));
    expect(await skus('Typ 7', { sort: 'sku', order: 'desc' })).toEqual(['SW-070', 'SW-007']);
    expect(await skus('Typ 99')).toEqual([]);
  });

  it('lists a broad search in index order and honours an explicit sort, through every page', async () => {
    const { list, skus } = await catalogOfSwitches();
    expect(await skus('schalter')).toEqual(['SW-007', 'SW-003', 'SW-012', 'SW-005', 'SW-001', 'SW-070']);
    expect(await skus('Schalter typ', { sort: 'sku' })).toEqual([
      'SW-001',
      'SW-003',
      'SW-005',
      'SW-007',
      'SW-012',
      'SW-070',
    ]);
    for (const extra of [{}, { sort: 'name', order: 'desc' }]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await list('typ', { ...extra, limit: 4, cursor });
        seen.push(...page.items.map((p) => p.sku!));
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(new Set(seen).size, JSON.stringify(extra)).toBe(6);
    }
    // A prefix of a common word that is not itself a word stays a prefix (merged once).
    expect(await skus('schal', { sort: 'sku' })).toHaveLength(6);
    expect(await skus('schal 12')).toEqual(['SW-012']);
  });

  it('refuses a cursor of the index order for another order', async () => {
    const { list } = await catalogOfSwitches();
    const first = await list('schalter', { limit: 2 });
    expect(first.nextCursor).not.toBeNull();
    await expect(list('schalter', { limit: 2, sort: 'sku', cursor: first.nextCursor })).rejects.toThrow(
      'cursor belongs to another sort order',
    );
  });
});
