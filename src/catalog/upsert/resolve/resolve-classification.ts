import { AppError } from '../../../kernel/app-error';
import { checkReleaseClass, parseReleaseValue, releaseFeature } from '../../../classification/release-check';
import type { ReleaseFeatureDef } from '../../../classification/release-refs';
import { groupOfRelease, releaseOfSystem } from '../../../kernel/release-name';
import type { ClassificationGroup } from '../../../kernel/classification-groups';
import { featureRule } from '../../../classification/feature-values';
import { CLASSIFICATION_GROUPS, groupBit } from '../../../kernel/classification-groups';
import { parseValue, type ParsedValue, type ValueRule } from '../../../kernel/value-types';
import { groupOfSystem, type ReferenceCache } from './reference-cache';
import type { ResolvedNode } from '../upsert-types';
import { ItemError, type UpsertRecord } from '../upsert-types';
import { NO_FEATURE_VALUE } from '../../../model/translation-store';

/** The unit a file gave a value kept as text: trimmed, at most 100 characters (GetProduct's limit), none when empty. */
const keptUnit = (unit: string | null | undefined) => unit?.trim().slice(0, 100) || null;

/** BMEcat 1.2 writes a range whose ends are equal as one FVALUE: "5" is the range 5..5. */
export const asRange = (isRange: boolean, raw: string) => (isRange && !raw.includes('..') ? `${raw}..${raw}` : raw);

/** parseValue, with its 400 turned into an item error naming `field`. */
export function parse(field: string, raw: string, rule: ValueRule): ParsedValue {
  try {
    return parseValue(field, raw, rule);
  } catch (err) {
    if (err instanceof AppError) throw new ItemError(field, err.message);
    throw err;
  }
}

/**
 * A tolerant resolve (imports without `strict`): instead of throwing, a field problem is
 * reported here and the documented rule applied (docs/import.md, "Field problems").
 */
export type WarnFn = (field: string, code: WarningCode, message: string) => void;

/** Kinds of field problems a tolerant resolve reports (the import report groups by them). */
export type WarningCode =
  | 'unit_alias'
  | 'unit_kept'
  | 'field_invalid'
  | 'field_truncated'
  | 'attribute_unknown'
  | 'attribute_invalid'
  | 'class_unverified'
  | 'class_extra'
  | 'feature_unverified'
  | 'feature_value_text'
  | 'feature_dropped'
  | 'price_invalid'
  | 'price_type'
  | 'price_flag'
  | 'reference_type'
  | 'reference_invalid'
  | 'translation_invalid'
  | 'price_base';

/**
 * A class of a loaded release (release-check.ts), its 400 turned into an item error. With
 * `tolerant` (a tolerant import whose system name means a loaded release), a class the release
 * does not know answers null: kept verbatim as unverified for the verification job to retry.
 */
function releaseClass(
  cache: ReferenceCache,
  group: ClassificationGroup,
  c: { code: string; release: string; system?: string | null },
  tolerant: WarnFn | undefined,
) {
  try {
    checkReleaseClass(cache.release, group, c);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (tolerant) return null;
    throw new ItemError('classification.classes', err.message);
  }
  return { group, system: c.release, code: c.code, release: c.release };
}

/** parseReleaseValue, with its 400 turned into an item error naming `field`. */
function releaseValue(cache: ReferenceCache, field: string, raw: string, def: ReleaseFeatureDef) {
  try {
    return parseReleaseValue(cache.release, field, raw, def);
  } catch (err) {
    if (err instanceof AppError) throw new ItemError(field, err.message);
    throw err;
  }
}

/** What a record's class says of the ETIM class version and DYNAMIC model date (kept as given, when given). */
function etimFacts(c: NonNullable<UpsertRecord['classification']>['classes'][number]) {
  return {
    ...(c.classVersion != null ? { classVersion: c.classVersion } : {}),
    ...(c.dynamicReleaseDate ? { dynamicReleaseDate: c.dynamicReleaseDate } : {}),
  };
}

/** A record's classification checked against the reference data (tolerant with `warn`: docs/import.md, "Field problems"). */
export function resolveClassification(
  cache: ReferenceCache,
  classification: NonNullable<UpsertRecord['classification']>,
  warn?: WarnFn,
): NonNullable<ResolvedNode['classification']> {
  const classes: NonNullable<ResolvedNode['classification']>['classes'] = [];
  for (const c of classification.classes) {
    const group = (c.group as ClassificationGroup | null | undefined) ?? groupOfSystem(c.system);
    if (!group)
      throw new ItemError(
        'classification.classes',
        `"${c.system ?? ''}" is not a classification system of this service (${CLASSIFICATION_GROUPS.join(', ')})`,
      );
    if (classes.some((k) => k.group === group)) {
      if (!warn) throw new ItemError('classification.classes', 'at most one class per classification group');
      warn(
        'classification.classes',
        'class_extra',
        `a second ${group} class ${c.code} is left out (one class per system)`,
      );
      continue;
    }
    const release = c.release ?? releaseOfSystem(c.system);
    if (c.release || (release && cache.release.releases.includes(release) && groupOfRelease(release) === group)) {
      const kept = c.release
        ? releaseClass(cache, group, { code: c.code, release: c.release, system: c.system }, undefined)
        : releaseClass(cache, group, { code: c.code, release: release! }, warn);
      if (kept) {
        classes.push({ ...kept, ...etimFacts(c) });
        continue;
      }
      warn!(
        'classification.classes',
        'class_unverified',
        `${release} class ${c.code} is not in the loaded release: kept verbatim as unverified, its features as text`,
      );
      classes.push({ group, system: c.system || group, code: c.code, unverified: true, ...etimFacts(c) });
      continue;
    }
    const ref = cache.classOf(group, c.code);
    if (!ref) {
      if (!warn) throw new ItemError('classification.classes', `${c.code} is not a known ${group} class`);
      warn(
        'classification.classes',
        'class_unverified',
        `${c.system ?? group} class ${c.code} is not in the loaded reference data: kept verbatim as unverified, its features as text`,
      );
      classes.push({ group, system: c.system || group, code: c.code, unverified: true, ...etimFacts(c) });
      continue;
    }
    classes.push({ group, system: ref.system, code: c.code, ...etimFacts(c) });
  }
  const features: NonNullable<ResolvedNode['classification']>['features'] = [];
  for (const f of classification.features) {
    const field = `classification.features.${f.code}`;
    const owners = classes.filter(
      (c) =>
        (!f.group || f.group === c.group) &&
        !c.unverified &&
        (c.release
          ? releaseFeature(cache.release, c.release, c.code, f.code) !== undefined
          : cache.featuresOfClass(c.group, c.code).has(f.code)),
    );
    // Tolerant: a feature of an unverified class, or one its class does not list, is kept as the file's text.
    const keptAs = warn && owners.length === 0 ? classes.find((c) => !f.group || f.group === c.group) : undefined;
    if (warn && owners.length === 0 && keptAs) {
      if (features.some((k) => k.group === keptAs.group && k.code === f.code)) {
        warn(field, 'feature_dropped', `${f.code} is given twice; the first value is kept`);
        continue;
      }
      if (!keptAs.unverified)
        warn(
          field,
          'feature_unverified',
          `${f.code} is not a feature of ${keptAs.code} in the reference data: kept verbatim as unverified`,
        );
      // The file's unit is kept with it: no reference data gives one (issue 32; restored from history too).
      features.push({ group: keptAs.group, code: f.code, value: f.value, unit: keptUnit(f.unit), unverified: true });
      continue;
    }
    if (owners.length === 0) {
      if (warn) {
        warn(field, 'feature_dropped', `${f.code} has no class of its system in the file: left out`);
        continue;
      }
      throw new ItemError(
        'classification.features',
        `${f.code} is not a feature of the classes of this classification`,
      );
    }
    if (owners.length > 1) throw new ItemError('classification.features', `${f.code} is ambiguous; name its group`);
    const group = owners[0]!.group;
    if (features.some((k) => k.group === group && k.code === f.code)) {
      if (!warn) throw new ItemError('classification.features', `${f.code} is given twice`);
      warn(field, 'feature_dropped', `${f.code} is given twice; the first value is kept`);
      continue;
    }
    const owner = owners[0]!;
    // A feature without value (`-`, its reason in FVALUE_DETAILS / ReasonNoValue) fits every type.
    if (f.value === NO_FEATURE_VALUE) {
      features.push({ group, code: f.code, value: NO_FEATURE_VALUE, unit: null });
      continue;
    }
    if (owner.release) {
      const def = releaseFeature(cache.release, owner.release, owner.code, f.code)!;
      try {
        const parsed = releaseValue(cache, field, asRange(def.type === 'R', f.value), def);
        features.push({ group, code: f.code, value: parsed.value, unit: parsed.unit });
      } catch (err) {
        if (!warn || !(err instanceof ItemError)) throw err;
        warn(field, 'feature_value_text', `${err.message}: "${f.value}" kept as text (unverified)`);
        features.push({ group, code: f.code, value: f.value, unit: def.unit, unverified: true });
      }
      continue;
    }
    const feature = cache.feature(group, f.code);
    if (!feature) throw new ItemError('classification.features', `${f.code}: unknown ${group} feature`);
    try {
      const parsed = parse(field, asRange(feature.type === 'R', f.value), featureRule(feature, feature.enumValues));
      features.push({ group, code: f.code, value: parsed.value, unit: feature.unit });
    } catch (err) {
      if (!warn || !(err instanceof ItemError)) throw err;
      warn(field, 'feature_value_text', `${err.message}: "${f.value}" kept as text (unverified)`);
      features.push({ group, code: f.code, value: f.value, unit: feature.unit, unverified: true });
    }
  }
  const groups = classes.reduce((mask, c) => mask | groupBit(c.group), 0);
  return { groups, classes, features };
}
