import type { RecordTranslations, UpsertRecord } from '../../catalog/upsert/upsert-types';
import type { FeatureBlockInput, StoredFeature } from '../../model/feature-block-types';
import { detailsField, NO_FEATURE_VALUE, REASONS_NO_VALUE } from '../../model/translation-store';
import type { FileWarning } from './record-actions';
import { xchangeFeatureValue } from './xchange-features';
import { xchangeTexts, type XChangeLanguages } from './xchange-languages';
import { xchangeModellingBlock } from './xchange-modelling';

type Json = Record<string, any>;

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** What an EtimClassification entry carries that the model keeps (the rest is reported by name). */
const CLASS_KEYS = new Set([
  'EtimReleaseVersion',
  'EtimClassCode',
  'EtimClassVersion',
  'EtimDynamicReleaseDate',
  'EtimFeatures',
  'EtimModellingClassCode',
  'EtimModellingClassVersion',
  'EtimModellingPorts',
]);
const FEATURE_KEYS = new Set([
  'EtimFeatureCode',
  'EtimValueCode',
  'EtimValueNumeric',
  'EtimValueRangeLower',
  'EtimValueRangeUpper',
  'EtimValueLogical',
  'EtimValueDetails',
  'ReasonNoValue',
]);

export interface XChangeClassification {
  classification: UpsertRecord['classification'];
  /** The ETIM modelling class of the product's (first) ETIM class, as an ETIM-MC block; empty without one. */
  modelling: FeatureBlockInput[];
  /** OtherClassifications of systems the model does not classify by (UNSPSC, a supplier's own ...), as blocks of other feature systems. */
  others: FeatureBlockInput[];
}

/**
 * What the supplier classified against: `EtimClassVersion` (a whole number ≥ 1) and, for the
 * DYNAMIC release, `EtimDynamicReleaseDate` (YYYY-MM-DD), kept with the class; a value that does
 * not read is reported (`class_field_dropped`).
 */
function classFacts(c: Json, at: string, warn: (code: string, message: string, path: string) => void) {
  const version = c.EtimClassVersion;
  const date = str(c.EtimDynamicReleaseDate);
  const versionOk = Number.isInteger(version) && version >= 1;
  const dateOk = date !== null && /^\d{4}-\d{2}-\d{2}$/.test(date);
  if (version !== undefined && !versionOk)
    warn(
      'class_field_dropped',
      `EtimClassVersion "${String(version).slice(0, 12)}" is not a whole number ≥ 1: not kept`,
      at,
    );
  if (date !== null && !dateOk)
    warn('class_field_dropped', `EtimDynamicReleaseDate "${date.slice(0, 20)}" is not a date YYYY-MM-DD: not kept`, at);
  return {
    ...(versionOk ? { classVersion: version as number } : {}),
    ...(dateOk ? { dynamicReleaseDate: date! } : {}),
  };
}

/**
 * ETIM classification (ReleaseVersion 9.0 → system ETIM-9.0) and its features as the BMEcat
 * import stores them, the modelling class as an ETIM-MC feature block (xchange-modelling.ts),
 * and eCl@ss / proficl@ss from OtherClassifications. A feature's EtimValueDetails go to
 * `translations` as `details.ETIM.<code>`: the other languages' always, the catalog language's
 * beside a typed value (an alphanumeric value is that text). A feature without value
 * (ReasonNoValue MV / NA / UN) is stored as BMEcat's ETIM guideline writes it: value `-` with
 * the reason as its details text in the catalog's language. Whatever cannot be held is
 * reported naming the field.
 */
export function xchangeClassificationOf(
  product: Json,
  primary: string,
  languages: XChangeLanguages,
  translations: RecordTranslations,
  warnings: FileWarning[],
): XChangeClassification {
  const warn = (code: string, message: string, path: string) => warnings.push({ code, message, line: 0, path });
  const classes: NonNullable<UpsertRecord['classification']>['classes'] = [];
  const features: NonNullable<UpsertRecord['classification']>['features'] = [];
  const modelling: FeatureBlockInput[] = [];
  const others: FeatureBlockInput[] = [];
  const own = (field: string, text: string) => ((translations[languages.catalogLanguage] ??= {})[field] = text);
  list(product.EtimClassification).forEach((c, ci) => {
    const at = `.EtimClassification[${ci}]`;
    const code = str(c.EtimClassCode);
    if (!code) {
      warn('class_dropped', 'EtimClassification without EtimClassCode: left out with its features', at);
      return;
    }
    for (const key of Object.keys(c))
      if (!CLASS_KEYS.has(key)) warn('class_field_dropped', `${key} of ETIM class ${code} is not kept`, at);
    classes.push({
      group: 'ETIM',
      system: `ETIM-${str(c.EtimReleaseVersion) ?? 'DYNAMIC'}`,
      code,
      ...classFacts(c, at, warn),
    });
    list(c.EtimFeatures).forEach((f, fi) => {
      const path = `${at}.EtimFeatures[${fi}]`;
      const featureCode = str(f.EtimFeatureCode);
      if (!featureCode) {
        warn('feature_without_code', 'feature without EtimFeatureCode left out', path);
        return;
      }
      for (const key of Object.keys(f))
        if (!FEATURE_KEYS.has(key)) warn('feature_field_dropped', `${key} of feature ${featureCode} is not kept`, path);
      const value = xchangeFeatureValue(f, primary);
      const reason = str(f.ReasonNoValue);
      const field = detailsField('ETIM', featureCode);
      const details = xchangeTexts(list(f.EtimValueDetails), 'Language', languages);
      if (value !== null) {
        features.push({ group: 'ETIM', code: featureCode, value });
        if (reason)
          warn('feature_reason_dropped', `ReasonNoValue of feature ${featureCode} beside a value left out`, path);
        const ownText = str(details.own?.EtimValueDetails);
        if (ownText && ownText !== value) own(field, ownText);
      } else if (reason) {
        features.push({ group: 'ETIM', code: featureCode, value: NO_FEATURE_VALUE });
        if ((REASONS_NO_VALUE as readonly string[]).includes(reason)) own(field, reason);
        else
          warn(
            'feature_reason_unknown',
            `ReasonNoValue "${reason.slice(0, 20)}" of feature ${featureCode} is not MV, NA or UN: kept without value, the reason left out`,
            path,
          );
      } else {
        warn('feature_without_value', `feature ${featureCode} has no value`, path);
        return;
      }
      for (const [language, d] of details.others) {
        const text = str(d.EtimValueDetails);
        if (text) (translations[language] ??= {})[field] = text;
      }
    });
    const block = xchangeModellingBlock(c, at, warnings);
    if (block && modelling.length > 0)
      warn('modelling_dropped', `modelling class ${block.groupId} of a further ETIM class left out`, at);
    else if (block) modelling.push(block);
  });
  list(product.OtherClassifications).forEach((c, ci) => {
    const at = `.OtherClassifications[${ci}]`;
    const written = String(c.ClassificationName ?? '').trim();
    const name = written.toUpperCase().replace(/[^A-Z]/g, '');
    const group = name.startsWith('ECLASS') ? 'ECLASS' : name.startsWith('PROFICLASS') ? 'PROFICLASS' : null;
    const code = str(c.ClassificationClassCode);
    if (!code) {
      warn('class_dropped', `${written} classification without ClassificationClassCode left out`, at);
      return;
    }
    if (!group) {
      others.push(otherSystemBlock(c, code, at, warn));
      return;
    }
    const version = str(c.ClassificationVersion);
    classes.push({ group, system: version ? `${group}-${version}` : group, code });
    list(c.ClassificationFeatures).forEach((f, fi) => {
      const [v1, v2] = [str(f.ClassificationFeatureValue1), str(f.ClassificationFeatureValue2)];
      const featureName = str(f.ClassificationFeatureName);
      const unit = str(f.ClassificationFeatureUnit);
      // The unit rides along: the upsert keeps it only for a value no reference data confirms (kept as text).
      if (featureName && v1)
        features.push({ group, code: featureName, value: v2 ? `${v1}..${v2}` : v1, ...(unit ? { unit } : {}) });
      else
        warn(
          'feature_without_value',
          `${written} feature ${featureName ?? 'without ClassificationFeatureName'} has no value: left out`,
          `${at}.ClassificationFeatures[${fi}]`,
        );
    });
  });
  return { classification: classes.length > 0 ? { classes, features } : null, modelling, others };
}

/**
 * An OtherClassifications entry of a system the model does not classify by as a block of another
 * feature system, as the BMEcat import keeps such a PRODUCT_FEATURES block: system
 * "name-version", the class code as REFERENCE_FEATURE_GROUP_ID, each feature with its values and
 * unit (consecutive entries of one name with one value each are one feature of several values, as
 * the export writes them). A feature without name or value is reported.
 */
function otherSystemBlock(
  c: Json,
  code: string,
  at: string,
  warn: (code: string, message: string, path: string) => void,
): FeatureBlockInput {
  const name = str(c.ClassificationName) ?? 'UNNAMED';
  const version = str(c.ClassificationVersion);
  const features: StoredFeature[] = [];
  let joinable: StoredFeature | null = null;
  list(c.ClassificationFeatures).forEach((f, fi) => {
    const featureName = str(f.ClassificationFeatureName);
    const values = [str(f.ClassificationFeatureValue1), str(f.ClassificationFeatureValue2)].filter(
      (v): v is string => v !== null,
    );
    if (!featureName || values.length === 0) {
      warn(
        'feature_without_value',
        `${name} feature ${featureName ?? 'without ClassificationFeatureName'} has no value: left out`,
        `${at}.ClassificationFeatures[${fi}]`,
      );
      return;
    }
    const unit = str(f.ClassificationFeatureUnit);
    if (joinable?.name === featureName && values.length === 1 && joinable.unit === (unit ?? undefined)) {
      joinable.values!.push(values[0]!);
      return;
    }
    const feature: StoredFeature = { name: featureName, values, ...(unit ? { unit } : {}) };
    features.push(feature);
    joinable = values.length === 1 ? feature : null;
  });
  return { system: version ? `${name}-${version}` : name, groupId: code, features };
}
