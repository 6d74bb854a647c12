import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { scopedCatalogCounts, scopedCategoryCounts, scopedCompletenessCounts } from '../src/db/scope-counts';
import type { Caller } from '../src/kernel/caller';
import { asActor, db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { countingDb } from './helpers/round-trips';

/**
 * A scoped member's counts read their set's kept counters in the statement that finds the set
 * (docs/teams.md "Counts"): one round trip for a kept set; a set not made yet or out of date is
 * made or counted first, with the same counts.
 */
describe("a scoped member's kept counts", () => {
  it('are read in one statement when the set is kept, and counted first when it is not', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const brand = await makeCategory(session, catalog.catalogId, { name: 'Brand' });
    const lines = await makeCategory(session, catalog.catalogId, { name: 'Lines', parentId: brand.categoryId });
    const other = await makeCategory(session, catalog.catalogId, { name: 'Other' });
    const inside = await makeProduct(session, catalog.catalogId, { sku: 'IN-1', categoryIds: [lines.categoryId] });
    await makeProduct(session, catalog.catalogId, { sku: 'IN-1-V', parentId: inside.productId });
    await makeProduct(session, catalog.catalogId, { sku: 'IN-2', categoryIds: [brand.categoryId, other.categoryId] });
    await makeProduct(session, catalog.catalogId, { sku: 'OUT-1', categoryIds: [other.categoryId] });
    const member: Caller = {
      ...asActor(session),
      productScope: { catalogIds: [], categoryIds: [brand.categoryId] },
    };
    const read = async () => {
      const counting = countingDb();
      const catalogs = await scopedCatalogCounts(counting.db, member);
      const categories = await scopedCategoryCounts(counting.db, member, catalog.catalogId);
      const completeness = await scopedCompletenessCounts(counting.db, member);
      return {
        counts: {
          catalogs: Object.fromEntries(catalogs!),
          categories: Object.fromEntries(categories!),
          completeness,
        },
        trips: counting.trips(),
      };
    };
    const expected = {
      catalogs: { [catalog.catalogId]: 3 },
      categories: { [brand.categoryId]: 1, [lines.categoryId]: 1, [other.categoryId]: 1 },
      completeness: [],
    };
    // no set yet: made and counted by the first read (more statements), the same counts
    const first = await read();
    expect(first.counts).toEqual(expected);
    expect(first.trips).toBeGreaterThan(3);
    // kept: one statement each
    const kept = await read();
    expect(kept).toEqual({ counts: expected, trips: 3 });
    // out of date (a category move marks it): counted again first, exact
    await db().run(sql`UPDATE scope_sets SET stale = 3 WHERE company_id = ${session.companyId}`);
    const stale = await read();
    expect(stale.counts).toEqual(expected);
    expect(stale.trips).toBeGreaterThan(3);
    expect((await read()).trips).toBe(3);
  });
});
