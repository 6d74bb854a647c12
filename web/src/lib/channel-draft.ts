/**
 * The channel form's requirements as rows the form edits (pages/AdminChannels.tsx) and back to
 * AddChannel / UpdateChannel's `requirements` (docs/completeness.md "Requirements"). One text
 * box per row names what is required (a field, attribute code, media purpose, price type,
 * classification system or quality rule); the extras of a kind (at least N media, a release, the
 * share of features, a pattern rule's attribute and GLOB, a range rule's system, feature, bounds
 * and unit, the release of `releaseRanges`) are kept in their own columns; a row's limits
 * (`languages`, `categoryId`: pages/RequirementLimits.tsx) are sent only when set, so clearing
 * one removes it and editing a channel never drops one it did not touch.
 */
export const REQUIREMENT_KINDS = [
  'field',
  'attribute',
  'media',
  'price',
  'classification',
  'features',
  'quality',
] as const;
export type RequirementKind = (typeof REQUIREMENT_KINDS)[number];

/** The server's lists (src/completeness/requirements.ts), offered as choices. */
export const REQUIRABLE_FIELDS = [
  'name',
  'description',
  'keywords',
  'sku',
  'gtin',
  'manufacturerName',
  'manufacturerPid',
  'unit',
  'price',
  'priceQuantity',
  'deliveryTimeDays',
  'contentUnit',
  'contentPerUnit',
  'quantityMin',
  'quantityInterval',
] as const;
export const QUALITY_RULES = [
  'gtinCheckDigit',
  'gtinUnique',
  'bmecatLengths',
  'pattern',
  'range',
  'releaseRanges',
] as const;

export interface RequirementRow {
  kind: RequirementKind;
  /** What is required: field, attribute code, purpose, price type, system or rule. */
  target: string;
  /** media: at least this many (text, as typed). */
  min: string;
  /** classification and features: the release, empty for none. */
  release: string;
  /** features: all, or those the release marks mandatory. */
  share: 'all' | 'mandatory';
  /** quality `range` / `releaseRanges`: the classification system (the release is `release`). */
  system: string;
  /** quality `range`: the feature code, its bounds as typed (empty: no bound; `2,5` reads as 2.5) and unit. */
  feature: string;
  rangeMin: string;
  rangeMax: string;
  unit: string;
  /** quality `pattern`: the attribute and its GLOB pattern. */
  attribute: string;
  pattern: string;
  /** Only these of the channel's languages; none (or empty) is every language of the channel. */
  languages?: string[];
  /** Only products placed in this category or below it; none is every product. */
  categoryId?: string;
}

/** The row's language limit with one language checked or not; the last one unchecked lifts the limit. */
export function withLanguage(row: RequirementRow, code: string, checked: boolean): RequirementRow {
  const others = (row.languages ?? []).filter((c) => c !== code);
  const languages = checked ? [...others, code] : others;
  return { ...row, languages: languages.length ? languages : undefined };
}

/** The limits any requirement may carry: languages of the channel, a category subtree. */
type Scope = { languages?: string[]; categoryId?: string };

export type RequirementBody = Scope &
  (
    | { kind: 'field'; field: string }
    | { kind: 'attribute'; attribute: string }
    | { kind: 'media'; purpose: string; min?: number }
    | { kind: 'price'; priceType: string }
    | { kind: 'classification'; system: string; release?: string }
    | { kind: 'features'; system: string; release?: string; share?: 'all' | 'mandatory' }
    | {
        kind: 'quality';
        rule: string;
        attribute?: string;
        pattern?: string;
        system?: string;
        release?: string;
        feature?: string;
        min?: number;
        max?: number;
        unit?: string;
      }
  );

/** A new row of a kind, with the usual first choice (name, an image, net list prices, ETIM). */
export function newRow(kind: RequirementKind): RequirementRow {
  const target = {
    field: 'name',
    attribute: '',
    media: 'normal',
    price: 'net_list',
    classification: 'ETIM',
    features: 'ETIM',
    quality: 'gtinCheckDigit',
  }[kind];
  return {
    kind,
    target,
    min: '1',
    release: '',
    share: 'all',
    system: 'ETIM',
    feature: '',
    rangeMin: '',
    rangeMax: '',
    unit: '',
    attribute: '',
    pattern: '',
  };
}

/** A bound as typed, as a number: empty is none (undefined), `2,5` is 2.5, anything else NaN. */
export function boundOf(text: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return undefined;
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** A requirement as the API gave it, as a row. */
export function rowOf(r: RequirementBody): RequirementRow {
  const base = {
    ...newRow(r.kind),
    ...(r.languages?.length ? { languages: r.languages } : {}),
    ...(r.categoryId ? { categoryId: r.categoryId } : {}),
  };
  switch (r.kind) {
    case 'field':
      return { ...base, target: r.field };
    case 'attribute':
      return { ...base, target: r.attribute };
    case 'media':
      return { ...base, target: r.purpose, min: String(r.min ?? 1) };
    case 'price':
      return { ...base, target: r.priceType };
    case 'classification':
      return { ...base, target: r.system, release: r.release ?? '' };
    case 'features':
      return { ...base, target: r.system, release: r.release ?? '', share: r.share ?? 'all' };
    case 'quality':
      return {
        ...base,
        target: r.rule,
        system: r.system ?? base.system,
        release: r.release ?? '',
        feature: r.feature ?? '',
        rangeMin: r.min === undefined ? '' : String(r.min),
        rangeMax: r.max === undefined ? '' : String(r.max),
        unit: r.unit ?? '',
        attribute: r.attribute ?? '',
        pattern: r.pattern ?? '',
      };
  }
}

/** The fields of a quality rule beyond its name, as the API takes them (bounds checked by `draftProblem` first). */
function qualityExtras(row: RequirementRow) {
  const release = row.release.trim() ? { release: row.release.trim() } : {};
  const bound = (name: 'min' | 'max', text: string) => {
    const n = boundOf(text);
    return n === undefined ? {} : { [name]: n };
  };
  switch (row.target.trim()) {
    case 'pattern':
      return { attribute: row.attribute.trim(), pattern: row.pattern };
    case 'range':
      return {
        system: row.system.trim(),
        feature: row.feature.trim(),
        ...bound('min', row.rangeMin),
        ...bound('max', row.rangeMax),
        ...(row.unit.trim() ? { unit: row.unit.trim() } : {}),
      };
    case 'releaseRanges':
      return { system: row.system.trim(), ...release };
    default:
      return {};
  }
}

/** A row as the API takes it: empty extras left out (the server checks every name and says which row). */
export function bodyOf(row: RequirementRow): RequirementBody {
  const target = row.target.trim();
  const languages = {
    ...(row.languages?.length ? { languages: row.languages } : {}),
    ...(row.categoryId ? { categoryId: row.categoryId } : {}),
  };
  const release = row.release.trim() ? { release: row.release.trim() } : {};
  switch (row.kind) {
    case 'field':
      return { kind: 'field', field: target, ...languages };
    case 'attribute':
      return { kind: 'attribute', attribute: target, ...languages };
    case 'media': {
      const min = Number.parseInt(row.min, 10);
      return { kind: 'media', purpose: target, ...(Number.isFinite(min) && min > 1 ? { min } : {}), ...languages };
    }
    case 'price':
      return { kind: 'price', priceType: target, ...languages };
    case 'classification':
      return { kind: 'classification', system: target, ...release, ...languages };
    case 'features':
      return {
        kind: 'features',
        system: target,
        ...release,
        ...(row.share === 'mandatory' ? { share: 'mandatory' as const } : {}),
        ...languages,
      };
    case 'quality':
      return { kind: 'quality', rule: target, ...qualityExtras(row), ...languages };
  }
}
