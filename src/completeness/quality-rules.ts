import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { classificationReleases } from '../db/schema';
import { badRequest } from '../kernel/app-error';
import { CLASSIFICATION_GROUPS } from '../kernel/classification-groups';
import { globError } from './glob-pattern';

/**
 * Quality requirements checked and resolved (docs/completeness.md): GLOB patterns on attributes,
 * and range rules on numeric feature values:
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

/** The release named `SYSTEM-version` must be loaded and of the requirement's system. */
export async function checkRelease(db: Database, field: string, system: string, release: string): Promise<void> {
  const at = release.indexOf('-');
  if (at < 1 || release.slice(0, at) !== system)
    throw badRequest(`${field}: "${release}" is not a release of ${system} (write it as ${system}-version)`);
  const row = await db.query.classificationReleases.findFirst({
    where: and(
      eq(classificationReleases.system, system),
      eq(classificationReleases.version, release.slice(at + 1)),
      eq(classificationReleases.status, 'loaded'),
    ),
    columns: { id: true },
  });
  if (!row) throw badRequest(`${field}: release ${release} is not loaded`);
}

/**
 * Rules beyond presence: a GTIN's check digit, a GTIN held by one product only, BMEcat 2005 text
 * limits, an attribute's value matching a GLOB `pattern` (D1 has no REGEXP), and numeric feature
 * values within a channel's `range` or the release's ranges (`releaseRanges`, range-rules.ts).
 */
export const QUALITY_RULES = [
  'gtinCheckDigit',
  'gtinUnique',
  'bmecatLengths',
  'pattern',
  'range',
  'releaseRanges',
] as const;

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
export function foreignQualityField(rule: string, given: object): string | undefined {
  const allowed = QUALITY_RULE_FIELDS[rule] ?? [];
  const set = given as Record<string, unknown>;
  return Object.keys(RANGE_AND_PATTERN_FIELDS).find((k) => set[k] !== undefined && !allowed.includes(k));
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

/** A `quality` requirement checked (400 naming the wrong part) and turned into its rule's columns. */
export async function resolveQuality(
  db: Database,
  field: string,
  r: RangeRequirement & { rule: string; attribute?: string; pattern?: string; release?: string },
  attributeIds: Map<string, string>,
) {
  if (!(QUALITY_RULES as readonly string[]).includes(r.rule))
    throw badRequest(`${field}.rule: "${r.rule}" is not one of ${QUALITY_RULES.join(', ')}`);
  const foreign = foreignQualityField(r.rule, r);
  if (foreign) throw badRequest(`${field}.${foreign}: not a field of rule ${r.rule}`);
  if (r.rule === 'range' || r.rule === 'releaseRanges') {
    if (!(CLASSIFICATION_GROUPS as readonly string[]).includes(r.system ?? ''))
      throw badRequest(`${field}.system: "${r.system ?? ''}" is not one of ${CLASSIFICATION_GROUPS.join(', ')}`);
    if (r.rule === 'range') return resolveRange(db, field, { ...r, system: r.system! });
    if (!r.release) throw badRequest(`${field}.release: name the release whose ranges apply`);
    await checkRelease(db, `${field}.release`, r.system!, r.release);
    return { kind: r.rule, target: r.system!, release: r.release, label: `quality.releaseRanges.${r.release}` };
  }
  if (r.rule !== 'pattern') return { kind: r.rule, target: r.rule, label: `quality.${r.rule}` };
  const id = r.attribute ? attributeIds.get(r.attribute) : undefined;
  if (!id) throw badRequest(`${field}.attribute: "${r.attribute ?? ''}" is not an attribute of your company`);
  const bad = globError(r.pattern ?? '');
  if (bad) throw badRequest(`${field}.pattern: ${bad}`);
  return {
    kind: 'pattern',
    target: r.attribute!,
    ref: id,
    pattern: r.pattern!,
    label: `quality.pattern.${r.attribute}`,
  };
}
