import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { channels } from '../db/schema';
import { catalogScopeKey, scopeSetId } from '../db/scope-counts';
import { badRequest } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { LANGUAGE_CODE } from '../kernel/code-rules';
import { findChannelByIdOrName } from './incomplete-products';
import { getCompletenessOverview } from './completeness-read';

/**
 * How completeness moved (`GET Catalog/GetCompletenessTrend`, docs/completeness.md "History"):
 * per channel and language one point per UTC day of the window, read from `completeness_daily`
 * (migration 0027), which the counter triggers keep in each write's own transaction: the read is
 * one range of that table's key per channel and language, never a scan of scores. A member
 * limited to category subtrees reads their scope set's rows instead
 * (`scope_set_completeness_daily`, migration 0090, kept by triggers on the set's counters in the
 * same transaction): their products only, from the day the set was first counted. A member whose
 * scope names catalogs reads the days their scope was counted (`catalog_scope_completeness_daily`,
 * migration 0094, counted once a day: catalog-scope-days.ts) and today's point counted now.
 *
 * A day without a row had no write: it reads as the last day before it (the state did not
 * change). The series starts at the first day with a known state, so a channel defined last
 * week has a week of points.
 */
export const TrendQuery = z.strictObject({
  /** The channel's id or name; default every channel of the company. */
  channel: z.string().trim().min(1).max(100).optional(),
  /** Only this language (ISO 639-2); default every language of the channel. */
  language: z.string().regex(LANGUAGE_CODE, 'language must be an ISO 639-2 code such as eng').optional(),
  /** The window in days, today included (1 to TREND_MAX_DAYS). */
  days: z.coerce.number().int().min(1).max(90).default(30),
});
export type TrendInput = z.infer<typeof TrendQuery>;

const Point = z.object({
  day: z.string(),
  products: z.number().int(),
  complete: z.number().int(),
  averageScore: z.number().int(),
});

export const CompletenessTrendOut = z.object({
  /** The window, first and last UTC day (YYYY-MM-DD). */
  from: z.string(),
  to: z.string(),
  items: z.array(z.object({ channelId: z.string(), name: z.string(), language: z.string(), points: z.array(Point) })),
});
type Out = z.infer<typeof CompletenessTrendOut>;

/** The days from `from` to `to` (YYYY-MM-DD, UTC), both included. */
function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export async function getCompletenessTrend(db: Database, caller: Caller, input: TrendInput): Promise<Out> {
  const only = input.channel ? await findChannelByIdOrName(db, caller, input.channel) : null;
  // the database's clock, the one the triggers date their rows with
  const [window] = await db.all<{ to: string; from: string }>(
    sql`SELECT date('now') AS "to", date('now', ${`-${input.days - 1} days`}) AS "from"`,
  );
  const { from, to } = window!;
  const list = await db
    .select({ key: channels.id, channelId: channels.channelId, name: channels.name, languages: channels.languages })
    .from(channels)
    .where(and(eq(channels.companyId, caller.companyId), only ? eq(channels.id, only.id) : undefined))
    .orderBy(asc(channels.name), asc(channels.id));
  if (!list.length) return { from, to, items: [] };
  if (only && input.language && !list[0]!.languages.includes(input.language))
    throw badRequest(`language: the channel ${only.name} does not publish ${input.language}`);
  const scope = caller.productScope;
  if (scope?.catalogIds.length) {
    // the scope's stored days before today (migration 0094), today's point counted now
    const past = daysBetween(from, to).slice(0, -1);
    const source = sql`catalog_scope_completeness_daily WHERE company_id = ${caller.companyId}
      AND scope_key = ${catalogScopeKey(scope)} AND day < ${to} AND`;
    const rows = past.length ? await dailyRows(db, source, list, input.language, from) : new Map();
    const overview = await getCompletenessOverview(db, caller);
    return { from, to, items: withTodaysPoint(series(list, input, rows, past), overview, to) };
  }
  // a scope of category subtrees reads its set's days (migration 0090), everyone else the company's
  const setId = scope ? await scopeSetId(db, caller.companyId, scope) : null;
  const source =
    setId === null ? sql`completeness_daily WHERE` : sql`scope_set_completeness_daily WHERE set_id = ${setId} AND`;
  const rows = await dailyRows(db, source, list, input.language, from);
  return { from, to, items: series(list, input, rows, daysBetween(from, to)) };
}

type DailyRow = { channelKey: number; lang: string; day: string; scored: number; complete: number; scoreSum: number };

/**
 * The daily rows of the channels in the window and, per channel and language, the last row
 * before it (the state the window opens with, dated `from`): of the company
 * (`completeness_daily`), of one scope set (`scope_set_completeness_daily`) or of one catalog
 * scope (`catalog_scope_completeness_daily`). `source` is the table and its key's prefix, ending
 * in `WHERE` or `AND`. One statement, ranges of the table's primary key per channel and language.
 */
async function dailyRows(
  db: Database,
  source: SQL,
  list: { key: number }[],
  language: string | undefined,
  from: string,
): Promise<Map<string, Map<string, DailyRow>>> {
  const where = sql`${source} channel_key IN (SELECT value FROM json_each(${JSON.stringify(list.map((c) => c.key))}))
    ${language ? sql`AND lang = ${language}` : sql``}`;
  // SQLite takes the bare columns of a max() aggregate from the row holding the max
  const rows = await db.all<DailyRow>(sql`
    SELECT channel_key AS channelKey, lang, day, scored, complete, score_sum AS scoreSum FROM ${where} AND day > ${from}
    UNION ALL SELECT channel_key, lang, max(day), scored, complete, score_sum FROM ${where} AND day <= ${from}
      GROUP BY channel_key, lang`);
  const byKey = new Map<string, Map<string, DailyRow>>();
  for (const r of rows) {
    const k = `${r.channelKey}\t${r.lang}`;
    if (!byKey.has(k)) byKey.set(k, new Map());
    byKey.get(k)!.set(r.day < from ? from : r.day, r);
  }
  return byKey;
}

/** Per channel and language one point per day of `days`: a day without a row reads as the day before it. */
function series(
  list: { key: number; channelId: string; name: string; languages: string[] }[],
  input: TrendInput,
  byKey: Map<string, Map<string, DailyRow>>,
  days: string[],
): Out['items'] {
  const items: Out['items'] = [];
  for (const c of list) {
    for (const language of c.languages) {
      if (input.language && language !== input.language) continue;
      const rows = byKey.get(`${c.key}\t${language}`);
      const points: z.infer<typeof Point>[] = [];
      let last: DailyRow | undefined;
      for (const day of days) {
        last = rows?.get(day) ?? last;
        if (!last) continue;
        const averageScore = last.scored > 0 ? Math.round(last.scoreSum / last.scored) : 100;
        points.push({ day, products: last.scored, complete: last.complete, averageScore });
      }
      items.push({ channelId: c.channelId, name: c.name, language, points });
    }
  }
  return items;
}

/**
 * Today's point of a member whose scope names catalogs appended to their stored days
 * (`catalog-scope-days.ts`): counted now from their products (the overview's counts), as the
 * stored days were counted on theirs.
 */
function withTodaysPoint(
  items: Out['items'],
  overview: Awaited<ReturnType<typeof getCompletenessOverview>>,
  today: string,
): Out['items'] {
  return items.map((item) => {
    const now = overview.items.find((i) => i.channelId === item.channelId && i.language === item.language);
    if (!now) return item;
    const point = { day: today, products: now.products, complete: now.complete, averageScore: now.averageScore };
    return { ...item, points: [...item.points, point] };
  });
}

/** The longest window a trend reads (TrendQuery `days`). */
export const TREND_MAX_DAYS = 90;

/**
 * Deletes the daily rows of `table` no trend window reads any more (the Cron Trigger's hourly
 * prune): per series (`keys`, the table's key columns before `day`) those older than the longest
 * window, except the newest of them, which is the state a window starting after it begins from
 * when no write came since. At most `limit` rows per run; a year of one series is 365 rows.
 */
export async function pruneDailyRows(db: Database, table: string, keys: string[], limit = 5000): Promise<number> {
  const cutoff = sql`date('now', ${`-${TREND_MAX_DAYS - 1} days`})`;
  const t = sql.raw(table);
  const same = sql.raw(keys.map((k) => `n.${k} = d.${k}`).join(' AND '));
  const result = await db.run(sql`DELETE FROM ${t} WHERE (${sql.raw(keys.join(', '))}, day) IN (
    SELECT ${sql.raw(keys.map((k) => `d.${k}`).join(', '))}, d.day FROM ${t} d WHERE d.day < ${cutoff}
      AND d.day < (SELECT max(n.day) FROM ${t} n WHERE ${same} AND n.day < ${cutoff})
    LIMIT ${limit})`);
  return result.meta.changes ?? 0;
}

/** The company's daily rows (`completeness_daily`) no window reads any more. */
export const pruneCompletenessDaily = (db: Database, limit?: number) =>
  pruneDailyRows(db, 'completeness_daily', ['channel_key', 'lang'], limit);

/** The scope sets' daily rows (migration 0090) no window reads any more. */
export const pruneScopeSetDaily = (db: Database, limit?: number) =>
  pruneDailyRows(db, 'scope_set_completeness_daily', ['set_id', 'channel_key', 'lang'], limit);
