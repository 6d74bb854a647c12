import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0094 (the trend of a catalog-scoped member, docs/teams.md "The trend of a scoped
 * member"): `catalog_scopes` and their daily rows, which go with their scope (foreign key) and
 * cannot exist without it, and the index the cron reads the catalog-naming memberships by.
 */
describe('migration 0094: catalog_scopes and their days', () => {
  it('deletes a scope’s days with it, refuses a day without its scope and reads catalog scopes by the index', async () => {
    const { db, apply } = await migratedUpTo('0094_');
    const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
    await apply();
    const plan = (
      await run(
        `EXPLAIN QUERY PLAN SELECT DISTINCT company_id, user_id FROM membership_scopes WHERE kind = 'catalog'`,
      ).all<{
        detail: string;
      }>()
    ).results.map((r) => r.detail);
    expect(plan.join('\n')).toContain('membership_scopes_kind_idx');

    const day = (key: string, d: string) =>
      run(
        `INSERT INTO catalog_scope_completeness_daily (company_id, scope_key, channel_key, lang, day, scored, complete, score_sum)
          VALUES ('c94', ?, 7, 'deu', ?, 2, 1, 100)`,
        key,
        d,
      );
    // a day without its scope is refused
    await expect(day('k1|', '2026-01-01').run()).rejects.toThrow(/FOREIGN KEY/);
    await db.batch([
      run(`INSERT INTO catalog_scopes (company_id, key, counted_on) VALUES ('c94', 'k1|', '2026-01-02')`),
      run(`INSERT INTO catalog_scopes (company_id, key, counted_on) VALUES ('c94', 'k2|', '2026-01-02')`),
      day('k1|', '2026-01-01'),
      day('k1|', '2026-01-02'),
      day('k2|', '2026-01-02'),
    ]);
    await run(`DELETE FROM catalog_scopes WHERE company_id = 'c94' AND key = 'k1|'`).run();
    expect(
      (await run(`SELECT scope_key, day FROM catalog_scope_completeness_daily ORDER BY scope_key, day`).all()).results,
    ).toEqual([{ scope_key: 'k2|', day: '2026-01-02' }]);
  });
});
