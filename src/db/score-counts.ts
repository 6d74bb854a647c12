import { type SQL, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from './client';
import { completenessCounts, completenessCountsDefer, completenessDaily } from './schema';

/**
 * The counter items one channel's score rows of some products add to `completeness_counts`
 * (migrations 0026, 0038): per master row '' 1, '#score' its score, '#complete' 1 at 100 and 1
 * per missing label; per variant row '#variants' 1 and '#variantsComplete' 1 at 100. The same
 * items the counter triggers write row by row, here read in one pass over each table (D1 allows
 * at most 5 terms in a compound SELECT: the fixed items are unpivoted with json_each).
 */
function countItems(channelKey: number, masters: SQL, variants: SQL): SQL {
  return sql`SELECT c.channel_key, c.lang, k.value AS item, CASE k.value WHEN '#score' THEN c.score ELSE 1 END AS n
      FROM completeness c, json_each(CASE WHEN c.score = 100 THEN '["","#score","#complete"]' ELSE '["","#score"]' END) k
      WHERE c.channel_key = ${channelKey} AND c.product_key IN (${masters})
    UNION ALL SELECT c.channel_key, c.lang, j.value, 1 FROM completeness c, json_each(c.missing) j
      WHERE c.channel_key = ${channelKey} AND c.product_key IN (${masters}) AND c.missing IS NOT NULL
    UNION ALL SELECT v.channel_key, v.lang, k.value, 1
      FROM variant_completeness v, json_each(CASE WHEN v.score = 100 THEN '["#variants","#variantsComplete"]' ELSE '["#variants"]' END) k
      WHERE v.channel_key = ${channelKey} AND v.product_key IN (${variants})`;
}

/** Adds (`sign` 1) or takes away (-1) the items of the products' score rows in one upsert. */
function applyCounts(db: Database, channelKey: number, masters: SQL, variants: SQL, sign: 1 | -1) {
  // Columns in the table's order: channel_key, lang, item, n.
  return db
    .insert(completenessCounts)
    .select(sql`SELECT channel_key, lang, item, ${sign} * sum(n) FROM (${countItems(channelKey, masters, variants)})
      WHERE 1 GROUP BY channel_key, lang, item`)
    .onConflictDoUpdate({
      target: [completenessCounts.channelKey, completenessCounts.lang, completenessCounts.item],
      set: { n: sql`${completenessCounts.n} + excluded.n` },
    });
}

/** Today's row of `completeness_daily` per language of the channel from its final counters (migration 0027). */
function dailyFromCounts(db: Database, channelKey: number) {
  // Columns in the table's order: channel_key, lang, day, scored, complete, score_sum.
  return db
    .insert(completenessDaily)
    .select(sql`SELECT channel_key, lang, date('now'),
        coalesce(max(CASE WHEN item = '' THEN n END), 0),
        coalesce(max(CASE WHEN item = '#complete' THEN n END), 0),
        coalesce(max(CASE WHEN item = '#score' THEN n END), 0)
      FROM completeness_counts WHERE channel_key = ${channelKey} AND item IN ('', '#complete', '#score')
      GROUP BY channel_key, lang`)
    .onConflictDoUpdate({
      target: [completenessDaily.channelKey, completenessDaily.lang, completenessDaily.day],
      set: { scored: sql`excluded.scored`, complete: sql`excluded.complete`, scoreSum: sql`excluded.score_sum` },
    });
}

/**
 * Wraps the rescore of one channel for a page of masters and their variants (the recompute job,
 * src/completeness/recompute.ts) so the counters are kept once per page instead of once per score
 * row: the counter triggers are switched off (migration 0045), the page's rows are taken out of
 * the counters before the rescore and put back after it, and today's `completeness_daily` rows of
 * the channel are upserted from the final counters, as the triggers would leave them. Subtracting
 * everything and adding it back is right whatever the rescore changed, and stays right when a
 * redelivered page is run twice. All of it belongs in the page's one batch (one transaction).
 */
export function withBulkCounts(
  db: Database,
  channelKey: number,
  keys: { masters: SQL; variants: SQL },
  statements: BatchStatement[],
): BatchStatement[] {
  if (statements.length === 0) return statements;
  return [
    db.insert(completenessCountsDefer).values({ id: 1 }).onConflictDoNothing(),
    applyCounts(db, channelKey, keys.masters, keys.variants, -1),
    ...statements,
    applyCounts(db, channelKey, keys.masters, keys.variants, 1),
    dailyFromCounts(db, channelKey),
    db.delete(completenessCountsDefer),
  ];
}
