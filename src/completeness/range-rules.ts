import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { badRequest } from '../kernel/app-error';

/**
 * Range rules on numeric feature values (docs/completeness.md "Quality rules"):
 * - `{kind: quality, rule: range, system, feature, min?, max?, unit?}`: the channel's own bounds
 *   for one feature; every value of that feature on the product's classification (a range value
 *   `a..b` with both ends) must be a number within them, in `unit` when the rule and the value
 *   both name one. No value is not a violation (require the features for that).
 * - `{kind: quality, rule: releaseRanges, system, release}`: the bounds the named loaded release
 *   gives its features (`release_class_features` over `release_features`, migration 0039); no
 *   loader fills them yet, see the migration.
 * Evaluated by the view `completeness_checks` like every rule; labels `quality.range.<system>.<code>`
 * and `quality.releaseRanges.<release>`.
 */

export interface RangeRequirement {
  system?: string;
  feature?: string;
  min?: number;
  max?: number;
  unit?: string;
}

/** True when the feature code is known to the system: the sample reference data or a loaded release of it. */
async function knownFeature(db: Database, system: string, code: string): Promise<boolean> {
  const [row] = await db.all<{ n: number }>(sql`SELECT
      EXISTS (SELECT 1 FROM classification_class_features WHERE "group" = ${system} AND feature_code = ${code})
      OR EXISTS (SELECT 1 FROM release_features f JOIN classification_releases r ON r.id = f.release_id
        WHERE r.system = ${system} AND r.status = 'loaded' AND f.code = ${code}) AS n`);
  return (row?.n ?? 0) === 1;
}

/** Checks a `range` requirement; the system is already checked. Throws 400 naming the wrong part. */
export async function resolveRange(db: Database, field: string, r: RangeRequirement & { system: string }) {
  if (!r.feature) throw badRequest(`${field}.feature: name the feature whose values the range limits`);
  if (r.min === undefined && r.max === undefined) throw badRequest(`${field}.min: give min, max or both`);
  if (r.min !== undefined && r.max !== undefined && r.min > r.max)
    throw badRequest(`${field}.min: ${r.min} is greater than max ${r.max}`);
  if (!(await knownFeature(db, r.system, r.feature)))
    throw badRequest(`${field}.feature: "${r.feature}" is not a feature of ${r.system}`);
  return {
    kind: 'range',
    target: r.system,
    ref: r.feature,
    minValue: r.min ?? null,
    maxValue: r.max ?? null,
    unit: r.unit ?? null,
    label: `quality.range.${r.system}.${r.feature}`,
  };
}

/** Which optional fields each quality rule takes; any other is a 400 naming it. */
export const QUALITY_RULE_FIELDS: Record<string, readonly string[]> = {
  pattern: ['attribute', 'pattern'],
  range: ['system', 'feature', 'min', 'max', 'unit'],
  releaseRanges: ['system', 'release'],
};

/** The first field a quality requirement carries that its rule does not take. */
export function foreignQualityField(rule: string, given: Record<string, unknown>): string | undefined {
  const allowed = QUALITY_RULE_FIELDS[rule] ?? [];
  return Object.keys(RANGE_AND_PATTERN_FIELDS).find((k) => given[k] !== undefined && !allowed.includes(k));
}

const RANGE_AND_PATTERN_FIELDS = {
  attribute: 1,
  pattern: 1,
  system: 1,
  feature: 1,
  min: 1,
  max: 1,
  unit: 1,
  release: 1,
};
