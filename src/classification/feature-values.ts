import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { classificationFeatures, classificationFeatureValues } from '../db/schema';
import { badRequest } from '../http/app-error';
import { parseValue, type ParsedValue, type ValueRule } from '../catalog/value-types';

export type ClassificationGroup = 'ETIM' | 'ECLASS' | 'PROFICLASS';

/**
 * Parses a feature value against its reference definition, as the ETIM BMEcat guideline
 * stores them: A (alphanumeric) takes an EV value code, N a number in the feature's unit,
 * R a range "min..max", L a logical true/false.
 */
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
  let rule: ValueRule;
  switch (feature.type) {
    case 'A': {
      const values = await db
        .select({ code: classificationFeatureValues.code })
        .from(classificationFeatureValues)
        .where(and(eq(classificationFeatureValues.group, group), eq(classificationFeatureValues.featureCode, featureCode)));
      rule = { type: 'enum', enumValues: values.map((v) => v.code) };
      break;
    }
    case 'N':
      rule = { type: 'number', unit: feature.unit };
      break;
    case 'R':
      rule = { type: 'range', unit: feature.unit };
      break;
    case 'L':
      rule = { type: 'boolean' };
      break;
  }
  return { ...parseValue(featureCode, raw, rule), unit: feature.unit };
}
