import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  countCatalogScopeDay,
  keepCatalogScopeDays,
  pruneCatalogScopeDaily,
} from '../src/completeness/catalog-scope-days';
import { catalogScopeKey } from '../src/db/scope-counts';
import type { ProductScope } from '../src/kernel/caller';
import { waitForJob } from './helpers/completeness';
import { db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { getApi as get, postApi as post } from './helpers/http';
import { scopedMember } from './helpers/members';
import { send as sendAgent, tokensFor } from './oauth-helpers';

/**
 * The trend of a member whose scope names catalogs day by day (docs/teams.md "The trend of a
 * scoped member", migration 0094): once a day their scope's products are counted (the cron's
 * `keepCatalogScopeDays`, or after their GetCompletenessTrend answer) and stored per channel and
 * language; the trend reads those rows for past days and counts today's point live. A count dates
 * its rows with today (the database's clock): a past day is made by moving a scope's rows back.
 */
interface Point {
  day: string;
  products: number;
  complete: number;
  averageScore: number;
}

/** YYYY-MM-DD of `days` ago (UTC). */
const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const GTIN = ['4006381333931', '4006381333948', '4006381333955', '4006381333962', '4006381333979'] as const;
const POLL = { timeout: 10_000, interval: 50 };

/**
 * A company with two catalogs and a channel on the GTIN. Main holds A-1 (GTIN) in Brand A and
 * M-1 (none) unplaced; Other holds O-1 (GTIN, placed in Other's category) and O-2 (none). The
 * catalog member's scope is Other; the mixed member's is Other with the subtrees of Brand A and
 * of Other's category (O-1 is in both the catalog and a subtree, A-1 in Brand A and its child).
 */
async function setup() {
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
const scopeDays = async (companyId: string, scope: ProductScope) =>
  db().all<{ day: string; scored: number; complete: number; score_sum: number }>(
    sql`SELECT day, scored, complete, score_sum FROM catalog_scope_completeness_daily
      WHERE company_id = ${companyId} AND scope_key = ${catalogScopeKey(scope)} ORDER BY day, channel_key, lang`,
  );

/** A scope's rows (and its counted day) dated today moved to `to`, as if counted that day. */
async function moveToday(companyId: string, scope: ProductScope, to: string) {
  const key = catalogScopeKey(scope);
  await db().run(sql`UPDATE catalog_scope_completeness_daily SET day = ${to}
    WHERE company_id = ${companyId} AND scope_key = ${key} AND day = date('now')`);
  await db().run(sql`UPDATE catalog_scopes SET counted_on = ${to} WHERE company_id = ${companyId} AND key = ${key}`);
}

const countedToday = async () =>
  (await db().all<{ n: number }>(sql`SELECT count(*) AS n FROM catalog_scopes WHERE counted_on = date('now')`))[0]!.n;

describe("a catalog-scoped member's trend", () => {
  it('shows past days from their scope’s stored counts and today’s point counted now, on REST and /api/ai alike', async () => {
    const s = await setup();
    const companyId = s.admin.companyId;
    // counted 3 days ago: O-1 complete, O-2 not
    expect(await countCatalogScopeDay(db(), companyId, s.catalogScope)).toBe(true);
    await moveToday(companyId, s.catalogScope, ago(3));
    // the mixed member's scope counted 2 days ago: O-1, O-2 and A-1
    expect(await countCatalogScopeDay(db(), companyId, s.mixedScope)).toBe(true);
    await moveToday(companyId, s.mixedScope, ago(2));
    // O-2 got its GTIN, counted yesterday
    await s.setGtin(s.o2, GTIN[2]);
    expect(await countCatalogScopeDay(db(), companyId, s.catalogScope)).toBe(true);
    await moveToday(companyId, s.catalogScope, ago(1));
    // today a third product of theirs without a GTIN, and one outside their scope
    await makeProduct(s.admin.tenant, s.other, { sku: 'O-3', name: 'Other three' });
    await makeProduct(s.admin.tenant, s.main, { sku: 'M-2', name: 'Main two', gtin: GTIN[3] });
    // rows that must never be read: another company's under the same key and channel key, another
    // scope's of this company
    const stranger = await makeSession({ role: 'admin' });
    await db().run(sql`INSERT INTO catalog_scopes (company_id, key, counted_on)
      VALUES (${stranger.companyId}, ${catalogScopeKey(s.catalogScope)}, ${ago(2)})`);
    await db().run(sql`INSERT INTO catalog_scope_completeness_daily
        (company_id, scope_key, channel_key, lang, day, scored, complete, score_sum)
      SELECT ${stranger.companyId}, ${catalogScopeKey(s.catalogScope)}, id, 'deu', ${ago(2)}, 50, 0, 0
      FROM channels WHERE channel_id = ${s.channelId}`);

    const expected = [
      { day: ago(3), products: 2, complete: 1, averageScore: 50 },
      { day: ago(2), products: 2, complete: 1, averageScore: 50 },
      { day: ago(1), products: 2, complete: 2, averageScore: 100 },
      { day: ago(0), products: 3, complete: 2, averageScore: 67 },
    ];
    expect(await s.trend(s.member.cookie, 5)).toEqual(expected);
    // a shorter window opens with the state before it; one day is today's point alone
    expect((await s.trend(s.member.cookie, 2)).map((p) => [p.day, p.complete])).toEqual([
      [ago(1), 2],
      [ago(0), 2],
    ]);
    expect(await s.trend(s.member.cookie, 1)).toEqual([expected[3]]);
    // the same through the agent API
    const token = (await tokensFor({ session: s.member.cookie })).access_token;
    const agent = await sendAgent('GET', `/api/ai/GetCompletenessTrend?channel=${s.channelId}&days=5`, { token });
    expect(agent.status, agent.text).toBe(200);
    const rest = await get(s.member.cookie, `Catalog/GetCompletenessTrend?channel=${s.channelId}&days=5`);
    expect(agent.json).toEqual(rest.json);
    expect(agent.json.items[0].points).toEqual(expected);
    // the mixed member reads their own scope's day: O-1, O-2 and A-1 each once (O-1 is in the
    // catalog and a subtree, A-1 in two categories of Brand A)
    expect(await s.trend(s.mixed.cookie, 3)).toEqual([
      { day: ago(2), products: 3, complete: 2, averageScore: 67 },
      { day: ago(1), products: 3, complete: 2, averageScore: 67 },
      { day: ago(0), products: 4, complete: 3, averageScore: 75 },
    ]);
    // the admin's trend is the company's: all of today
    expect(await s.trend(s.admin.cookie, 5)).toEqual([{ day: ago(0), products: 6, complete: 4, averageScore: 67 }]);
  });

  it('counts a scope once a day from the cron, a few scopes per run, each master once', async () => {
    const s = await setup();
    const companyId = s.admin.companyId;
    // one scope per run until none is due (other tests' scopes included)
    for (let run = 0; ; run++) {
      expect(run).toBeLessThan(50);
      const before = await countedToday();
      const counted = await keepCatalogScopeDays(db(), db(), 'cell-1', 1);
      expect(await countedToday()).toBe(before + counted);
      if (counted === 0) break;
      expect(counted).toBe(1);
    }
    expect(await scopeDays(companyId, s.catalogScope)).toEqual([
      { day: ago(0), scored: 2, complete: 1, score_sum: 100 },
    ]);
    expect(await scopeDays(companyId, s.mixedScope)).toEqual([{ day: ago(0), scored: 3, complete: 2, score_sum: 200 }]);
    // a second run the same day counts nothing again: O-2's GTIN shows tomorrow, today's point has it now
    await s.setGtin(s.o2, GTIN[2]);
    expect(await keepCatalogScopeDays(db(), db(), 'cell-1', 10)).toBe(0);
    expect(await countCatalogScopeDay(db(), companyId, s.catalogScope)).toBe(false);
    expect(await scopeDays(companyId, s.catalogScope)).toEqual([
      { day: ago(0), scored: 2, complete: 1, score_sum: 100 },
    ]);
    expect(await s.trend(s.member.cookie, 2)).toEqual([{ day: ago(0), products: 2, complete: 2, averageScore: 100 }]);
    // counted yesterday: the next run counts it again
    await db().run(sql`UPDATE catalog_scopes SET counted_on = ${ago(1)} WHERE company_id = ${companyId}
      AND key = ${catalogScopeKey(s.catalogScope)}`);

    // a scope no membership has any more goes with its days, at the next run
    const changed = await post(s.admin.cookie, 'Account/SetMemberRole', {
      userId: s.mixed.userId,
      role: 'viewer',
      catalogIds: [s.main],
      categoryIds: [],
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await keepCatalogScopeDays(db(), db(), 'cell-1', 10)).toBeGreaterThanOrEqual(2);
    expect(await scopeDays(companyId, s.mixedScope)).toEqual([]);
    const keys = await db().all<{ key: string }>(
      sql`SELECT key FROM catalog_scopes WHERE company_id = ${companyId} ORDER BY key`,
    );
    expect(keys.map((k) => k.key).sort()).toEqual(
      [catalogScopeKey(s.catalogScope), catalogScopeKey({ catalogIds: [s.main], categoryIds: [] })].sort(),
    );
    expect(await scopeDays(companyId, s.catalogScope)).toEqual([
      { day: ago(0), scored: 2, complete: 2, score_sum: 200 },
    ]);
  });

  it('leaves a scope whose count fails without a row for the day, tries it once and counts the others', async () => {
    const s = await setup();
    const companyId = s.admin.companyId;
    const key = catalogScopeKey(s.catalogScope);
    // the count of the catalog member's scope fails (as a D1 limit would)
    await db().run(
      sql.raw(`CREATE TRIGGER test_catalog_scope_day_fails BEFORE INSERT ON catalog_scope_completeness_daily
        WHEN NEW.company_id = '${companyId}' AND NEW.scope_key = '${key}' BEGIN SELECT RAISE(ABORT, 'count failed'); END`),
    );
    try {
      for (let run = 0; (await keepCatalogScopeDays(db(), db(), 'cell-1', 50)) > 0; run++) expect(run).toBeLessThan(10);
      expect(await scopeDays(companyId, s.catalogScope)).toEqual([]);
      expect(await scopeDays(companyId, s.mixedScope)).toEqual([
        { day: ago(0), scored: 3, complete: 2, score_sum: 200 },
      ]);
      const marked = await db().all<{ today: number }>(
        sql`SELECT counted_on = date('now') AS today FROM catalog_scopes WHERE company_id = ${companyId} AND key = ${key}`,
      );
      expect(marked).toEqual([{ today: 1 }]);
      // the day reads as none: today's point only
      expect(await s.trend(s.member.cookie, 3)).toEqual([{ day: ago(0), products: 2, complete: 1, averageScore: 50 }]);
    } finally {
      await db().run(sql`DROP TRIGGER test_catalog_scope_day_fails`);
    }
    // counted again on another day
    await db().run(
      sql`UPDATE catalog_scopes SET counted_on = ${ago(1)} WHERE company_id = ${companyId} AND key = ${key}`,
    );
    expect(await keepCatalogScopeDays(db(), db(), 'cell-1', 50)).toBe(1);
    expect(await scopeDays(companyId, s.catalogScope)).toEqual([
      { day: ago(0), scored: 2, complete: 1, score_sum: 100 },
    ]);
  });

  it("counts today's day after the member's trend answer, once", async () => {
    const s = await setup();
    const companyId = s.admin.companyId;
    expect(await s.trend(s.member.cookie)).toEqual([{ day: ago(0), products: 2, complete: 1, averageScore: 50 }]);
    await expect
      .poll(() => scopeDays(companyId, s.catalogScope), POLL)
      .toEqual([{ day: ago(0), scored: 2, complete: 1, score_sum: 100 }]);
    // the next answer finds today counted: O-2's GTIN is today's point, not a second count
    await s.setGtin(s.o2, GTIN[2]);
    expect(await s.trend(s.member.cookie)).toEqual([{ day: ago(0), products: 2, complete: 2, averageScore: 100 }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await scopeDays(companyId, s.catalogScope)).toEqual([
      { day: ago(0), scored: 2, complete: 1, score_sum: 100 },
    ]);
    // tomorrow that day is a past point
    await moveToday(companyId, s.catalogScope, ago(1));
    expect(await s.trend(s.member.cookie, 2)).toEqual([
      { day: ago(1), products: 2, complete: 1, averageScore: 50 },
      { day: ago(0), products: 2, complete: 2, averageScore: 100 },
    ]);
    await expect
      .poll(() => scopeDays(companyId, s.catalogScope), POLL)
      .toEqual([
        { day: ago(1), scored: 2, complete: 1, score_sum: 100 },
        { day: ago(0), scored: 2, complete: 2, score_sum: 200 },
      ]);
    // the admin's answer counts no scope, nor does it count the mixed member's, who asked nothing
    await s.trend(s.admin.cookie);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const keys = await db().all<{ key: string }>(sql`SELECT key FROM catalog_scopes WHERE company_id = ${companyId}`);
    expect(keys.map((k) => k.key)).toEqual([catalogScopeKey(s.catalogScope)]);
  });

  it("deletes a deleted channel's rows of every scope", async () => {
    const s = await setup();
    const companyId = s.admin.companyId;
    await countCatalogScopeDay(db(), companyId, s.catalogScope);
    await countCatalogScopeDay(db(), companyId, s.mixedScope);
    expect(await scopeDays(companyId, s.catalogScope)).toHaveLength(1);
    const del = await post(s.admin.cookie, 'Catalog/DeleteChannel', { channelId: s.channelId });
    expect(del.status, del.text).toBe(200);
    expect((await waitForJob(s.admin.cookie, del.json.jobId)).state).toBe('succeeded');
    expect(await scopeDays(companyId, s.catalogScope)).toEqual([]);
    expect(await scopeDays(companyId, s.mixedScope)).toEqual([]);
  });

  it('prunes the days no window reads, keeping the state the longest window opens with', async () => {
    const s = await setup();
    const companyId = s.admin.companyId;
    await countCatalogScopeDay(db(), companyId, s.catalogScope);
    await countCatalogScopeDay(db(), companyId, s.mixedScope);
    for (const scope of [s.catalogScope, s.mixedScope])
      for (const [daysAgo, scored] of [
        [200, 1],
        [150, 2],
        [100, 3],
        [10, 4],
      ] as const)
        await db().run(sql`INSERT INTO catalog_scope_completeness_daily
            (company_id, scope_key, channel_key, lang, day, scored, complete, score_sum)
          SELECT ${companyId}, ${catalogScopeKey(scope)}, id, 'deu', ${ago(daysAgo)}, ${scored}, 0, 0
          FROM channels WHERE channel_id = ${s.channelId}`);
    const before = await s.trend(s.member.cookie, 90);
    expect(before[0]).toEqual({ day: ago(89), products: 3, complete: 0, averageScore: 0 });
    expect(before[80]).toEqual({ day: ago(9), products: 4, complete: 0, averageScore: 0 });

    expect(await pruneCatalogScopeDaily(db())).toBeGreaterThanOrEqual(4);
    for (const scope of [s.catalogScope, s.mixedScope])
      expect((await scopeDays(companyId, scope)).map((r) => r.day)).toEqual([ago(100), ago(10), ago(0)]);
    expect(await s.trend(s.member.cookie, 90)).toEqual(before);
    expect(await pruneCatalogScopeDaily(db())).toBe(0);
  });
});
