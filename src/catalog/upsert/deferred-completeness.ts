import { sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../../db/client';
import { completeness, completenessDeferred } from '../../db/schema';

/**
 * Completeness scores of a bulk write in one pass (migration 0030, docs/completeness.md). The
 * row triggers rescore a master once per row written (a price, a media link, a feature value);
 * a batch of 500 imported products fired them tens of thousands of times. `wrap` puts the
 * write's statements between a row in `completeness_deferred` (the triggers' WHEN skips them)
 * and two set-based statements that rescore every master the write touched, then removes the
 * row: all in the caller's one db.batch, so no other transaction sees the row. The masters to
 * rescore are those the triggers would have reached: the masters written, and the masters of
 * the company holding a GTIN that any written product had before or has after (rule gtinUnique).
 */
export function wrapWithDeferredCompleteness(
  db: Database,
  companyId: string,
  statements: BatchStatement[],
  touched: { masterIds: readonly string[]; gtins: readonly string[] },
): BatchStatement[] {
  if (statements.length === 0) return statements;
  const gtins = [...new Set(touched.gtins.filter((g) => g !== ''))];
  const keys = sql`SELECT rowid FROM products WHERE id IN (SELECT value FROM json_each(${JSON.stringify(touched.masterIds)})) AND parent_id IS NULL
    UNION SELECT rowid FROM products WHERE gtin IN (SELECT value FROM json_each(${JSON.stringify(gtins)}))
      AND gtin <> '' AND company_id = ${companyId} AND parent_id IS NULL`;
  return [
    db.insert(completenessDeferred).values({ id: 1 }).onConflictDoNothing(),
    ...statements,
    db.delete(completeness).where(sql`${completeness.productKey} IN (${keys})`),
    // Columns in the table's order: product_key, channel_key, lang, score, missing (as the triggers write them).
    db.insert(completeness).select(sql`SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
        CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
      FROM completeness_checks WHERE product_key IN (${keys})
      GROUP BY product_key, channel_key, lang`),
    db.delete(completenessDeferred),
  ];
}
