import { and, eq, sql } from 'drizzle-orm';
import { chunkForInsert, type Database, runBatch } from '../db/client';
import { catalogScopeCompletenessDaily, catalogScopes, channels } from '../db/schema';
import { catalogScopeKey, countedCompletenessCounts } from '../db/scope-counts';
import type { ProductScope } from '../kernel/caller';
import { pruneDailyRows } from './completeness-trend';

/**
 * The past days of the trend of a member whose scope names catalogs (docs/teams.md "The trend of
 * a scoped member", migration 0094). Such a scope has no counters of its own (none are kept on
 * score writes: docs/teams.md says why), so once a day its products are counted the way that
 * member's today's point counts them (`countedCompletenessCounts`: the catalogs' masters and
 * those placed in its subtrees, each master once) and the day's figures are stored per channel
 * and language (`catalog_scope_completeness_daily`). Two triggers make the count: the cron's
 * minute tick (`keepCatalogScopeDays`, a few scopes per run) and, because Cron Triggers do not
 * fire under `wrangler dev`, the member's own GetCompletenessTrend answer (`countCatalogScopeDay`
 * through `waitUntil`). A day's row is what was counted that day: the placements and the scope as
 * they were then.
 */

/** Scopes counted per cron run and cell: each count reads the scope's masters and score rows once. */
export const SCOPES_PER_RUN = 2;

/**
 * Counts `scope`'s products and stores today's rows, unless today's count is stored already
 * (one primary-key read; a second call the same day counts nothing). Returns whether it counted.
 * Two calls at once both count and store the same figures (the rows are replaced).
 */
export async function countCatalogScopeDay(db: Database, companyId: string, scope: ProductScope): Promise<boolean> {
  if (!scope.catalogIds.length) return false;
  const key = catalogScopeKey(scope);
  const [done] = await db.all<{ done: number }>(sql`SELECT 1 AS done FROM catalog_scopes
    WHERE company_id = ${companyId} AND key = ${key} AND counted_on = date('now')`);
  if (done) return false;
  const counts = await countedCompletenessCounts(db, companyId, scope, { totalsOnly: true });
  const figures = new Map<string, { scored: number; complete: number; sum: number }>();
  for (const r of counts) {
    const k = `${r.channelKey}\t${r.lang}`;
    const f = figures.get(k) ?? { scored: 0, complete: 0, sum: 0 };
    if (r.item === '') f.scored = Number(r.n);
    else if (r.item === '#complete') f.complete = Number(r.n);
    else if (r.item === '#score') f.sum = Number(r.n);
    figures.set(k, f);
  }
  const list = await db
    .select({ key: channels.id, languages: channels.languages })
    .from(channels)
    .where(eq(channels.companyId, companyId));
  const today = sql`date('now')`;
  const rows = list.flatMap((c) =>
    c.languages.map((lang) => {
      const f = figures.get(`${c.key}\t${lang}`);
      return {
        companyId,
        scopeKey: key,
        channelKey: c.key,
        lang,
        day: today,
        scored: f?.scored ?? 0,
        complete: f?.complete ?? 0,
        scoreSum: f?.sum ?? 0,
      };
    }),
  );
  const days = catalogScopeCompletenessDaily;
  // one transaction: the scope's day and its rows, a row for every channel and language the
  // company has (0 where the scope has no scores, so the day reads 0, not the day before); the
  // last statement drops the rows of a channel deleted since the read (DeleteChannel's job may
  // have deleted its rows already)
  await runBatch(db, [
    db
      .insert(catalogScopes)
      .values({ companyId, key, countedOn: today })
      .onConflictDoUpdate({ target: [catalogScopes.companyId, catalogScopes.key], set: { countedOn: today } }),
    ...chunkForInsert(rows, 8).map((chunk) =>
      db
        .insert(days)
        .values(chunk)
        .onConflictDoUpdate({
          target: [days.companyId, days.scopeKey, days.channelKey, days.lang, days.day],
          set: {
            scored: sql`excluded.scored`,
            complete: sql`excluded.complete`,
            scoreSum: sql`excluded.score_sum`,
          },
        }),
    ),
    db
      .delete(days)
      .where(
        and(
          eq(days.companyId, companyId),
          eq(days.scopeKey, key),
          sql`${days.channelKey} NOT IN (SELECT id FROM channels WHERE company_id = ${companyId})`,
        ),
      ),
  ]);
  return true;
}

/** The product scope a membership's stored scopes give, keyed by `catalogScopeKey`. */
interface ActiveScope {
  companyId: string;
  key: string;
  scope: ProductScope;
}

/**
 * The distinct scopes naming catalogs of the active memberships of the companies living in
 * `cell`, read from `directory` (where memberships live; a range of `membership_scopes_kind_idx`
 * and primary-key reads per member). Sorted by company and key, so successive runs go on where
 * the last one stopped.
 */
async function activeCatalogScopes(directory: Database, cell: string): Promise<ActiveScope[]> {
  const rows = await directory.all<{ companyId: string; scope: string }>(sql`
    SELECT s.company_id AS companyId, (SELECT json_group_array(json_array(x.kind, x.value)) FROM membership_scopes x
        WHERE x.company_id = s.company_id AND x.user_id = s.user_id AND x.kind IN ('catalog', 'category')) AS scope
      FROM (SELECT DISTINCT company_id, user_id FROM membership_scopes WHERE kind = 'catalog') s
      JOIN memberships m ON m.user_id = s.user_id AND m.company_id = s.company_id
      WHERE coalesce((SELECT c.cell FROM company_cells c WHERE c.company_id = s.company_id), 'cell-1') = ${cell}`);
  const byKey = new Map<string, ActiveScope>();
  for (const { companyId, scope } of rows) {
    const pairs = JSON.parse(scope) as [string, string][];
    const of = (kind: string) => pairs.filter(([k]) => k === kind).map(([, v]) => v);
    const productScope = { catalogIds: of('catalog'), categoryIds: of('category') };
    const key = catalogScopeKey(productScope);
    byKey.set(`${companyId}\t${key}`, { companyId, key, scope: productScope });
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
}

/**
 * The cron's upkeep of the catalog scopes' days in one cell (every minute, src/scheduled.ts):
 * deletes the scopes no active membership has any more (their days by the foreign key) and counts
 * today's rows of at most `limit` scopes whose today is missing; the rest come in the next runs.
 * A scope counted today costs nothing more that day. Returns the scopes counted.
 */
export async function keepCatalogScopeDays(
  directory: Database,
  db: Database,
  cell: string,
  limit = SCOPES_PER_RUN,
): Promise<number> {
  const active = await activeCatalogScopes(directory, cell);
  const stored = await db.all<{ companyId: string; key: string; today: number }>(
    sql`SELECT company_id AS companyId, key, counted_on = date('now') AS today FROM catalog_scopes`,
  );
  const activeKeys = new Set(active.map((s) => `${s.companyId}\t${s.key}`));
  const gone = stored.filter((s) => !activeKeys.has(`${s.companyId}\t${s.key}`));
  if (gone.length)
    await db.run(sql`DELETE FROM catalog_scopes WHERE (company_id, key) IN (SELECT value ->> 0, value ->> 1
      FROM json_each(${JSON.stringify(gone.map((s) => [s.companyId, s.key]))}))`);
  const countedToday = new Set(stored.filter((s) => s.today).map((s) => `${s.companyId}\t${s.key}`));
  let counted = 0;
  for (const s of active) {
    if (counted >= limit) break;
    if (countedToday.has(`${s.companyId}\t${s.key}`)) continue;
    try {
      if (await countCatalogScopeDay(db, s.companyId, s.scope)) counted++;
    } catch (err) {
      // a count that fails (e.g. a D1 limit on a very large scope) is not tried again every
      // minute, nor does it stop the other scopes: its day stays without a row (it reads as the
      // day before) and is counted again tomorrow
      console.error(JSON.stringify({ event: 'catalog_scope_day_failed', companyId: s.companyId, detail: String(err) }));
      await markCounted(db, s.companyId, s.key);
      counted++;
    }
  }
  return counted;
}

/** Today counted for the scope, without rows: a failed count is not tried again today by the cron. */
async function markCounted(db: Database, companyId: string, key: string): Promise<void> {
  await db.run(sql`INSERT INTO catalog_scopes (company_id, key, counted_on) VALUES (${companyId}, ${key}, date('now'))
    ON CONFLICT (company_id, key) DO UPDATE SET counted_on = excluded.counted_on`);
}

/** The catalog scopes' daily rows (migration 0094) no window reads any more. */
export const pruneCatalogScopeDaily = (db: Database, limit?: number) =>
  pruneDailyRows(db, 'catalog_scope_completeness_daily', ['company_id', 'scope_key', 'channel_key', 'lang'], limit);
