import { sql, type SQL } from 'drizzle-orm';
import type { Caller } from '../kernel/caller';

/**
 * The completeness conditions of the product filter (docs/completeness.md "Grid and mass edit
 * filter"): `incompleteFor` (masters whose own score for the channel is under 100) and
 * `incompleteVariantsFor` (masters with at least one variant scored under 100, migration 0028's
 * `variant_completeness`). Both read only stored scores, never evaluate a rule: the driver walks
 * the score table's `(channel_key, lang, score)` index, whose entries end with the product's
 * rowid, and the per-row condition probes the score's primary key (for variants, the master's
 * variants along `products_parent_idx` first).
 */
export interface CompletenessFilter {
  incompleteFor?: string;
  incompleteVariantsFor?: string;
  channelLanguage?: string;
  missingRequirement?: string;
}

/**
 * The score rows (alias `c`) of `channelId` that say "not complete": in the filter's language
 * (else any of the channel's), lacking `missingRequirement` when given; the channel is the tenant's.
 */
function incompleteRows(tenant: Caller, filter: CompletenessFilter, channelId: string): SQL {
  const channelKey = sql`(SELECT id FROM channels WHERE channel_id = ${channelId} AND company_id = ${tenant.companyId})`;
  return sql`c.channel_key = ${channelKey}${filter.channelLanguage ? sql` AND c.lang = ${filter.channelLanguage}` : sql``} AND c.score < 100${
    filter.missingRequirement
      ? sql` AND EXISTS (SELECT 1 FROM json_each(c.missing) j WHERE j.value = ${filter.missingRequirement})`
      : sql``
  }`;
}

/** The conditions as subqueries of the master ids they admit (filter drivers, read through the score indexes). */
export function completenessDrivers(
  tenant: Caller,
  catalogId: string,
  filter: CompletenessFilter,
): { ids: SQL; covers: 'incompleteFor' | 'incompleteVariantsFor' }[] {
  const drivers: { ids: SQL; covers: 'incompleteFor' | 'incompleteVariantsFor' }[] = [];
  if (filter.incompleteFor)
    drivers.push({
      covers: 'incompleteFor',
      ids: sql`SELECT DISTINCT p.id AS mid FROM completeness c CROSS JOIN products p ON p.rowid = c.product_key
      WHERE ${incompleteRows(tenant, filter, filter.incompleteFor)} AND p.catalog_id = ${catalogId} AND p.company_id = ${tenant.companyId}`,
    });
  if (filter.incompleteVariantsFor)
    drivers.push({
      covers: 'incompleteVariantsFor',
      ids: sql`SELECT DISTINCT v.parent_id AS mid FROM variant_completeness c CROSS JOIN products v ON v.rowid = c.product_key
      WHERE ${incompleteRows(tenant, filter, filter.incompleteVariantsFor)} AND v.catalog_id = ${catalogId} AND v.company_id = ${tenant.companyId}`,
    });
  return drivers;
}

/** The conditions on one master row of `"products"` (the tenant's catalog is already checked by the caller). */
export function completenessConditions(tenant: Caller, filter: CompletenessFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.incompleteFor)
    conditions.push(
      sql`EXISTS (SELECT 1 FROM completeness c WHERE c.product_key = "products"."rowid" AND ${incompleteRows(tenant, filter, filter.incompleteFor)})`,
    );
  if (filter.incompleteVariantsFor)
    conditions.push(sql`EXISTS (SELECT 1 FROM products v CROSS JOIN variant_completeness c ON c.product_key = v.rowid
      WHERE v.parent_id = "products"."id" AND ${incompleteRows(tenant, filter, filter.incompleteVariantsFor)})`);
  return conditions;
}
