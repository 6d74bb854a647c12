import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { AppError } from '../kernel/app-error';
import type { ProductAggregate, ProductNode } from '../model/product-aggregate';
import type { ExportWarnings } from './export-warnings';

/**
 * Template option `onlyComplete` (docs/completeness.md): an export writes only the masters that
 * have no score under 100 for the template's channel in the export's language, and of their
 * variants only those with no score under 100 either (`variant_completeness`, migration 0028).
 * A complete master whose variants are all incomplete is still written, without them: the
 * master is judged on its own rows. The scores are the stored ones the writes keep current, so
 * each condition is one primary-key probe per product.
 */
export interface CompleteFor {
  channelKey: number;
  channelName: string;
  lang: string;
  /** Judge the completeness scores (template option onlyComplete); absent in plans made before review existed: true. */
  scores?: boolean;
  /** The channel's review is on (docs/review.md): only masters approved for it are written. */
  review?: boolean;
}

const judgesScores = (complete: CompleteFor) => complete.scores !== false;

/** "Approved for the channel" on master products of `alias`: one primary-key probe of `review_states`. */
export function approvedCondition(complete: CompleteFor, alias: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM review_states rs WHERE rs.channel_key = ${complete.channelKey}
    AND rs.product_id = ${alias}.id AND rs.state = 'approved')`;
}

/** "Complete for the channel" on master products of `alias` (e.g. sql`p`). */
export function completeCondition(complete: CompleteFor, alias: SQL): SQL {
  const approved = complete.review ? approvedCondition(complete, alias) : sql`1`;
  if (!judgesScores(complete)) return approved;
  return sql`${approved} AND NOT EXISTS (SELECT 1 FROM completeness cs WHERE cs.product_key = ${alias}.rowid
    AND cs.channel_key = ${complete.channelKey} AND cs.lang = ${complete.lang} AND cs.score < 100)`;
}

/** "Not incomplete for the channel" on variants of `alias` (e.g. sql`v`): the variants' own scores. */
export function variantCompleteCondition(complete: CompleteFor, alias: SQL): SQL {
  if (!judgesScores(complete)) return sql`1`;
  return sql`NOT EXISTS (SELECT 1 FROM variant_completeness vc WHERE vc.product_key = ${alias}.rowid
    AND vc.channel_key = ${complete.channelKey} AND vc.lang = ${complete.lang} AND vc.score < 100)`;
}

/**
 * The channel an export filters by: the template's channel with onlyComplete (its scores), or
 * whose review is on (docs/review.md: only approved masters), or both; null when neither applies.
 * An AppError when onlyComplete names a channel that is gone.
 */
export async function resolveCompleteFor(
  db: Database,
  companyId: string,
  options: { channelId?: string | null; onlyComplete?: boolean },
  lang: string,
): Promise<CompleteFor | null> {
  if (!options.channelId && !options.onlyComplete) return null;
  const [row] = await db.all<{ id: number; name: string; review: number }>(
    sql`SELECT id, name, review_enabled AS review FROM channels WHERE channel_id = ${options.channelId ?? ''} AND company_id = ${companyId}`,
  );
  if (!row && options.onlyComplete)
    throw new AppError('bad_request', "the template's channel no longer exists; choose another or drop onlyComplete");
  if (!row || (!options.onlyComplete && row.review !== 1)) return null;
  return {
    channelKey: row.id,
    channelName: row.name,
    lang,
    scores: options.onlyComplete === true,
    review: row.review === 1,
  };
}

/**
 * Warns about the masters of one page held back by the channel's review (in scope, ids in
 * (after, upTo], not approved), like the incomplete ones: one line per product.
 */
async function warnUnapproved(
  db: Database,
  scope: SQL,
  complete: CompleteFor,
  after: string | null,
  upTo: string | null,
  w: ExportWarnings,
): Promise<void> {
  const rows = await db.all<{ sku: string | null; id: string }>(sql`
    SELECT products.sku, products.id FROM products
    WHERE ${scope} ${after ? sql`AND products.id > ${after}` : sql``} ${upTo ? sql`AND products.id <= ${upTo}` : sql``}
      AND NOT ${approvedCondition(complete, sql`products`)}`);
  for (const row of rows) w.add(`left out as not approved in review for ${complete.channelName}`, row.sku ?? row.id);
}

/**
 * Warns about the masters of one page an onlyComplete export left out, with what each lacks:
 * those the export's `scope` takes (masterScope in exporter.ts: statuses, category subtree,
 * snapshot) with ids in (after, upTo] (upTo null: to the end) and a score under 100. A master
 * the scope leaves out anyway is not named.
 */
export async function warnSkipped(
  db: Database,
  scope: SQL,
  complete: CompleteFor,
  after: string | null,
  upTo: string | null,
  w: ExportWarnings,
): Promise<void> {
  if (complete.review) await warnUnapproved(db, scope, complete, after, upTo, w);
  if (!judgesScores(complete)) return;
  const rows = await db.all<{ sku: string | null; id: string; missing: string | null }>(sql`
    SELECT products.sku, products.id, cs.missing FROM products CROSS JOIN completeness cs ON cs.product_key = products.rowid
    WHERE ${scope} ${after ? sql`AND products.id > ${after}` : sql``} ${upTo ? sql`AND products.id <= ${upTo}` : sql``}
      AND cs.channel_key = ${complete.channelKey} AND cs.lang = ${complete.lang} AND cs.score < 100`);
  const what = `${complete.channelName} (${complete.lang})`;
  for (const row of rows) {
    const subject = row.sku ?? row.id;
    w.add(`left out as incomplete for ${what}`, subject);
    for (const label of row.missing ? (JSON.parse(row.missing) as string[]) : [])
      w.add(`incomplete for ${what}: missing ${label}`, subject);
  }
}

/**
 * Drops from a page of aggregates (masters already judged complete) the variants incomplete for
 * the channel, warning about each the export would write (`inScope`: its status and snapshot) with
 * what it lacks: one statement for the page, along
 * `products_parent_idx` and the score's primary key. The page holds at most 90 masters, so the
 * id list stays under D1's bound-parameter limit.
 */
export async function leaveOutIncompleteVariants(
  db: Database,
  complete: CompleteFor,
  aggregates: ProductAggregate[],
  w: ExportWarnings,
  inScope: (variant: ProductNode) => boolean,
): Promise<void> {
  const withVariants = aggregates.filter((a) => a.variants.length > 0);
  if (withVariants.length === 0 || !judgesScores(complete)) return;
  const ids = sql.join(
    withVariants.map((a) => sql`${a.product.id}`),
    sql`, `,
  );
  const rows = await db.all<{ id: string; sku: string | null; missing: string | null }>(sql`
    SELECT v.id, v.sku, vc.missing FROM products v CROSS JOIN variant_completeness vc ON vc.product_key = v.rowid
    WHERE v.parent_id IN (${ids}) AND vc.channel_key = ${complete.channelKey} AND vc.lang = ${complete.lang} AND vc.score < 100`);
  if (rows.length === 0) return;
  const left = new Set(rows.map((r) => r.id));
  const named = new Set<string>();
  for (const aggregate of withVariants) {
    for (const v of aggregate.variants) if (left.has(v.product.id) && inScope(v)) named.add(v.product.id);
    aggregate.variants = aggregate.variants.filter((v) => !left.has(v.product.id));
  }
  const what = `${complete.channelName} (${complete.lang})`;
  for (const row of rows.filter((r) => named.has(r.id))) {
    const subject = row.sku ?? row.id;
    w.add(`variants left out as incomplete for ${what}`, subject);
    for (const label of row.missing ? (JSON.parse(row.missing) as string[]) : [])
      w.add(`incomplete for ${what}: missing ${label}`, subject);
  }
}
