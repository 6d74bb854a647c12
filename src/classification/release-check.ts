import { badRequest } from '../kernel/app-error';
import type { ClassificationGroup } from '../kernel/classification-groups';
import { groupOfRelease } from '../kernel/release-name';
import { parseValue, type ParsedValue, type ValueRule } from '../kernel/value-types';
import type { ReleaseFeatureDef, ReleaseRefs } from './release-refs';
import { NO_FEATURE_VALUE } from '../model/translation-store';

/**
 * The rules of a classification that names its release (docs/classification-releases.md,
 * "Classifying against a release"), shared by the classification writes, the web editor's save
 * and UpsertProducts: the release must be loaded and of the class's group, the class must be in
 * it, each feature must be one of that class's, and a value must fit the class's feature type,
 * value list and unit in that release.
 */
export function checkReleaseClass(
  refs: ReleaseRefs,
  group: ClassificationGroup,
  c: { code: string; release: string; system?: string | null },
) {
  if (groupOfRelease(c.release) !== group)
    throw badRequest(`classes.release: ${c.release} is not a release of ${group} (group of class ${c.code})`);
  if (!refs.releases.includes(c.release)) throw badRequest(`classes.release: ${c.release} is not loaded`);
  const found = refs.classes.find((r) => r.release === c.release && r.code === c.code);
  if (!found) throw badRequest(`classes: ${c.code} is not a class of ${c.release}`);
  if (c.system && c.system !== c.release)
    throw badRequest(`classes: system ${c.system} does not match release ${c.release}`);
  return found;
}

/** The feature `code` of class `classCode` in `release`, or undefined when the class has no such feature. */
export function releaseFeature(refs: ReleaseRefs, release: string, classCode: string, code: string) {
  return refs.features.find((f) => f.release === release && f.classCode === classCode && f.code === code);
}

/** The allowed value codes of one class feature (empty: free input). */
export function allowedValues(refs: ReleaseRefs, def: ReleaseFeatureDef): string[] {
  return refs.values
    .filter((v) => v.release === def.release && v.classCode === def.classCode && v.featureCode === def.code)
    .map((v) => v.code);
}

/** The value rule of a release feature: A takes a value code of the class's list (free text without one). */
function ruleOf(def: ReleaseFeatureDef, values: string[], unit: string | null): ValueRule {
  switch (def.type) {
    case 'A':
      return values.length > 0 ? { type: 'enum', enumValues: values } : { type: 'text', maxLength: 1000 };
    case 'N':
      return { type: 'number', unit };
    case 'R':
      return { type: 'range', unit };
    case 'L':
      return { type: 'boolean' };
  }
}

/**
 * Parses a value of a release feature, stored in the feature's unit: a number may end with any
 * spelling of that unit ("12 mm", "12 MMT"), never another unit; `-` (a feature without value) fits every type. Throws 400 naming `field`.
 */
export function parseReleaseValue(
  refs: ReleaseRefs,
  field: string,
  raw: string,
  def: ReleaseFeatureDef,
): ParsedValue & { unit: string | null } {
  if (raw === NO_FEATURE_VALUE) return { value: raw, number: null, numberTo: null, unit: null };
  const values = allowedValues(refs, def);
  const spellings = [def.unit, ...def.unitAliases.filter((a) => a !== def.unit)];
  let first: unknown;
  for (const unit of def.type === 'N' || def.type === 'R' ? spellings : [null]) {
    try {
      return { ...parseValue(field, raw, ruleOf(def, values, unit)), unit: def.unit };
    } catch (err) {
      first ??= err;
    }
  }
  throw first;
}
