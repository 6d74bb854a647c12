import type { ProductNode } from '../../model/product-aggregate';
import type { ExportWarnings } from '../export-warnings';
import type { BmecatPlan } from './plan';
import { fitText } from './xml-text';
import { planLanguages } from './localized-out';
import { detailsField } from '../../model/translation-store';

/** FNAME and FVALUE are at most 60 characters in every BMEcat schema. */
const FEATURE_TEXT_MAX = 60;

/**
 * REFERENCE_FEATURE_SYSTEM_NAME of the block that carries the company's own attributes. Not
 * `udf_...`: XSD's `\w` excludes the underscore, so the schema pattern only admits the literal
 * placeholder `udf_NAME-x.y`.
 */
export const ATTRIBUTE_SYSTEM = 'PIM-ATTRIBUTES-1.0';

/** System names must match `[\w\-\.]{1,80}` in XSD terms; ASCII letters, digits, `-` and `.` are safe. */
export function systemName(system: string, subject: string, warnings: ExportWarnings): string {
  if (/^[A-Za-z0-9.-]{1,50}$/.test(system)) return system;
  warnings.add(
    `classification system name "${system.slice(0, 40)}" has characters the schema forbids: replaced by "-"`,
    subject,
  );
  return system.replace(/[^A-Za-z0-9.-]/g, '-').slice(0, 50) || 'UNKNOWN';
}

interface FeatureOut {
  name: string;
  values: string[];
  unit: string | null;
  /** FVALUE_DETAILS, one per language that has a text (`lang` set when the file has several languages). */
  details?: { text: string; lang?: string }[];
}

/** One PRODUCT_FEATURES block: a classification system with its class, or the company's attributes. */
export interface FeatureBlock {
  system: string;
  /** ETIM / ECLASS / PROFICLASS, or null for the attribute block. */
  group: string | null;
  /** REFERENCE_FEATURE_GROUP_ID: the class code (EC..., eCl@ss class); null for attributes. */
  classCode: string | null;
  /** ETIM: the class version and DYNAMIC model date the supplier classified against (the xChange export writes them). */
  classVersion?: number;
  dynamicReleaseDate?: string;
  /** The class is kept verbatim, no reference data confirms it: its features' units are the file's own. */
  unverified?: true;
  features: FeatureOut[];
}

/**
 * A dialect that writes no unit for ETIM features (the ETIM profile, xChange: both derive it
 * from the ETIM model) loses a unit only where the model is not behind it: a feature of an
 * unverified class, whose unit is the supplier file's. That loss is reported.
 */
export function reportEtimFileUnits(block: FeatureBlock, format: string, subject: string, w: ExportWarnings): void {
  if (block.group === 'ETIM' && block.unverified && block.features.some((f) => f.unit))
    w.add(
      `feature block ${block.system}: the file's FUNIT of a feature of an unverified ETIM class left out (${format} takes units from the ETIM model)`,
      subject,
    );
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * FVALUEs of a stored value as the ETIM BMEcat guideline writes them: a range "min..max"
 * becomes two FVALUEs (min, then max), a logical value is lowercase `true`/`false`, an
 * enumerated value is its EV code as stored, a number is the decimal string as stored.
 * `distinct` writes a degenerate range (min = max) once: BMEcat 1.2 requires distinct FVALUEs.
 */
export function featureValues(value: string, type: string | null, distinct = false): string[] {
  const parts = value.split('..');
  const isRange = parts.length === 2 && NUMBER.test(parts[0]!) && NUMBER.test(parts[1]!);
  if (isRange && (type === null || type === 'range')) {
    return distinct && parts[0] === parts[1] ? [parts[0]!] : [parts[0]!, parts[1]!];
  }
  if ((type === null || type === 'boolean') && /^(true|false)$/i.test(value)) return [value.toLowerCase()];
  return [value];
}

function fitFeature(
  raw: { code: string; value: string; unit: string | null; type: string | null },
  plan: BmecatPlan,
  subject: string,
  warnings: ExportWarnings,
): FeatureOut | null {
  const name = fitText(raw.code, FEATURE_TEXT_MAX, { ellipsis: false });
  if (!name.text) return null;
  if (name.truncated) warnings.add(`feature code longer than ${FEATURE_TEXT_MAX} characters cut in FNAME`, subject);
  // BMEcat 1.2 declares FVALUEs unique within a FEATURE; 2005 and the ETIM guideline keep both ends of a range.
  const distinct = plan.format === 'BMEcat12';
  const values: string[] = [];
  for (const v of featureValues(raw.value, raw.type, distinct)) {
    const fitted = fitText(v, FEATURE_TEXT_MAX);
    if (fitted.truncated) warnings.add(`feature value cut to ${FEATURE_TEXT_MAX} characters (FVALUE)`, subject);
    if (fitted.text && !(distinct && values.includes(fitted.text))) values.push(fitted.text);
  }
  if (values.length === 0) return null;
  // FUNIT is at most 20 characters; a supplier's own unit of an unverified feature may be longer.
  const unit = raw.unit?.trim() || null;
  if (unit && unit.length > 20) warnings.add('feature unit cut to 20 characters (FUNIT)', subject);
  return { name: name.text, values, unit: unit ? unit.slice(0, 20) : null };
}

/** FVALUE_DETAILS is at most 250 characters in every BMEcat schema. */
const DETAILS_MAX = 250;

/**
 * A classification feature with its FVALUE_DETAILS in each language of the file, from the
 * `details.<GROUP>.<code>` translations (every language, the default too: the field has no
 * column). A language without a text is left out; a one-language file writes no `lang`.
 */
function withDetails(
  out: FeatureOut | null,
  feature: { group: string; code: string },
  owner: ProductNode,
  plan: BmecatPlan,
): FeatureOut | null {
  if (!out) return out;
  const languages = planLanguages(plan);
  const field = detailsField(feature.group, feature.code);
  const details = languages.flatMap((language) => {
    const text = fitText(owner.translations?.[language]?.[field] ?? '', DETAILS_MAX).text;
    return text ? [{ text, ...(languages.length > 1 ? { lang: language } : {}) }] : [];
  });
  return details.length > 0 ? { ...out, details } : out;
}

/** Drops empty features and repeated FNAMEs (possible once long codes are cut); BMEcat 1.2 requires unique FNAMEs. */
function uniqueByName(features: (FeatureOut | null)[]): FeatureOut[] {
  const byName = new Map<string, FeatureOut>();
  for (const f of features) if (f && !byName.has(f.name)) byName.set(f.name, f);
  return [...byName.values()];
}

/**
 * The PRODUCT_FEATURES blocks of a product: one per classification system the template selects
 * (the system name comes from the reference data, e.g. ETIM-9.0), then, if enabled, one block
 * of the company's own attributes. With `master` given (a variant that inherits), a variant
 * without classification takes its master's, and master attribute values fill its gaps.
 */
export function featureBlocks(
  node: ProductNode,
  master: ProductNode | null,
  plan: BmecatPlan,
  subject: string,
  warnings: ExportWarnings,
): FeatureBlock[] {
  // The free texts of feature values belong to the node whose classification is written.
  const owner = node.classification ? node : master;
  const classification = owner?.classification ?? null;
  const blocks: FeatureBlock[] = [];
  for (const cls of classification?.classes ?? []) {
    if (!plan.systems.includes(cls.group as never)) continue;
    const features = classification!.features
      .filter((f) => f.group === cls.group)
      .map((f) => withDetails(fitFeature({ ...f, type: null }, plan, subject, warnings), f, owner!, plan));
    blocks.push({
      system: systemName(cls.system, subject, warnings),
      group: cls.group,
      classCode: cls.code,
      ...(cls.classVersion !== undefined ? { classVersion: cls.classVersion } : {}),
      ...(cls.dynamicReleaseDate !== undefined ? { dynamicReleaseDate: cls.dynamicReleaseDate } : {}),
      ...(cls.unverified ? { unverified: true as const } : {}),
      features: uniqueByName(features),
    });
  }
  if (plan.includeAttributes) {
    const byCode = new Map((master?.values ?? []).map((v) => [v.code, v]));
    for (const v of node.values) byCode.set(v.code, v);
    const features = [...byCode.values()]
      .sort((a, b) => (a.code < b.code ? -1 : 1))
      .map((v) => fitFeature(v, plan, subject, warnings));
    const unique = uniqueByName(features);
    if (unique.length > 0) blocks.push({ system: ATTRIBUTE_SYSTEM, group: null, classCode: null, features: unique });
  }
  return blocks;
}
