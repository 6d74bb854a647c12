import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { badRequest } from '../kernel/app-error';
import { sha256Hex } from '../kernel/hashing';
import type { ProductAggregate } from '../model/product-aggregate';

/**
 * Connection option `onlyComplete` (docs/completeness.md, docs/sync.md): a run sends only the
 * masters complete for the connection's channel in every language the channel publishes (the
 * shop receives every translation). An incomplete master is neither created nor updated, and
 * one the shop already has is left as it is there (not deactivated: a field cleared for a
 * moment must not take a product off the shop); the report counts them and what they lack.
 * Of a master that goes out, the variants incomplete for the channel (their own scores,
 * `variant_completeness`) are left out of its record; a complete master whose variants are all
 * incomplete goes out without variants.
 */
export interface SyncChannel {
  channelKey: number;
  name: string;
  /** Judge the completeness scores (onlyComplete); absent in runs started before review existed: true. */
  scores?: boolean;
  /** The channel's review is on (docs/review.md): a master not approved for it is held back like an incomplete one. */
  review?: boolean;
}

/** The label a master held back by the channel's review carries in the run's report. */
export const NOT_APPROVED = 'not approved in review';

const judgesScores = (channel: SyncChannel) => channel.scores !== false;

/** The run's tally of what onlyComplete left out (kept in the checkpoint). */
export interface IncompleteTally {
  channel: string;
  count: number;
  /** `label (lang)` to the number of masters and variants left out lacking it. */
  missing: Record<string, number>;
  /** Variants left out of the records of masters that went out (or were compared), and the first SKUs of them. */
  variants?: number;
  variantSkus?: string[];
}

/** Most distinct missing labels a run tallies (the checkpoint stays small whatever the data). */
export const MISSING_TALLY_CAP = 200;

const channelOf = (db: Database, companyId: string, channelId: string) =>
  db.all<{ id: number; name: string; review: number }>(
    sql`SELECT id, name, review_enabled AS review FROM channels WHERE channel_id = ${channelId} AND company_id = ${companyId}`,
  );

/** AddConnection/UpdateConnection: 400 naming `options.onlyComplete` without a channel, `options.channelId` for one not of the company. */
export async function checkSyncChannel(
  db: Database,
  companyId: string,
  options: { channelId?: string; onlyComplete?: boolean },
): Promise<void> {
  if (options.onlyComplete && !options.channelId)
    throw badRequest('options.onlyComplete: name the channel whose requirements decide (options.channelId)');
  if (options.channelId && (await channelOf(db, companyId, options.channelId)).length === 0)
    throw badRequest(`options.channelId: ${options.channelId} is not a channel of your company`);
}

/**
 * The channel a run filters by: with onlyComplete (its scores), or whose review is on (only
 * approved masters, docs/review.md), or both; null when neither applies, 'gone' when onlyComplete
 * names a channel deleted since.
 */
export async function resolveSyncChannel(
  db: Database,
  companyId: string,
  options: { channelId?: string; onlyComplete?: boolean },
): Promise<SyncChannel | null | 'gone'> {
  if (!options.onlyComplete && !options.channelId) return null;
  const [row] = await channelOf(db, companyId, options.channelId ?? '');
  if (!row) return options.onlyComplete ? 'gone' : null;
  if (!options.onlyComplete && row.review !== 1) return null;
  return { channelKey: row.id, name: row.name, scores: options.onlyComplete === true, review: row.review === 1 };
}

/**
 * The master reader's column `missing` for `channel`: the labels the master lacks as
 * `label (lang)` joined by tabs, or null when complete (one probe of the score's primary key per
 * language of the channel).
 */
export function missingColumn(channel: SyncChannel | null) {
  if (!channel) return sql`NULL`;
  const scores = judgesScores(channel) ? scoresMissing(channel) : sql`NULL`;
  if (!channel.review) return scores;
  // Held back by review: reported like an incomplete master, with the review as what it lacks.
  return sql`(CASE WHEN EXISTS (SELECT 1 FROM review_states rs WHERE rs.channel_key = ${channel.channelKey}
    AND rs.product_id = products.id AND rs.state = 'approved') THEN ${scores} ELSE ${NOT_APPROVED} END)`;
}

function scoresMissing(channel: SyncChannel) {
  return sql`(SELECT group_concat(j.value || ' (' || cs.lang || ')', char(9)) FROM completeness cs, json_each(cs.missing) j
    WHERE cs.product_key = products.rowid AND cs.channel_key = ${channel.channelKey} AND cs.score < 100)`;
}

/** A variant left out of its master's record, with what it lacks as `label (lang)`. */
export interface LeftOutVariant {
  id: string;
  sku: string | null;
  labels: string[];
}

/**
 * The master reader's column `variants` for `channel`: one JSON entry per label an incomplete
 * variant of the master lacks (in any of the channel's languages), null when none is incomplete:
 * the master's variants along `products_parent_idx`, each score by its primary key.
 */
export function leftOutVariantsColumn(channel: SyncChannel | null) {
  if (!channel || !judgesScores(channel)) return sql`NULL`;
  return sql`(SELECT json_group_array(json_array(v.id, v.sku, j.value || ' (' || vc.lang || ')'))
    FROM products v CROSS JOIN variant_completeness vc ON vc.product_key = v.rowid, json_each(vc.missing) j
    WHERE v.parent_id = products.id AND vc.channel_key = ${channel.channelKey} AND vc.score < 100 HAVING count(*) > 0)`;
}

/** The column's JSON as one entry per variant (labels in the column's order). */
export function parseLeftOutVariants(column: string | null): LeftOutVariant[] | undefined {
  if (!column) return undefined;
  const byId = new Map<string, LeftOutVariant>();
  for (const [id, sku, label] of JSON.parse(column) as [string, string | null, string][]) {
    const entry = byId.get(id) ?? { id, sku, labels: [] };
    entry.labels.push(label);
    byId.set(id, entry);
  }
  return [...byId.values()];
}

/**
 * The fingerprint of a record sent without some variants: the full record's fingerprint with the
 * left-out ids, so a variant that becomes complete (or incomplete) changes what the shop holds
 * compared to the PIM even when no data changed (e.g. a requirement was dropped) and is sent.
 */
export function fingerprintWithout(
  fingerprint: string,
  leftOut: LeftOutVariant[] | undefined,
): Promise<string> | string {
  if (!leftOut?.length) return fingerprint;
  const ids = leftOut.map((v) => v.id).sort();
  return sha256Hex(`${fingerprint}\nwithout ${ids.join(',')}`);
}

/** The aggregate without the left-out variants (the record the shop receives). */
export function withoutLeftOut(aggregate: ProductAggregate, leftOut: LeftOutVariant[] | undefined): ProductAggregate {
  if (!leftOut?.length) return aggregate;
  const ids = new Set(leftOut.map((v) => v.id));
  return { ...aggregate, variants: aggregate.variants.filter((v) => !ids.has(v.product.id)) };
}

/** SKUs of left-out variants the report names (the count has them all). */
export const VARIANT_EXAMPLES_CAP = 20;

/** Adds counts per label to a tally in place; labels beyond MISSING_TALLY_CAP distinct ones are dropped. */
export function addToTally(tally: Record<string, number>, counts: Iterable<[string, number]>): void {
  let size = Object.keys(tally).length;
  for (const [label, n] of counts) {
    if (!(label in tally)) {
      if (size >= MISSING_TALLY_CAP) continue;
      size++;
    }
    tally[label] = (tally[label] ?? 0) + n;
  }
}

/** What the join left out since the last save (a part of the run's Segment). */
export interface LeftOutSince {
  /** Masters left out as incomplete. */
  incomplete: number;
  missing: Record<string, number>;
  /** Variants left out of masters that went out or were compared, and the first of their SKUs. */
  variants: number;
  variantSkus: string[];
}

export const noLeftOut = (): LeftOutSince => ({ incomplete: 0, missing: {}, variants: 0, variantSkus: [] });

/** Notes a master's left-out variants: counted, named (first SKUs), their labels tallied with the masters'. */
export function noteLeftOutVariants(since: LeftOutSince, leftOut: LeftOutVariant[]): void {
  since.variants += leftOut.length;
  for (const variant of leftOut) {
    if (since.variantSkus.length < VARIANT_EXAMPLES_CAP) since.variantSkus.push(variant.sku ?? variant.id);
    addToTally(
      since.missing,
      variant.labels.map((label) => [label, 1]),
    );
  }
}

/** The run's tally with what a segment left out added. */
export function mergeLeftOut(tally: IncompleteTally, since: LeftOutSince): IncompleteTally {
  const missing = { ...tally.missing };
  addToTally(missing, Object.entries(since.missing));
  const variantSkus = [...(tally.variantSkus ?? []), ...since.variantSkus].slice(0, VARIANT_EXAMPLES_CAP);
  return {
    ...tally,
    count: tally.count + since.incomplete,
    missing,
    variants: (tally.variants ?? 0) + since.variants,
    variantSkus,
  };
}

/** One left-out master's `missing` column as tally counts. */
export const labelsOf = (missing: string): [string, number][] => missing.split('\t').map((label) => [label, 1]);
