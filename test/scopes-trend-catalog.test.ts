import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { countCatalogScopeDay, pruneCatalogScopeDaily } from '../src/completeness/catalog-scope-days';
import { catalogScopeKey } from '../src/db/scope-counts';
import { ago, GTIN, moveToday, scopeDays, setup } from './helpers/catalog-scope-trend';
import { waitForJob } from './helpers/completeness';
import { db, makeProduct, makeSession } from './helpers/factories';
import { getApi as get, postApi as post } from './helpers/http';
import { send as sendAgent, tokensFor } from './oauth-helpers';

/**
 * The trend of a member whose scope names catalogs day by day (docs/teams.md "The trend of a
 * scoped member", migration 0094): the trend reads their scope's stored days (counted once a day,
 * here by the job, moved back to make past days) and counts today's point live; a deleted
 * channel's rows and the days no window reads go. The upkeep that counts the days (the cron and
 * the trend's after-answer): test/scopes-trend-catalog-upkeep.test.ts.
 */
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
