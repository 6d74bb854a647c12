import type { ExportWarnings } from '../export-warnings';
import { detailsField, NO_FEATURE_VALUE, REASONS_NO_VALUE } from '../../model/translation-store';
import { MODELLING_SYSTEM } from '../../model/feature-block-types';
import { modellingClass } from './xchange-modelling';
import { type FeatureBlock, reportEtimFileUnits } from '../bmecat/feature-blocks';
import type { ProductView } from '../bmecat/product-view';
import type { StoredFeatureBlock } from '../../model/feature-block-types';
import { fieldTexts, perLanguage } from './xchange-languages';
import type { XChangePlan } from './xchange-plan';
import { ETIM_CLASS_CODE, ETIM_FEATURE_CODE, ETIM_RELEASE, ETIM_VALUE_CODE, XCHANGE_NUMBER } from './xchange-codes';

type Json = Record<string, unknown>;

/** "ETIM-9.0" → "9.0", "ETIM-DYNAMIC" → "DYNAMIC"; null when the system names no release. */
export function etimRelease(system: string): string | null {
  const m = /^ETIM[-_ ]?(.*)$/i.exec(system.trim());
  const version = (m ? m[1]! : system).toUpperCase();
  if (/^[0-9]{1,2}$/.test(version)) return `${version}.0`;
  return ETIM_RELEASE.test(version) ? version : null;
}

/**
 * The typed value of one ETIM feature, from the values a feature block carries (a range is two
 * values): an EV code, a logical, a number, a range, a reason for no value; null for anything
 * else, an alphanumeric text, which xChange holds in EtimValueDetails. Units are not written:
 * xChange derives them from the ETIM model, so the stored unit must already be the class's.
 */
export function etimValue(values: string[]): Json | null {
  const [first, second] = values as [string, string | undefined];
  if (second !== undefined && XCHANGE_NUMBER.test(first) && XCHANGE_NUMBER.test(second))
    return { EtimValueRangeLower: first, EtimValueRangeUpper: second };
  if (ETIM_VALUE_CODE.test(first)) return { EtimValueCode: first };
  if (first === 'true' || first === 'false') return { EtimValueLogical: first === 'true' };
  if (XCHANGE_NUMBER.test(first)) return { EtimValueNumeric: first };
  if (/^(MV|NA|UN)$/.test(first)) return { ReasonNoValue: first };
  return null;
}

const isReason = (text: string | null | undefined): text is (typeof REASONS_NO_VALUE)[number] =>
  (REASONS_NO_VALUE as readonly (string | null | undefined)[]).includes(text);

/**
 * One ETIM feature as xChange types it. EtimValueDetails holds, per language of the file, the
 * feature's free text (`details.ETIM.<code>` translations, BMEcat's FVALUE_DETAILS); an
 * alphanumeric value is that text in the file's default language. A feature without value
 * (`-`, as the ETIM BMEcat guideline writes it) is ReasonNoValue: its details text in the
 * default language when that is MV, NA or UN, else UN (unknown), reported.
 */
export function etimFeature(
  plan: XChangePlan,
  view: ProductView,
  code: string,
  values: string[],
  w: ExportWarnings,
): Json {
  const texts = fieldTexts(plan, view.translationSources, detailsField('ETIM', code));
  if (values.length === 1 && values[0] === NO_FEATURE_VALUE) {
    if (isReason(texts[0])) return { EtimFeatureCode: code, ReasonNoValue: texts[0] };
    w.add(`feature without value and without a reason (MV, NA, UN): written as ReasonNoValue UN`, view.subject);
    return { EtimFeatureCode: code, ReasonNoValue: 'UN' };
  }
  const typed = etimValue(values);
  if (!typed) texts[0] = values.join(' ');
  const details = perLanguage(plan, texts, `EtimValueDetails of ${code}`, view.subject, w, (text, tag) => ({
    Language: tag,
    EtimValueDetails: text.slice(0, 255),
  }));
  return { EtimFeatureCode: code, ...typed, EtimValueDetails: details.length > 0 ? details : undefined };
}

/** `EtimClassification` entries of a product's ETIM feature blocks; what the schema cannot hold is reported. */
export function etimClassifications(plan: XChangePlan, view: ProductView, w: ExportWarnings): Json[] {
  const { blocks, subject } = view;
  const out: Json[] = [];
  // The modelling class goes with the product's ETIM class: the first ETIM-MC block.
  let modelling = view.otherBlocks.find((b) => b.system === MODELLING_SYSTEM);
  if (view.otherBlocks.filter((b) => b.system === MODELLING_SYSTEM).length > 1)
    w.add('more than one ETIM modelling class: the first written', subject);
  for (const block of blocks) {
    if (block.group !== 'ETIM' || !block.classCode) continue;
    const release = etimRelease(block.system);
    if (!release || !ETIM_CLASS_CODE.test(block.classCode)) {
      w.add(
        `ETIM class ${block.classCode} of system ${block.system} is not an xChange class code and release: left out`,
        subject,
      );
      continue;
    }
    reportEtimFileUnits(block, 'ETIM xChange', subject, w);
    const features = block.features.filter((f) => {
      if (ETIM_FEATURE_CODE.test(f.name)) return true;
      w.add(`feature code ${f.name} is not an ETIM feature code: left out`, subject);
      return false;
    });
    out.push({
      EtimReleaseVersion: release,
      EtimClassCode: block.classCode,
      // What the supplier classified against, as an import kept it (xchange-classes.ts).
      EtimClassVersion: block.classVersion,
      EtimDynamicReleaseDate: release === 'DYNAMIC' ? block.dynamicReleaseDate : undefined,
      EtimFeatures: features.length > 0 ? features.map((f) => etimFeature(plan, view, f.name, f.values, w)) : undefined,
      ...(modelling ? modellingClass(modelling, subject, w) : {}),
    });
    modelling = undefined;
  }
  if (modelling)
    w.add('ETIM modelling class without an ETIM class left out (xChange writes it with the class)', subject);
  // Blocks of other feature systems are OtherClassifications (storedBlockClassifications).
  return out;
}

const cut = (text: string | null | undefined, max: number) => (text ? text.slice(0, max) : undefined);

/** `OtherClassifications` (eCl@ss, proficl@ss, ...) with their features, units and ranges. */
export function otherClassifications(blocks: FeatureBlock[]): Json[] {
  return blocks
    .filter((b) => b.group !== null && b.group !== 'ETIM' && b.classCode)
    .map((b) => {
      const [name, version] = splitSystem(b.system);
      const features = b.features.map((f) => ({
        ClassificationFeatureName: f.name.slice(0, 100),
        ClassificationFeatureValue1: f.values[0]!.slice(0, 100),
        ClassificationFeatureValue2: cut(f.values[1], 100),
        ClassificationFeatureUnit: cut(f.unit, 100),
      }));
      return {
        ClassificationName: name.slice(0, 35),
        ClassificationVersion: cut(version, 10),
        ClassificationClassCode: b.classCode!.slice(0, 100),
        ClassificationFeatures: features.length > 0 ? features : undefined,
      };
    });
}

/**
 * `OtherClassifications` of the product's blocks of other feature systems (product_feature_blocks:
 * what a BMEcat import kept of UNSPSC, eCl@ss Advanced, a supplier's own system ...): the system
 * as name and version, REFERENCE_FEATURE_GROUP_ID as the class code, each feature by its FNAME
 * (else FT_NAME / FT_ID) with its values (else its VALUE_IDREFs) and unit: one or two values in
 * one entry, more as one entry per value, which the import joins again. What xChange cannot hold
 * is reported, never dropped silently: a block without class code (the schema requires one), a
 * feature without value, a FEATURE_GROUP tree (written flat), texts beyond the schema's lengths.
 */
export function storedBlockClassifications(
  blocks: readonly StoredFeatureBlock[],
  subject: string,
  w: ExportWarnings,
): Json[] {
  const out: Json[] = [];
  for (const b of blocks) {
    if (b.system === MODELLING_SYSTEM) continue; // written with its ETIM class (etimClassifications)
    if (!b.groupId) {
      w.add(
        `feature block ${b.system || '(unnamed)'} left out: ETIM xChange requires a class code (ClassificationClassCode) and the block has none`,
        subject,
      );
      continue;
    }
    if ((b.featureGroups?.length ?? 0) > 0)
      w.add(`feature block ${b.system}: FEATURE_GROUPs written flat (xChange has no feature tree)`, subject);
    const [name, version] = splitSystem(b.system || 'UNNAMED');
    if (name.length > 35 || (version?.length ?? 0) > 10)
      w.add(`feature system name ${b.system} cut to xChange's 35 / 10 characters`, subject);
    const features: Json[] = [];
    for (const f of b.features) {
      const featureName = f.name ?? f.ftName ?? f.ftId!;
      const values = f.values && f.values.length > 0 ? f.values : (f.valueIdrefs ?? []);
      if (values.length === 0 || values[0]!.trim() === '') {
        w.add(
          `feature block ${b.system}: feature without value left out (xChange requires ClassificationFeatureValue1)`,
          subject,
        );
        continue;
      }
      if ([featureName, ...values, f.unit ?? ''].some((t) => t.length > 100))
        w.add(`feature block ${b.system}: feature name, value or unit cut to 100 characters`, subject);
      const entry = (value1: string, value2: string | undefined) => ({
        ClassificationFeatureName: featureName.slice(0, 100),
        ClassificationFeatureValue1: value1.slice(0, 100),
        ClassificationFeatureValue2: value2?.trim() ? value2.slice(0, 100) : undefined,
        ClassificationFeatureUnit: cut(f.unit, 100),
      });
      // Value2 is a range's upper end: more than two values are one entry per value (the import joins them again).
      if (values.length > 2) features.push(...values.map((v) => entry(v, undefined)));
      else features.push(entry(values[0]!, values[1]));
    }
    out.push({
      ClassificationName: name.slice(0, 35),
      ClassificationVersion: cut(version, 10),
      ClassificationClassCode: b.groupId.slice(0, 100),
      ClassificationFeatures: features.length > 0 ? features : undefined,
    });
  }
  return out;
}

/** "ECLASS-13.0" → ["ECLASS", "13.0"]; a system without version keeps its whole name. */
export function splitSystem(system: string): [string, string | null] {
  const m = /^(.*?)[-_ ]([0-9][0-9.]*)$/.exec(system);
  return m ? [m[1]!, m[2]!] : [system, null];
}
