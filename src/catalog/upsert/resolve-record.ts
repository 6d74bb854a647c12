import { AppError } from '../../http/app-error';
import type { ClassificationGroup } from '../../classification/groups';
import { featureRule } from '../../classification/feature-values';
import { MEDIA_PURPOSES } from '../../media/media';
import { builtInField } from '../fields';
import { parseValue, type ParsedValue, type ValueRule } from '../value-types';
import { groupOfSystem, type ReferenceCache } from './reference-cache';
import { ItemError, type UpsertRecord } from './upsert-types';
import { CLASSIFICATION_GROUPS, groupBit } from '../../classification/groups';

/** One product or variant as it should be stored: every value parsed and normalised. */
export interface ResolvedNode {
  sku: string;
  parentSku: string | null;
  /** Columns of `products` to set (drizzle property names), null clearing them. */
  fields: Record<string, string | number | null>;
  categoryIds?: string[];
  values?: {
    attributeId: string;
    code: string;
    value: string;
    numberValue: number | null;
    numberValueTo: number | null;
  }[];
  classification?: {
    groups: number;
    classes: { group: ClassificationGroup; system: string; code: string; unverified?: boolean }[];
    features: { group: ClassificationGroup; code: string; value: string; unit: string | null; unverified?: boolean }[];
  } | null;
  media?: { fileName: string; contentType: string; purpose: string; description: string | null }[];
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  xml: 'application/xml',
  html: 'text/html',
  htm: 'text/html',
  txt: 'text/plain',
};

/** A media reference's content type: as given, else from the file name's extension. */
export function contentTypeOf(fileName: string, given?: string | null): string {
  if (given && /^[\w.+-]+\/[\w.+-]+$/.test(given)) return given.toLowerCase();
  return CONTENT_TYPES[fileName.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** BMEcat 1.2 writes a range whose ends are equal as one FVALUE: "5" is the range 5..5. */
const asRange = (isRange: boolean, raw: string) => (isRange && !raw.includes('..') ? `${raw}..${raw}` : raw);

/** parseValue, with its 400 turned into an item error naming `field`. */
function parse(field: string, raw: string, rule: ValueRule): ParsedValue {
  try {
    return parseValue(field, raw, rule);
  } catch (err) {
    if (err instanceof AppError) throw new ItemError(field, err.message);
    throw err;
  }
}

/** The groups and codes a record's classification names, for ReferenceCache.prefetch. */
export function classesNeeded(record: UpsertRecord): { group: ClassificationGroup; code: string }[] {
  return (record.classification?.classes ?? []).flatMap((c) => {
    const group = (c.group as ClassificationGroup | null | undefined) ?? groupOfSystem(c.system);
    return group ? [{ group, code: c.code }] : [];
  });
}

/**
 * A tolerant resolve (imports without `strict`): instead of throwing, a field problem is
 * reported here and the documented rule applied (docs/import.md, "Field problems").
 */
export type WarnFn = (field: string, code: WarningCode, message: string) => void;

/** Kinds of field problems a tolerant resolve reports (the import report groups by them). */
export type WarningCode =
  | 'field_invalid'
  | 'field_truncated'
  | 'attribute_unknown'
  | 'attribute_invalid'
  | 'class_unverified'
  | 'class_extra'
  | 'feature_unverified'
  | 'feature_value_text'
  | 'feature_dropped';

function resolveClassification(
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
    const ref = cache.classOf(group, c.code);
    if (!ref) {
      if (!warn) throw new ItemError('classification.classes', `${c.code} is not a known ${group} class`);
      warn(
        'classification.classes',
        'class_unverified',
        `${c.system ?? group} class ${c.code} is not in the loaded reference data: kept verbatim as unverified, its features as text`,
      );
      classes.push({ group, system: c.system || group, code: c.code, unverified: true });
      continue;
    }
    classes.push({ group, system: ref.system, code: c.code });
  }
  const features: NonNullable<ResolvedNode['classification']>['features'] = [];
  for (const f of classification.features) {
    const field = `classification.features.${f.code}`;
    const owners = classes.filter(
      (c) => (!f.group || f.group === c.group) && cache.featuresOfClass(c.group, c.code).has(f.code),
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
      features.push({ group: keptAs.group, code: f.code, value: f.value, unit: null, unverified: true });
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

/** A text field's value cut to its maximum length (tolerant resolve). */
function truncated(raw: string, rule: ValueRule): string | null {
  if (rule.type !== 'text' || !rule.maxLength || [...raw].length <= rule.maxLength) return null;
  const cut = [...raw].slice(0, rule.maxLength).join('');
  return rule.check?.(cut) ? null : cut;
}

/**
 * Checks and normalises one record with the rules SetValue uses (built-in fields from
 * catalog/fields.ts, attribute types, classification reference data). Throws ItemError.
 */
export function resolveRecord(cache: ReferenceCache, record: UpsertRecord, warn?: WarnFn): ResolvedNode {
  const sku = parse('sku', record.sku, builtInField('product', 'sku')!.rule).value;
  const fields: Record<string, string | number | null> = {};
  for (const [key, raw] of Object.entries(record.fields)) {
    if (raw === undefined) continue;
    const field = builtInField('product', key)!;
    if (raw === null || raw === '') {
      if (field.required) throw new ItemError(key, 'must not be empty');
      fields[field.column] = null;
      continue;
    }
    let parsed: ParsedValue;
    try {
      parsed = parse(key, raw, field.rule);
    } catch (err) {
      if (!warn || !(err instanceof ItemError) || field.required) throw err;
      const cut = truncated(raw, field.rule);
      if (cut !== null) {
        warn(key, 'field_truncated', `${err.message}: cut to ${[...cut].length} characters`);
        parsed = parse(key, cut, field.rule);
      } else {
        warn(key, 'field_invalid', `${err.message}: "${raw.slice(0, 60)}" is not stored`);
        fields[field.column] = null;
        continue;
      }
    }
    fields[field.column] = field.rule.type === 'integer' ? parsed.number : parsed.value;
  }
  const node: ResolvedNode = { sku, parentSku: record.parentSku ?? null, fields };
  if (record.categoryIds) {
    if (node.parentSku) throw new ItemError('categoryIds', 'variants are placed through their master product');
    node.categoryIds = [...new Set(record.categoryIds)];
  }
  if (record.values) {
    node.values = [];
    for (const [code, raw] of Object.entries(record.values)) {
      const attribute = cache.attribute(code);
      if (!attribute) {
        const message = `"${code}" is not an attribute of your company (GetAttributes)`;
        if (!warn) throw new ItemError(`values.${code}`, message);
        warn(`values.${code}`, 'attribute_unknown', `${message}: value "${raw.slice(0, 60)}" left out`);
        continue;
      }
      if (raw === '') continue;
      let parsed: ParsedValue;
      try {
        parsed = parse(`values.${code}`, asRange(attribute.type === 'range', raw), {
          type: attribute.type,
          unit: attribute.unit,
          enumValues: attribute.enumValues,
        });
      } catch (err) {
        if (!warn || !(err instanceof ItemError)) throw err;
        warn(`values.${code}`, 'attribute_invalid', `${err.message}: "${raw.slice(0, 60)}" left out`);
        continue;
      }
      node.values.push({
        attributeId: attribute.id,
        code,
        value: parsed.value,
        numberValue: parsed.number,
        numberValueTo: parsed.numberTo,
      });
    }
  }
  if (record.classification !== undefined) {
    node.classification =
      record.classification === null || record.classification.classes.length === 0
        ? null
        : resolveClassification(cache, record.classification, warn);
    // Tolerant: every class left out leaves no classification.
    if (node.classification?.classes.length === 0) node.classification = null;
  }
  if (record.media) {
    const seen = new Set<string>();
    node.media = [];
    for (const m of record.media) {
      if (!/^[^/\\\u0000-\u001f]{1,200}$/.test(m.fileName))
        throw new ItemError('media', `"${m.fileName.slice(0, 40)}" is not a file name`);
      if (seen.has(m.fileName)) continue;
      seen.add(m.fileName);
      const purpose =
        m.purpose && (MEDIA_PURPOSES as readonly string[]).includes(m.purpose)
          ? m.purpose
          : m.purpose
            ? 'others'
            : 'normal';
      node.media.push({
        fileName: m.fileName,
        contentType: contentTypeOf(m.fileName, m.contentType),
        purpose,
        description: m.description || null,
      });
    }
  }
  return node;
}
