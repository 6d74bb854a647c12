/**
 * The channel form's requirements as rows the form edits (pages/AdminChannels.tsx) and back to
 * AddChannel / UpdateChannel's `requirements` (docs/completeness.md "Requirements"). One text
 * box per row names what is required (a field, attribute code, media purpose, price type,
 * classification system or quality rule); the extras of a kind (at least N media, a release, the
 * share of features) are kept in their own columns; a row's `languages` limit is kept as read.
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
] as const;
export const QUALITY_RULES = ['gtinCheckDigit', 'gtinUnique', 'bmecatLengths'] as const;

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
  languages?: string[];
}

export type RequirementBody =
  | { kind: 'field'; field: string; languages?: string[] }
  | { kind: 'attribute'; attribute: string; languages?: string[] }
  | { kind: 'media'; purpose: string; min?: number; languages?: string[] }
  | { kind: 'price'; priceType: string; languages?: string[] }
  | { kind: 'classification'; system: string; release?: string; languages?: string[] }
  | { kind: 'features'; system: string; release?: string; share?: 'all' | 'mandatory'; languages?: string[] }
  | { kind: 'quality'; rule: string; languages?: string[] };

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
  return { kind, target, min: '1', release: '', share: 'all' };
}

/** A requirement as the API gave it, as a row. */
export function rowOf(r: RequirementBody): RequirementRow {
  const base = { ...newRow(r.kind), ...(r.languages?.length ? { languages: r.languages } : {}) };
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
      return { ...base, target: r.rule };
  }
}

/** A row as the API takes it: empty extras left out (the server checks every name and says which row). */
export function bodyOf(row: RequirementRow): RequirementBody {
  const target = row.target.trim();
  const languages = row.languages?.length ? { languages: row.languages } : {};
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
      return { kind: 'quality', rule: target, ...languages };
  }
}
