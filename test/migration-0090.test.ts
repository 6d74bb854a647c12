import { describe, expect, it } from 'vitest';
import { migratedUpTo } from './helpers/migrations';

/**
 * Migration 0090 (the trend of a category-scoped member, docs/teams.md "The trend of a scoped
 * member"): `scope_set_completeness_daily` starts with today's row of every set counted and up to
 * date, from its counters; later changes of the counters keep today's row; a set's rows go with it.
 */
describe('migration 0090: scope_set_completeness_daily', () => {
  it("writes today's row of each kept set, keeps it from the counters and drops it with the set", async () => {
    const { db, apply } = await migratedUpTo('0090_');
    const run = (sql: string, ...args: unknown[]) => db.prepare(sql).bind(...args);
    const counter = (set: number, item: string, n: number) =>
      run(
        `INSERT INTO scope_set_completeness (set_id, channel_key, lang, item, n) VALUES (?, 7, 'deu', ?, ?)`,
        set,
        item,
        n,
      );
    await db.batch([
      run(`INSERT INTO companies (id, name) VALUES ('c90', 'Kabel GmbH')`),
      run(`INSERT INTO scope_sets (id, company_id, key, built, stale) VALUES (1, 'c90', 'a', 1, 0)`),
      // out of date after a category move: its count gives it its row
      run(`INSERT INTO scope_sets (id, company_id, key, built, stale) VALUES (2, 'c90', 'b', 1, 3)`),
      counter(1, '', 3),
      counter(1, '#complete', 1),
      counter(1, '#score', 150),
      counter(1, 'gtin', 2),
      counter(1, '#variants', 4),
      counter(2, '', 5),
    ]);
    await apply();
    const days = async () =>
      (
        await run(
          `SELECT set_id, day = date('now') AS today, scored, complete, score_sum FROM scope_set_completeness_daily ORDER BY set_id`,
        ).all()
      ).results;
    expect(await days()).toEqual([{ set_id: 1, today: 1, scored: 3, complete: 1, score_sum: 150 }]);
    await run(`UPDATE scope_set_completeness SET n = n + 1 WHERE set_id = 1 AND item = '#complete'`).run();
    await run(`UPDATE scope_set_completeness SET n = n + 50 WHERE set_id = 2 AND item = ''`).run();
    // a missing label or a variant item changes no day row
    await run(`UPDATE scope_set_completeness SET n = 0 WHERE item IN ('gtin', '#variants')`).run();
    expect(await days()).toEqual([
      { set_id: 1, today: 1, scored: 3, complete: 2, score_sum: 150 },
      { set_id: 2, today: 1, scored: 55, complete: 0, score_sum: 0 },
    ]);
    await run(`DELETE FROM scope_sets WHERE id = 1`).run();
    expect(await days()).toEqual([{ set_id: 2, today: 1, scored: 55, complete: 0, score_sum: 0 }]);
  });
});
