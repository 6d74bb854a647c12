import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { catalogScopeKey } from '../../src/db/scope-counts';
import type { ProductScope } from '../../src/kernel/caller';
import { waitForJob } from './completeness';
import { db, makeCatalog, makeCategory, makeProduct, makeSession } from './factories';
import { getApi as get, postApi as post } from './http';
import { scopedMember } from './members';

/**
 * The company of the catalog-scoped trend tests (test/scopes-trend-catalog*.test.ts, migration
 * 0094) and reads of its scopes' stored days. A count dates its rows with today (the database's
 * clock): a past day is made by moving a scope's rows back (`moveToday`).
 */
export interface Point {
  day: string;
  products: number;
  complete: number;
  averageScore: number;
}

/** YYYY-MM-DD of `days` ago (UTC). */
export const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
export const GTIN = ['4006381333931', '4006381333948', '4006381333955', '4006381333962', '4006381333979'] as const;
export const POLL = { timeout: 10_000, interval: 50 };

/**
 * A company with two catalogs and a channel on the GTIN. Main holds A-1 (GTIN) in Brand A and
 * M-1 (none) unplaced; Other holds O-1 (GTIN, placed in Other's category) and O-2 (none). The
 * catalog member's scope is Other; the mixed member's is Other with the subtrees of Brand A and
 * of Other's category (O-1 is in both the catalog and a subtree, A-1 in Brand A and its child).
 */
export async function setup() {
  const admin = await makeSession({ role: 'admin' });
  const company = { companyId: admin.companyId, departmentId: admin.departmentId };
  const t = admin.tenant;
  const main = (await makeCatalog(t, { name: 'Main' })).catalogId;
  const other = (await makeCatalog(t, { name: 'Other' })).catalogId;
  const brandA = (await makeCategory(t, main, { name: 'Brand A' })).categoryId;
  const lines = (await makeCategory(t, main, { name: 'A lines', parentId: brandA })).categoryId;
  const otherCat = (await makeCategory(t, other, { name: 'Other lines' })).categoryId;
  await makeProduct(t, main, { sku: 'A-1', name: 'A one', categoryIds: [brandA, lines], gtin: GTIN[0] });
  await makeProduct(t, main, { sku: 'M-1', name: 'Main one' });
  await makeProduct(t, other, { sku: 'O-1', name: 'Other one', categoryIds: [otherCat], gtin: GTIN[1] });
  const o2 = (await makeProduct(t, other, { sku: 'O-2', name: 'Other two' })).productId;
  const added = await post(admin.cookie, 'Catalog/AddChannel', {
    name: 'Gtin shop',
    languages: ['deu'],
    requirements: [{ kind: 'field', field: 'gtin' }],
  });
  expect(added.status, added.text).toBe(200);
  expect((await waitForJob(admin.cookie, added.json.jobId)).state).toBe('succeeded');
  const channelId = added.json.channelId as string;
  const catalogScope: ProductScope = { catalogIds: [other], categoryIds: [] };
  const mixedScope: ProductScope = { catalogIds: [other], categoryIds: [otherCat, brandA] };
  const member = await scopedMember(admin.cookie, company, 'viewer', { catalogIds: [other] });
  const mixed = await scopedMember(admin.cookie, company, 'viewer', {
    catalogIds: [other],
    categoryIds: [otherCat, brandA],
  });
  const trend = async (cookie: string, days = 7) => {
    const res = await get(cookie, `Catalog/GetCompletenessTrend?channel=${channelId}&days=${days}`);
    expect(res.status, res.text).toBe(200);
    return res.json.items[0].points as Point[];
  };
  const setGtin = async (productId: string, gtin: string) => {
    const res = await post(admin.cookie, 'Catalog/SetValue', {
      departmentId: admin.departmentId,
      elementId: productId,
      field: 'gtin',
      value: gtin,
    });
    expect(res.status, res.text).toBe(200);
  };
  return { admin, main, other, brandA, o2, channelId, catalogScope, mixedScope, member, mixed, trend, setGtin };
}

/** The stored days of a scope of the company: day, scored, complete, score sum. */
export const scopeDays = async (companyId: string, scope: ProductScope) =>
  db().all<{ day: string; scored: number; complete: number; score_sum: number }>(
    sql`SELECT day, scored, complete, score_sum FROM catalog_scope_completeness_daily
      WHERE company_id = ${companyId} AND scope_key = ${catalogScopeKey(scope)} ORDER BY day, channel_key, lang`,
  );

/** A scope's rows (and its counted day) dated today moved to `to`, as if counted that day. */
export async function moveToday(companyId: string, scope: ProductScope, to: string) {
  const key = catalogScopeKey(scope);
  await db().run(sql`UPDATE catalog_scope_completeness_daily SET day = ${to}
    WHERE company_id = ${companyId} AND scope_key = ${key} AND day = date('now')`);
  await db().run(sql`UPDATE catalog_scopes SET counted_on = ${to} WHERE company_id = ${companyId} AND key = ${key}`);
}

export const countedToday = async () =>
  (await db().all<{ n: number }>(sql`SELECT count(*) AS n FROM catalog_scopes WHERE counted_on = date('now')`))[0]!.n;
