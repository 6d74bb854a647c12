import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from './client';
import { completenessEventsFlushStatements } from './completeness-flush';
import { completeness, completenessDefer, completenessDirty, variantCompleteness } from './schema';

/**
 * The statements that bring completeness scores up to what the rules say now (docs/completeness.md),
 * shared by the recompute job (one channel, a page of products) and the deferred rescore of bulk
 * writes (every channel, the products the batch touched). The triggers of migration 0028 run the
 * same two steps: rows no rule produces any more go; the others are upserted and written only when
 * the score or the missing list changed, so the counters' triggers fire only for real changes.
 * Here in the db layer because the catalog's upsert (below the completeness domain) uses it.
 */
export function scoreRefresh(
  db: Database,
  keys: SQL,
  options: { variants?: boolean; channelKey?: number } = {},
): BatchStatement[] {
  const table = options.variants ? variantCompleteness : completeness;
  const channel = options.channelKey;
  return [
    db.delete(table).where(
      and(
        channel === undefined ? undefined : eq(table.channelKey, channel),
        sql`${table.productKey} IN (${keys})`,
        sql`NOT EXISTS (SELECT 1 FROM completeness_checks v WHERE v.product_key = ${table.productKey}
          AND v.channel_key = ${table.channelKey} AND v.lang = ${table.lang} AND v.variant = ${options.variants ? 1 : 0})`,
      ),
    ),
    // Columns in the table's order: product_key, channel_key, lang, score, missing.
    db
      .insert(table)
      .select(sql`SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
        CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
      FROM completeness_checks WHERE ${channel === undefined ? sql`1` : sql`channel_key = ${channel}`}
        AND product_key IN (${keys}) AND variant = ${options.variants ? 1 : 0}
      GROUP BY product_key, channel_key, lang`)
      .onConflictDoUpdate({
        target: [table.productKey, table.channelKey, table.lang],
        set: { score: sql`excluded.score`, missing: sql`excluded.missing` },
        setWhere: sql`${table.score} <> excluded.score OR ${table.missing} IS NOT excluded.missing`,
      }),
  ];
}

/**
 * Wraps a bulk write's statements so each product is rescored once at the end of the batch
 * instead of once per changed row (an import writing 20 values of a product): the first
 * statement switches the triggers to only marking the products in `completeness_dirty`, the
 * last ones rescore the marked products and switch the triggers back. All of it is one D1
 * batch, i.e. one transaction: no other write ever sees the switch, and a failed batch rolls
 * it back with everything else.
 */
export function withDeferredRescore(db: Database, statements: BatchStatement[]): BatchStatement[] {
  if (statements.length === 0) return statements;
  const dirty = sql`SELECT product_key FROM completeness_dirty`;
  return [
    db.insert(completenessDefer).values({ id: 1 }).onConflictDoNothing(),
    ...statements,
    ...scoreRefresh(db, dirty),
    ...scoreRefresh(db, dirty, { variants: true }),
    db.delete(completenessDirty),
    db.delete(completenessDefer),
    // the webhook events of the rescore: each pair compared once, before the batch and after it
    ...completenessEventsFlushStatements(db),
  ];
}

/**
 * What `completeness_defer` holds during a marked write (migration 0072): neither the immediate
 * nor the `_deferred` row triggers fire, the writer marks the products itself.
 */
const MARKED = 2;

/**
 * As withDeferredRescore, for a bulk write that knows every product its `own` statements touch
 * (the upsert of an import batch: it writes prices, media, values, features and placements of
 * the products it names, hundreds of rows per batch). While `own` runs no completeness trigger
 * fires (`completeness_defer` holds 2, migration 0072); one statement then marks `productIds`,
 * their variants and, in a company with a `gtinUnique` rule, every product sharing a GTIN with
 * them now or `oldGtins` (their GTINs before the write): a superset of what the per-row
 * `_deferred` triggers mark, so the rescore at the end gives the same scores. `rest` (report
 * rows, deletions, the checkpoint) runs with the per-row triggers marking as before. One D1
 * batch, one transaction, as withDeferredRescore.
 */
export function withMarkedRescore(
  db: Database,
  parts: {
    own: BatchStatement[];
    productIds: string[];
    companyId: string;
    oldGtins: string[];
    rest: BatchStatement[];
  },
): BatchStatement[] {
  const { own, rest } = parts;
  if (own.length === 0) return withDeferredRescore(db, rest);
  const ids = JSON.stringify(parts.productIds);
  const dirty = sql`SELECT product_key FROM completeness_dirty`;
  return [
    db.insert(completenessDefer).values({ id: MARKED }).onConflictDoNothing(),
    ...own,
    db
      .insert(completenessDirty)
      .select(sql`SELECT rowid FROM products WHERE id IN (SELECT value FROM json_each(${ids}))
        UNION SELECT rowid FROM products WHERE parent_id IN (SELECT value FROM json_each(${ids}))
        UNION SELECT p.rowid FROM products p WHERE p.company_id = ${parts.companyId} AND p.gtin <> ''
          AND p.gtin IN (SELECT gtin FROM products WHERE id IN (SELECT value FROM json_each(${ids}))
            UNION SELECT value FROM json_each(${JSON.stringify(parts.oldGtins)}))
          AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = ${parts.companyId} AND kind = 'gtinUnique')`)
      .onConflictDoNothing(),
    // From here on the per-row triggers mark again (withDeferredRescore's state).
    db.update(completenessDefer).set({ id: 1 }),
    ...rest,
    ...scoreRefresh(db, dirty),
    ...scoreRefresh(db, dirty, { variants: true }),
    db.delete(completenessDirty),
    db.delete(completenessDefer),
  ];
}
