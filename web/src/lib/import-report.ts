import type { MessageKey } from '../i18n/de';
import type { T } from '../i18n/i18n';

/** The summary's totals in the order the screen shows them (docs/import.md, "The report"). */
export const COUNT_KEYS = [
  'total',
  'created',
  'updated',
  'unchanged',
  'deleted',
  'rejected',
  'warnings',
  'categoriesCreated',
] as const;

/** Totals of a job summary that are present, in COUNT_KEYS order (a reason count `rejected.x` is not a total). */
export function summaryTotals(
  summary: Record<string, number> | null | undefined,
): [(typeof COUNT_KEYS)[number], number][] {
  if (!summary) return [];
  return COUNT_KEYS.filter((k) => k in summary).map((k) => [k, summary[k]!]);
}

const REASON_CODES = new Set([
  'sku_missing',
  'sku_duplicate',
  'not_in_catalog',
  'outside_scope',
  'texts_only',
  'map_group_unknown',
  'map_product_unknown',
  'map_entry_incomplete',
  'unit_alias',
  'unit_kept',
  'field_invalid',
  'field_truncated',
  'attribute_unknown',
  'attribute_invalid',
  'class_unverified',
  'class_extra',
  'feature_unverified',
  'feature_value_text',
  'feature_dropped',
  'feature_system_skipped',
]);

/**
 * A report reason in the user's language: the screen's own words for the codes it knows,
 * `invalid_<field>` (a strict rejection) with the field's name, else the API's label.
 */
export function reasonText(code: string, apiLabel: string, t: T): string {
  if (REASON_CODES.has(code)) return t(`imports.reason.${code}` as MessageKey);
  if (code.startsWith('invalid_')) return t('imports.reason.invalid', { field: code.slice(8) });
  return apiLabel;
}
