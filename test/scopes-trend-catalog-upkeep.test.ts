import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { countCatalogScopeDay, keepCatalogScopeDays } from '../src/completeness/catalog-scope-days';
import { catalogScopeKey } from '../src/db/scope-counts';
import { ago, countedToday, GTIN, moveToday, POLL, scopeDays, setup } from './helpers/catalog-scope-trend';
import { db } from './helpers/factories';
import { postApi as post } from './helpers/http';

/**
 * Who counts a catalog scope's day (docs/teams.md "The trend of a scoped member", migration
 * 0094): the cron's upkeep (`keepCatalogScopeDays`, a few scopes per run, each once a day,
 * dropping the scopes no membership has) and the member's own trend answer (through
 * `waitUntil`, for `wrangler dev` where no cron fires).
 */
describe("the days of a catalog-scoped member's trend", () => {
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
});
