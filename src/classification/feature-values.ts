import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { classificationFeatures, classificationFeatureValues } from '../db/schema';
import { badRequest } from '../kernel/app-error';
import { parseValue, type ParsedValue, type ValueRule } from '../kernel/value-types';
import type { ClassificationGroup } from '../kernel/classification-groups';
import { NO_FEATURE_VALUE } from '../model/translation-store';

/**
 * The value rule of a feature, as the ETIM BMEcat guideline stores values: A (alphanumeric)
 * takes an EV value code, N a number in the feature's unit, R a range "min..max", L a logical
 * true/false. Shared by SetValue, classifications and bulk upserts.
 */
export function featureRule(
  feature: { type: 'A' | 'N' | 'R' | 'L'; unit: string | null },
  enumValues: readonly string[],
): ValueRule {
  switch (feature.type) {
    case 'A':
      return { type: 'enum', enumValues };
    case 'N':
      return { type: 'number', unit: feature.unit };
    case 'R':
      return { type: 'range', unit: feature.unit };
    case 'L':
      return { type: 'boolean' };
  }
}

/** Parses a feature value against its reference definition (see featureRule). */
export async function parseFeatureValue(
  db: Database,
  group: ClassificationGroup,
  featureCode: string,
  raw: string,
): Promise<ParsedValue & { unit: string | null }> {
  const feature = await db.query.classificationFeatures.findFirst({
    where: and(eq(classificationFeatures.group, group), eq(classificationFeatures.code, featureCode)),
  });
  if (!feature) throw badRequest(`${featureCode}: unknown ${group} feature`);
  let enumValues: string[] = [];
  if (feature.type === 'A') {
    const values = await db
      .select({ code: classificationFeatureValues.code })
      .from(classificationFeatureValues)
      .where(
        and(eq(classificationFeatureValues.group, group), eq(classificationFeatureValues.featureCode, featureCode)),
      );
    enumValues = values.map((v) => v.code);
  }
  return parseFeatureWith(group, featureCode, raw, feature, enumValues);
}

/**
 * `parseFeatureValue` for a caller that read the feature's reference row (undefined: unknown)
 * and its EV codes itself, in its own round trip.
 */
export function parseFeatureWith(
  group: ClassificationGroup,
  featureCode: string,
  raw: string,
  feature: { type: 'A' | 'N' | 'R' | 'L'; unit: string | null } | undefined,
  enumValues: readonly string[],
): ParsedValue & { unit: string | null } {
  if (!feature) throw badRequest(`${featureCode}: unknown ${group} feature`);
  // A feature without value (the ETIM guideline's `-`, its reason as details text) fits every type.
  if (raw === NO_FEATURE_VALUE) return { value: raw, number: null, numberTo: null, unit: null };
  return {
    ...parseValue(featureCode, raw, featureRule(feature, feature.type === 'A' ? enumValues : [])),
    unit: feature.unit,
  };
}
