import { type SQL, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { completenessEventsDefer, completenessTransitionBefore, domainEvents } from '../db/schema';
import { dbNow } from '../kernel/clock';

/** The webhook events of completeness per master and channel (docs/webhooks.md "Events"). */
export const COMPLETENESS_EVENT_TYPES = ['completeness.reached', 'completeness.lost'] as const;

/** The masters of a recompute page and their variants, as `SELECT rowid` subqueries of `products`. */
export interface RescoredKeys {
  masters: SQL;
  variants: SQL;
}

/**
 * Wraps a rescore of masters and their variants (the recompute job's page,
 * src/completeness/recompute.ts) so that every master or variant whose completeness in a channel
 * crosses complete <-> incomplete leaves one `completeness.reached` or `completeness.lost` event
 * in `webhook_outbox`, in the same transaction as the rescore. Set-based, a few statements per
 * page whatever its size (no statement per product): the pairs scored before go to a scratch
 * table with whether they were incomplete, the rescore runs, and the pairs whose state differs
 * after it become outbox rows (ordered by product, so the dispatcher sends them in order per
 * product); the scratch rows go in the same batch. "Complete in a channel" is the exports'
 * `onlyComplete`: no score row under 100 in any of the channel's languages (masters in
 * `completeness`, variants in `variant_completeness`), so a pair whose rows all go while it was
 * incomplete has reached it (only this comparison sees that; the row triggers cannot). A pair
 * with no score row before (a new channel, rules that did not apply to the product) had no state
 * to lose and sends no `completeness.lost`. The events go to `domain_events` (migration 0069),
 * which publishes each as a changes-feed item and, for a company with an enabled endpoint, an
 * outbox row. Single writes send the same events through the row triggers of migrations 0061 and
 * 0064, which this batch switches off (`completeness_events_defer`), so a page is never counted
 * twice.
 */
export function withCompletenessEvents(
  db: Database,
  companyId: string,
  keys: RescoredKeys,
  channelKey: number | undefined,
  statements: BatchStatement[],
): BatchStatement[] {
  if (statements.length === 0) return statements;
  const scopes = [
    { table: sql`completeness`, keys: keys.masters, variants: false },
    { table: sql`variant_completeness`, keys: keys.variants, variants: true },
  ];
  return [
    // the row triggers of migrations 0061 and 0064 stay quiet: this batch compares the whole page at once
    db.insert(completenessEventsDefer).values({ id: 1 }).onConflictDoNothing(),
    ...scopes.map((scope) => snapshotBefore(db, companyId, scope.table, scope.keys, channelKey)),
    ...statements,
    ...scopes.map((scope) => transitionEvents(db, companyId, scope.table, scope.variants)),
    db.delete(completenessTransitionBefore),
    db.delete(completenessEventsDefer),
  ];
}

/** The scratch rows: each scored (product, channel) pair of the page and whether it is incomplete now. */
function snapshotBefore(db: Database, companyId: string, table: SQL, keys: SQL, channelKey: number | undefined) {
  const channel = channelKey === undefined ? sql`` : sql`AND channel_key = ${channelKey}`;
  // Columns in the table's order: product_key, channel_key, incomplete. Masters' and variants'
  // product keys are rowids of the same table, so the two never share a scratch row.
  return db
    .insert(completenessTransitionBefore)
    .select(sql`SELECT product_key, channel_key, max(score < 100) FROM ${table}
      WHERE product_key IN (${keys}) ${channel}
      GROUP BY product_key, channel_key`);
}

/**
 * One outbox row per scratch pair (of masters, or of variants) whose state differs after the
 * rescore. A variant's event names its master as `productId` and itself as `variantId` and `sku`,
 * and is ordered by the variant (its own product events' key).
 */
function transitionEvents(db: Database, companyId: string, table: SQL, variants: boolean) {
  const ids = variants ? sql`'productId', p.parent_id, 'variantId', p.id` : sql`'productId', p.id`;
  // Columns in the table's order: id, company_id, event_type, order_key, data, at.
  return db
    .insert(domainEvents)
    .select(sql`SELECT 'evt_' || lower(hex(randomblob(16))), ${companyId}, CASE WHEN t.complete THEN 'completeness.reached' ELSE 'completeness.lost' END, p.id,
      json_object(${ids}, 'sku', p.sku, 'channelId', ch.channel_id, 'channelName', ch.name,
        'complete', json(CASE WHEN t.complete THEN 'true' ELSE 'false' END),
        'scores', (SELECT json_group_object(c.lang, c.score) FROM ${table} c
          WHERE c.product_key = t.product_key AND c.channel_key = t.channel_key)), ${dbNow}
    FROM (
      SELECT b.product_key, b.channel_key, 0 AS complete FROM completeness_transition_before b
        WHERE NOT b.incomplete AND EXISTS (SELECT 1 FROM ${table} c
          WHERE c.product_key = b.product_key AND c.channel_key = b.channel_key AND c.score < 100)
      UNION ALL
      SELECT b.product_key, b.channel_key, 1 FROM completeness_transition_before b
        WHERE b.incomplete AND NOT EXISTS (SELECT 1 FROM ${table} c
          WHERE c.product_key = b.product_key AND c.channel_key = b.channel_key AND c.score < 100)
    ) t
    JOIN products p ON p.rowid = t.product_key AND p.company_id = ${companyId}
      AND p.parent_id ${variants ? sql`IS NOT NULL` : sql`IS NULL`}
    JOIN channels ch ON ch.id = t.channel_key AND ch.company_id = ${companyId}
    ORDER BY p.id, ch.id`);
}
